// Public: the resized photos, for the booking pages, partners' and resellers' websites. The address names
// the photo's ID, its digest and the width, so its bytes never change: cached for a year, immutable. The
// bytes were checked and re-encoded by slotbook at upload; nosniff (helmet) and a CSP of nothing guard the rest.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { NotFound } from '../../http/errors.js';
import { MAX_ROW_ID } from '../../http/schemas.js';
import { readPhotoSize } from './store.js';

/** {PhotoID}-{digest}-{width}.jpg (the digest is base64url, which has hyphens of its own: it is 22 long). */
const FILE = /^([1-9][0-9]{0,14})-([A-Za-z0-9_-]{22})-([1-9][0-9]{1,4})\.jpg$/;
const PhotoFileParams = Type.Object({
  OperatorID: Type.Integer({ minimum: 1, maximum: MAX_ROW_ID }),
  File: Type.String({ pattern: FILE.source }),
});

export const photoRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/photos/:OperatorID/:File', {
    config: { shopper: true },
    schema: { hide: true, params: PhotoFileParams },
    handler: async (request, reply) => {
      const { OperatorID, File } = request.params;
      const [, id, digest, width] = FILE.exec(File)!;
      const photoId = Number(id);
      const content =
        photoId <= MAX_ROW_ID
          ? await readPhotoSize(app.db.kysely, { operatorId: OperatorID, photoId, digest: digest!, width: Number(width) })
          : undefined;
      if (!content) throw new NotFound('No such photo');
      return reply
        .headers({
          'content-type': 'image/jpeg',
          'cache-control': 'public, max-age=31536000, immutable',
          'cross-origin-resource-policy': 'cross-origin',
          'content-security-policy': "default-src 'none'; sandbox",
        })
        .send(content);
    },
  });
};
