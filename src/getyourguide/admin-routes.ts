// Operator API: the GetYourGuide connection (docs/channels/getyourguide.md). Owners and admin keys only
// (keys:manage): the inbound credentials let a marketplace book and cancel, as an API key does.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { requires } from '../access/permissions.js';
import { AUTH_ERRORS, envelope, problems } from '../http/schemas.js';
import { ActivityParams, GygConnection, GygProductMapping, OutboundBody, ProductMappingBody, UpdateConnectionBody } from './admin-schemas.js';
import { getConnection, listProducts, mapProduct, rotateCredentials, setOutboundCredentials, updateConnectionSettings } from './connection.js';

const tags = ['Operator API: GetYourGuide'];
const permission = requires('keys:manage');

export const gygAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const settings = app.config;

  app.get('/getyourguide', {
    config: permission,
    schema: {
      tags,
      summary: 'The GetYourGuide connection',
      description:
        "Whether it is set up and switched on, the base URL and user name to give GetYourGuide (never the password), GYG's supplier ID, " +
        'the hold length, the ticket style, whether outbound credentials are stored, and the latest notifications and requests of GetYourGuide.',
      response: { 200: envelope(GygConnection), ...problems(...AUTH_ERRORS) },
    },
    handler: async (request) => ({ data: await getConnection(app.db.kysely, settings, request.caller.operatorId) }),
  });

  app.patch('/getyourguide', {
    config: permission,
    schema: {
      tags,
      summary: 'Set up or change the GetYourGuide connection',
      description:
        'Switch it on or off, set the GetYourGuide supplier ID, the hold length (null: the instance default) or the ticket style. ' +
        'The first change sets the connection up with new inbound credentials: that answer carries the Password, shown once.',
      body: UpdateConnectionBody,
      response: { 200: envelope(GygConnection), ...problems(400, ...AUTH_ERRORS, 413, 415, 422) },
    },
    handler: async (request) => ({ data: await updateConnectionSettings(app.db, settings, request.caller.operatorId, request.body) }),
  });

  app.post('/getyourguide/credentials', {
    config: permission,
    schema: {
      tags,
      summary: 'Rotate the inbound credentials',
      description:
        'A new user name and password for GetYourGuide to call with; the old ones stop working at once. The Password is in this answer only.',
      response: { 200: envelope(GygConnection), ...problems(...AUTH_ERRORS) },
    },
    handler: async (request) => ({ data: await rotateCredentials(app.db, settings, request.caller.operatorId) }),
  });

  app.put('/getyourguide/outbound', {
    config: permission,
    schema: {
      tags,
      summary: "Store GetYourGuide's credentials for its API",
      description: 'The user name and password GetYourGuide issued for pushing availability. The password is sealed and never shown again.',
      body: OutboundBody,
      response: { 200: envelope(GygConnection), ...problems(400, ...AUTH_ERRORS, 413, 415, 422) },
    },
    handler: async (request) => ({
      data: await setOutboundCredentials(app.db, app.instanceKeys, settings, request.caller.operatorId, request.body),
    }),
  });

  app.delete('/getyourguide/outbound', {
    config: permission,
    schema: {
      tags,
      summary: "Forget GetYourGuide's credentials for its API",
      response: { 200: envelope(GygConnection), ...problems(...AUTH_ERRORS) },
    },
    handler: async (request) => ({ data: await setOutboundCredentials(app.db, app.instanceKeys, settings, request.caller.operatorId, null) }),
  });

  app.get('/getyourguide/products', {
    config: permission,
    schema: {
      tags,
      summary: 'What GetYourGuide may sell',
      description:
        "Every live activity with the GetYourGuide product ID it is offered under (null: not offered), and each ticket type's GetYourGuide " +
        'category: offered, or the reason it is not (no equivalent category, a category taken by another type, a family ticket not mapped to GROUP, ...).',
      response: { 200: envelope(Type.Array(GygProductMapping)), ...problems(...AUTH_ERRORS) },
    },
    handler: async (request) => ({ data: await listProducts(app.db.kysely, request.caller.operatorId) }),
  });

  app.put('/getyourguide/products/:ActivityID', {
    config: permission,
    schema: {
      tags,
      summary: 'Offer an activity on GetYourGuide',
      description:
        'ProductID: the GetYourGuide product ID to offer the activity under (null: no longer offered); unique per operator (422). ' +
        "Categories: a ticket type's GetYourGuide category (NONE: not offered; null: back to the default its own category implies).",
      params: ActivityParams,
      body: ProductMappingBody,
      response: { 200: envelope(GygProductMapping), ...problems(400, ...AUTH_ERRORS, 404, 413, 415, 422) },
    },
    handler: async (request) => ({ data: await mapProduct(app.db, request.caller.operatorId, request.params.ActivityID, request.body) }),
  });
};
