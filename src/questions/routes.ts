import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ActivityIdParams, AUTH_ERRORS, envelope, PartnerActivityParams, PartnerParams, problems } from '../http/schemas.js';
import { Question, QuestionsQuery, Upload } from './schemas.js';
import { listQuestions } from './service.js';
import { MAX_UPLOAD_BYTES, storeUpload } from './uploads.js';

/** Partner API: waiver questions and the uploads that answer file questions. */
export const questionPartnerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/questions/:ActivityID', {
    config: { scope: 'ota' },
    schema: {
      tags: ['Partner API'],
      summary: 'Get waiver questions',
      description:
        'The activity\'s waiver questions ordered by Position. With Locale (a BCP 47 tag) the texts are in that language where the operator translated them, else in its base language (de for de-CH), else the default text. A malformed Locale is 422.',
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

/**
 * Its own plugin scope, because only here is the body not JSON: any Content-Type is taken as raw bytes
 * (an uploaded JSON file stays a file), up to 10 MiB; larger bodies are 413 from Fastify's limit.
 */
const uploadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES }, (_request, body, done) => done(null, body));

  app.post('/uploads', {
    config: { scope: 'ota' },
    bodyLimit: MAX_UPLOAD_BYTES,
    schema: {
      tags: ['Partner API'],
      summary: 'Upload a file for a file-upload question',
      description:
        'The file is the raw request body, sent with its own Content-Type (default application/octet-stream), at most 10 MiB. Answer the question with the returned FileID.',
      params: PartnerParams,
      consumes: ['*/*'],
      body: Type.Unsafe<Buffer | undefined>({ description: 'The file\'s bytes', contentMediaType: 'application/octet-stream' }),
      response: { 201: envelope(Upload), ...problems(...AUTH_ERRORS, 413, 422) },
    },
    handler: async (request, reply) => {
      const upload = await storeUpload(app.db.kysely, request.caller.operatorId, request.headers['content-type'], request.body);
      return reply.code(201).send({ data: upload });
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
