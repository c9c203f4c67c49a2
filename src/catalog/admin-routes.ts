import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ActivityIdParams, AUTH_ERRORS, envelope, problems } from '../http/schemas.js';
import { AdminProduct, CreateActivityBody, UpdateActivityBody } from './schemas.js';
import { changeActivity, createActivity, getAdminProduct, listAdminProducts } from './service.js';
import { requires } from '../access/permissions.js';

/** Operator API: activities, including archived ones. */
export const catalogAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Operator API: activities'];

  app.get('/activities', {
    config: requires('activities:read'),
    schema: { tags, summary: 'List activities', response: { 200: envelope(Type.Array(AdminProduct)), ...problems(...AUTH_ERRORS) } },
    handler: async (request) => ({ data: await listAdminProducts(app.db.kysely, request.caller.operatorId, app.config.publicUrl) }),
  });

  app.post('/activities', {
    config: requires('activities:write'),
    schema: {
      tags,
      summary: 'Create an activity',
      description:
        'The activity starts with one ticket type, Adult (Type adult) at UnitPrice, its default; add others under /activities/{ActivityID}/ticket-types.',
      body: CreateActivityBody,
      response: { 201: envelope(AdminProduct), ...problems(400, ...AUTH_ERRORS, 413, 415, 422) },
    },
    handler: async (request, reply) => {
      const product = await createActivity(app.db, request.caller.operatorId, request.body);
      return reply.code(201).header('Location', `/api/v2/admin/activities/${product.ActivityID}`).send({ data: product });
    },
  });

  app.get('/activities/:ActivityID', {
    config: requires('activities:read'),
    schema: {
      tags,
      summary: 'Get an activity',
      params: ActivityIdParams,
      response: { 200: envelope(AdminProduct), ...problems(400, ...AUTH_ERRORS, 404) },
    },
    handler: async (request) => ({
      data: await getAdminProduct(app.db.kysely, request.caller.operatorId, request.params.ActivityID, app.config.publicUrl),
    }),
  });

  app.patch('/activities/:ActivityID', {
    config: requires('activities:write'),
    schema: {
      tags,
      summary: 'Change or archive an activity',
      params: ActivityIdParams,
      body: UpdateActivityBody,
      response: { 200: envelope(AdminProduct), ...problems(400, ...AUTH_ERRORS, 404, 409, 413, 415, 422) },
    },
    handler: async (request) => ({
      data: await changeActivity(app.db, request.caller.operatorId, request.params.ActivityID, request.body, app.config.publicUrl),
    }),
  });
};
