// Public: an operator's logo, for the booking pages, e-mails and other websites. The address names the
// image's digest, so it is cached for a year and immutable; a new logo gets a new address. The bytes were
// checked when uploaded (PNG, JPEG or WebP only); helmet's nosniff and a CSP of nothing guard the rest.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { NotFound } from '../http/errors.js';
import { MAX_ROW_ID } from '../http/schemas.js';
import { LOGO_TYPES } from './logo.js';
import { readLogo } from './store.js';

const LogoParams = Type.Object({
  OperatorID: Type.Integer({ minimum: 1, maximum: MAX_ROW_ID }),
  File: Type.String({ pattern: '^logo-[A-Za-z0-9_-]{22}\\.(png|jpg|webp)$' }),
});

export const brandingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/branding/:OperatorID/:File', {
    config: { shopper: true },
    schema: { hide: true, params: LogoParams },
    handler: async (request, reply) => {
      const { OperatorID, File } = request.params;
      const logo = await readLogo(app.db.kysely, OperatorID);
      if (!logo || File !== `logo-${logo.digest}.${LOGO_TYPES[logo.content_type]}`) throw new NotFound('No such logo');
      return reply
        .headers({
          'content-type': logo.content_type,
          'cache-control': 'public, max-age=31536000, immutable',
          // Other websites' pages (the embed) and web mail show it.
          'cross-origin-resource-policy': 'cross-origin',
          'content-security-policy': "default-src 'none'; sandbox",
        })
        .send(logo.content);
    },
  });
};
