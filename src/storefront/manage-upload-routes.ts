// A guest completing their booking's waiver uploads the files it asks for (a photo ID) through the
// booking's own link; only that booking may name them (questions/upload-store.ts, scope "booking"). Its
// own plugin scope: the body is the file's raw bytes whatever its Content-Type. Public and rate-limited like
// the shop, bounded like a basket's uploads (per booking, and per address).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { envelope, problems } from '../http/schemas.js';
import { Upload } from '../questions/schemas.js';
import { ALLOWED_FILE_TYPES_TEXT } from '../questions/file-types.js';
import { acceptRawUploads, answerUpload, MAX_UPLOAD_BYTES, storeUpload } from '../questions/uploads.js';
import { clientFingerprint } from '../shop/client.js';
import { ManageParams } from './manage-schemas.js';
import { bookingForUpload } from './manage.js';

export const manageUploadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  acceptRawUploads(app);

  app.post('/bookings/:ManageToken/uploads', {
    config: { shopper: true },
    bodyLimit: MAX_UPLOAD_BYTES,
    schema: {
      tags: ['Online shop (public)'],
      summary: "Upload a file for a booking's waiver",
      description:
        `The file is the raw request body, at most 10 MiB, and must be ${ALLOWED_FILE_TYPES_TEXT}: its content decides (415 otherwise). ` +
        'Name the returned FileID in POST .../bookings/{ManageToken}/waiver of this booking (no other booking or basket can). 409 once the waiver is ' +
        'complete, for a booking that is not live, or when the booking has uploaded as much as a basket may; 429 quota-exceeded with Retry-After when ' +
        'the guests at this address hold too many files that no booking names yet.',
      params: ManageParams,
      consumes: ['*/*'],
      body: Type.Unsafe<Buffer | undefined>({ description: "The file's bytes", contentMediaType: 'application/octet-stream' }),
      response: { 201: envelope(Upload), ...problems(400, 404, 409, 413, 415, 422, 429) },
    },
    handler: async (request, reply) => {
      const { OperatorID, ManageToken } = request.params;
      const bookingId = await bookingForUpload(app.db.kysely, app.instanceKeys, OperatorID, ManageToken);
      const owner = { operatorId: OperatorID, bookingId, clientFingerprint: clientFingerprint(request) };
      return answerUpload(reply, () => storeUpload(app.db, owner, request.headers['content-type'], request.body, app.config.uploads));
    },
  });
};
