// Guests of the online shop upload the files their waiver asks for (a photo ID) to their basket, and name
// them in the WaiverAnswers of the basket's items. A file uploaded through one basket can be named by
// that basket's items only. Public, like the rest of the shop: rate-limited per address, and bounded by
// the per-basket and per-address quotas (questions/uploads.ts). Registered inside the shop's routes, whose
// hook answers 404 for a closed shop.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { envelope, problems } from '../http/schemas.js';
import { Conflict } from '../http/errors.js';
import { Upload } from '../questions/schemas.js';
import { ALLOWED_FILE_TYPES_TEXT } from '../questions/file-types.js';
import { acceptRawUploads, answerUpload, MAX_UPLOAD_BYTES, storeUpload } from '../questions/uploads.js';
import { requireBasket } from './baskets.js';
import { clientFingerprint } from './client.js';
import { BasketParams } from './schemas.js';

export const shopUploadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  acceptRawUploads(app);

  app.post('/baskets/:BasketToken/uploads', {
    config: { shopper: true },
    bodyLimit: MAX_UPLOAD_BYTES,
    schema: {
      tags: ['Online shop (public)'],
      summary: 'Upload a file for a waiver question',
      description:
        `The file is the raw request body, at most 10 MiB, and must be ${ALLOWED_FILE_TYPES_TEXT}: its content decides (415 otherwise). ` +
        'Name the returned FileID in the WaiverAnswers of an item of this basket (no other basket can). 409 when the basket is paid, or when it has ' +
        'uploaded as much as a basket may (UPLOAD_BASKET_MAX_FILES, UPLOAD_BASKET_MAX_MB); 429 quota-exceeded with Retry-After when the guests at ' +
        'this address hold too many files that no paid booking names (UPLOAD_ADDRESS_MAX_FILES, UPLOAD_ADDRESS_MAX_MB): an item on hold does not make room. ' +
        'Files no paid booking names are deleted a day after their upload, or after the hold of the item that named them.',
      params: BasketParams,
      consumes: ['*/*'],
      body: Type.Unsafe<Buffer | undefined>({ description: "The file's bytes", contentMediaType: 'application/octet-stream' }),
      response: { 201: envelope(Upload), ...problems(400, 404, 409, 413, 415, 422, 429) },
    },
    handler: async (request, reply) => {
      const { OperatorID, BasketToken } = request.params;
      const basket = await requireBasket(app.db.kysely, OperatorID, BasketToken);
      if (basket.status !== 'open') throw new Conflict('This basket is paid; its items take no more answers');
      // The address itself is not stored: an HMAC of it (per /64 for IPv6) is enough to count what one client holds.
      const owner = { operatorId: OperatorID, basketId: basket.id, clientFingerprint: clientFingerprint(request) };
      return answerUpload(reply, () => storeUpload(app.db, owner, request.headers['content-type'], request.body, app.config.uploads));
    },
  });
};
