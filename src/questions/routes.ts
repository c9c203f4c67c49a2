import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ActivityIdParams, AUTH_ERRORS, envelope, PartnerActivityParams, PartnerParams, problems } from '../http/schemas.js';
import { Question, QuestionsQuery, Upload } from './schemas.js';
import { listQuestions } from './service.js';
import { acceptRawUploads, answerUpload, MAX_UPLOAD_BYTES, storeUpload } from './uploads.js';
import { ALLOWED_FILE_TYPES_TEXT } from './file-types.js';

/** Partner API: waiver questions and the uploads that answer file questions. */
export const questionPartnerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/questions/:ActivityID', {
    config: { scope: 'ota' },
    schema: {
      tags: ['Partner API'],
      summary: 'Get waiver questions',
      description:
        "The activity's waiver questions ordered by Position. With Locale (a BCP 47 tag) the texts are in that language where the operator translated them, else in its base language (de for de-CH), else the default text. A malformed Locale is 422.",
      params: PartnerActivityParams,
      querystring: QuestionsQuery,
      response: { 200: envelope(Type.Array(Question)), ...problems(400, ...AUTH_ERRORS, 404, 422) },
    },
    handler: async (request) => ({
      data: await listQuestions(app.db.kysely, request.caller.operatorId, request.params.ActivityID, request.query.Locale),
    }),
  });

  await app.register(uploadRoutes);
};

/** Its own plugin scope, because only here is the body not JSON but the file's bytes. */
const uploadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  acceptRawUploads(app);

  app.post('/uploads', {
    config: { scope: 'ota' },
    bodyLimit: MAX_UPLOAD_BYTES,
    schema: {
      tags: ['Partner API'],
      summary: 'Upload a file for a file-upload question',
      description:
        `The file is the raw request body, at most 10 MiB, and must be ${ALLOWED_FILE_TYPES_TEXT}: its content decides (415 otherwise), ` +
        'and ContentType in the answer is the type the content has. Send its Content-Type, or application/octet-stream. Answer the question with ' +
        'the returned FileID in a booking of this marketplace; a file no confirmed booking names is deleted a day (UPLOAD_UNATTACHED_HOURS) after its upload, ' +
        'or after the expiry of the hold that named it. Each API key may hold a limited number of such files, those named only by holds among them ' +
        '(UPLOAD_KEY_MAX_FILES, UPLOAD_KEY_MAX_MB): beyond it, 429 quota-exceeded with Retry-After.',
      params: PartnerParams,
      consumes: ['*/*'],
      body: Type.Unsafe<Buffer | undefined>({ description: "The file's bytes", contentMediaType: 'application/octet-stream' }),
      response: { 201: envelope(Upload), ...problems(...AUTH_ERRORS, 413, 415, 422) },
    },
    handler: async (request, reply) => {
      const { operatorId, keyId, partner } = request.caller;
      // An ota route: the caller is always an API key.
      const owner = { operatorId, apiKeyId: keyId!, partner };
      return answerUpload(reply, () => storeUpload(app.db, owner, request.headers['content-type'], request.body, app.config.uploads));
    },
  });
};

/** The core path: any valid key of the operator, no marketplace, texts in the default language. */
export const questionCoreRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/questions/:ActivityID', {
    config: { scope: 'any' },
    schema: {
      tags: ['Partner API'],
      summary: 'Get waiver questions (core path)',
      description: 'The same questions as the partner path, for any valid key of the operator, in the default language.',
      params: ActivityIdParams,
      response: { 200: envelope(Type.Array(Question)), ...problems(400, 401, 429, 404) },
    },
    handler: async (request) => ({ data: await listQuestions(app.db.kysely, request.caller.operatorId, request.params.ActivityID) }),
  });
};
