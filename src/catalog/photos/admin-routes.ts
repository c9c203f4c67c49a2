// Operator API: an activity's photos (activities:write). The upload takes the image's raw bytes (any
// Content-Type: the bytes decide), in its own scope with the photo's size limit.
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { requires } from '../../access/permissions.js';
import { ActivityIdParams, AUTH_ERRORS, envelope, problems } from '../../http/schemas.js';
import { MAX_PHOTO_BYTES, MAX_PHOTO_PIXELS, MAX_PHOTOS_PER_ACTIVITY } from './rules.js';
import { ActivityPhoto, ChangePhotoBody, PhotoParams, UploadPhotoQuery } from './schemas.js';
import { addPhoto, changePhoto, removePhoto } from './service.js';

const tags = ['Operator API: activities'];

export const photoAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const publicUrl = app.config.publicUrl;

  app.patch('/activities/:ActivityID/photos/:PhotoID', {
    config: requires('activities:write'),
    schema: {
      tags,
      summary: "Change a photo's alternative text",
      params: PhotoParams,
      body: ChangePhotoBody,
      response: { 200: envelope(ActivityPhoto), ...problems(400, ...AUTH_ERRORS, 404, 413, 415, 422) },
    },
    handler: async (request) => {
      const { ActivityID, PhotoID } = request.params;
      return { data: await changePhoto(app.db, request.caller.operatorId, ActivityID, PhotoID, request.body, publicUrl) };
    },
  });

  app.delete('/activities/:ActivityID/photos/:PhotoID', {
    config: requires('activities:write'),
    schema: {
      tags,
      summary: 'Remove a photo',
      params: PhotoParams,
      response: { 204: Type.Null({ description: 'Removed' }), ...problems(400, ...AUTH_ERRORS, 404) },
    },
    handler: async (request, reply) => {
      await removePhoto(app.db, request.caller.operatorId, request.params.ActivityID, request.params.PhotoID);
      return reply.code(204).send(null);
    },
  });

  await app.register(async (scope) => {
    const upload = scope.withTypeProvider<TypeBoxTypeProvider>();
    upload.removeAllContentTypeParsers();
    upload.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_PHOTO_BYTES }, (_request, body, done) => done(null, body));
    upload.post('/activities/:ActivityID/photos', {
      config: requires('activities:write'),
      schema: {
        tags,
        summary: 'Add a photo',
        description:
          `The body is the image itself: JPEG or PNG, judged by its bytes (anything else, SVG included, is 415), at most ${MAX_PHOTO_BYTES / 1024 / 1024} MiB (413) ` +
          `and ${MAX_PHOTO_PIXELS / 1_000_000} megapixels, each side at least 200 pixels (422 naming Photo). An activity has at most ${MAX_PHOTOS_PER_ACTIVITY} photos (409). ` +
          'Alt (query) says what it shows, for screen readers. The photo is resized once, to JPEGs 480, 960 and 1600 pixels wide (never wider than the original), ' +
          "served under addresses that never change content; the first photo is the activity's cover.",
        params: ActivityIdParams,
        querystring: UploadPhotoQuery,
        response: { 201: envelope(ActivityPhoto), ...problems(400, ...AUTH_ERRORS, 404, 409, 413, 415, 422) },
      },
      handler: async (request, reply) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const photo = await addPhoto(app.db, request.caller.operatorId, request.params.ActivityID, body, request.query.Alt ?? '', publicUrl);
        return reply.code(201).send({ data: photo });
      },
    });
  });
};
