import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ActivityIdParams, AUTH_ERRORS, envelope, problems } from '../http/schemas.js';
import { AdminQuestion, CreateQuestionBody, QuestionIdParams, UpdateQuestionBody } from './schemas.js';
import { changeQuestion, createQuestion, listAdminQuestions, removeQuestion } from './service.js';
import { requires } from '../access/permissions.js';

/** Operator API: the waiver questions of each activity, with their translations. */
export const questionAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Operator API: waiver questions'];

  app.post('/activities/:ActivityID/questions', {
    config: requires('activities:write'),
    schema: {
      tags,
      summary: 'Add a waiver question',
      description: 'Position defaults to after the last question. Translations: {"<BCP 47 tag>": {Question, Options?}}.',
      params: ActivityIdParams,
      body: CreateQuestionBody,
      response: { 201: envelope(AdminQuestion), ...problems(400, ...AUTH_ERRORS, 404, 413, 415, 422) },
    },
    handler: async (request, reply) => {
      const question = await createQuestion(app.db, request.caller.operatorId, request.params.ActivityID, request.body);
      return reply.code(201).send({ data: question });
    },
  });

  app.get('/activities/:ActivityID/questions', {
    config: requires('activities:read'),
    schema: {
      tags,
      summary: "List an activity's waiver questions",
      params: ActivityIdParams,
      response: { 200: envelope(Type.Array(AdminQuestion)), ...problems(400, ...AUTH_ERRORS, 404) },
    },
    handler: async (request) => ({ data: await listAdminQuestions(app.db.kysely, request.caller.operatorId, request.params.ActivityID) }),
  });

  app.patch('/questions/:ID', {
    config: requires('activities:write'),
    schema: {
      tags,
      summary: 'Change a waiver question',
      description: "Changing Type without Options/RequiresFileUpload resets them to the new type's defaults. Translations replaces all translations.",
      params: QuestionIdParams,
      body: UpdateQuestionBody,
      response: { 200: envelope(AdminQuestion), ...problems(400, ...AUTH_ERRORS, 404, 413, 415, 422) },
    },
    handler: async (request) => ({
      data: await app.db.write((tx) => changeQuestion(tx, request.caller.operatorId, request.params.ID, request.body)),
    }),
  });

  app.delete('/questions/:ID', {
    config: requires('activities:write'),
    schema: {
      tags,
      summary: 'Delete a waiver question',
      description: 'A question that bookings have answered cannot be deleted (409); make it optional instead.',
      params: QuestionIdParams,
      response: { 204: Type.Null({ description: 'Deleted' }), ...problems(400, ...AUTH_ERRORS, 404, 409) },
    },
    handler: async (request, reply) => {
      await removeQuestion(app.db, request.caller.operatorId, request.params.ID);
      return reply.code(204).send(null);
    },
  });
};
