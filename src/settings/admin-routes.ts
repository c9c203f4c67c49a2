// Operator API: the shop's settings (name, slug, contact e-mail, brand colour, logo, allowed embed
// websites), under settings:manage like opening the shop. Every change writes an audit entry.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requires } from '../access/permissions.js';
import { AUTH_ERRORS, envelope, problems } from '../http/schemas.js';
import { OperatorSettings, OperatorSettingsChange } from './schemas.js';
import { changeOperatorSettings, getOperatorSettings, removeLogo, replaceLogo } from './service.js';
import { MAX_LOGO_BYTES } from './logo.js';

const tags = ['Operator API: shop settings'];

export const settingsAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const publicUrl = app.config.publicUrl;

  app.get('/settings', {
    config: requires('settings:manage'),
    schema: {
      tags,
      summary: "The shop's settings, the booking pages' address and the embed snippet",
      response: { 200: envelope(OperatorSettings), ...problems(...AUTH_ERRORS) },
    },
    handler: async (request) => ({ data: await getOperatorSettings(app.db.kysely, request.caller.operatorId, publicUrl) }),
  });

  app.patch('/settings', {
    config: requires('settings:manage'),
    schema: {
      tags,
      summary: "Change the shop's settings",
      description:
        "Only the fields sent change. ContactEmail is the same address as the webhook settings' ContactEmail. " +
        'A new Slug moves the booking pages to /book/{Slug}; the old address redirects there until another operator takes it. ' +
        'AllowedEmbedOrigins: once the list is not empty, only those websites (and slotbook itself) may show the booking pages in a frame (Content-Security-Policy frame-ancestors).',
      body: OperatorSettingsChange,
      response: { 200: envelope(OperatorSettings), ...problems(400, ...AUTH_ERRORS, 409, 413, 415, 422) },
    },
    handler: async (request) => ({ data: await changeOperatorSettings(app.db, request.caller.operatorId, request.body, publicUrl) }),
  });

  app.delete('/settings/logo', {
    config: requires('settings:manage'),
    schema: { tags, summary: 'Remove the logo', response: { 200: envelope(OperatorSettings), ...problems(...AUTH_ERRORS) } },
    handler: async (request) => ({ data: await removeLogo(app.db, request.caller.operatorId, publicUrl) }),
  });

  // The upload takes the image's raw bytes (any Content-Type: the bytes decide), in its own scope.
  await app.register(async (upload) => {
    upload.removeAllContentTypeParsers();
    upload.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_LOGO_BYTES }, (_request, body, done) => done(null, body));
    upload.put('/settings/logo', {
      config: requires('settings:manage'),
      schema: {
        tags,
        summary: 'Upload the logo',
        description: `The body is the image itself: PNG, JPEG or WebP, judged by its bytes, at most ${MAX_LOGO_BYTES / 1024} KiB. SVG is refused (415). It replaces the logo before; LogoUrl changes with it.`,
        response: { 200: envelope(OperatorSettings), ...problems(...AUTH_ERRORS, 413, 415) },
      },
      handler: async (request) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        return { data: await replaceLogo(app.db, request.caller.operatorId, body, publicUrl) };
      },
    });
  });
};
