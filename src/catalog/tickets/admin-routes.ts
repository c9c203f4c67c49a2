import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ActivityIdParams, AUTH_ERRORS, envelope, problems } from '../../http/schemas.js';
import { requires } from '../../access/permissions.js';
import { AdminTicketType, CreateTicketTypeBody, TicketTypeIdParams, UpdateTicketTypeBody } from './schemas.js';
import { changeTicketType, createTicketType, deleteTicketType, listAdminTicketTypes } from './service.js';

/** Operator API: the ticket types of each activity (adult, child, ...), with their prices and rules. */
export const ticketTypeAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Operator API: ticket types'];

  app.get('/activities/:ActivityID/ticket-types', {
    config: requires('activities:read'),
    schema: {
      tags,
      summary: "List an activity's ticket types",
      description: 'The types on sale, by Position. Every activity has at least one, and exactly one is the Default (what Participants books).',
      params: ActivityIdParams,
      response: { 200: envelope(Type.Array(AdminTicketType)), ...problems(400, ...AUTH_ERRORS, 404) },
    },
    handler: async (request) => ({ data: await listAdminTicketTypes(app.db.kysely, request.caller.operatorId, request.params.ActivityID) }),
  });

  app.post('/activities/:ActivityID/ticket-types', {
    config: requires('activities:write'),
    schema: {
      tags,
      summary: 'Add a ticket type',
      description:
        'Type is the code bookings name it by (Tickets[].Type, the OCTo unit id); unique within the activity and fixed once created. ' +
        "Default true makes it the type Participants books (and its Price the activity's UnitPrice). 422 names each failing field.",
      params: ActivityIdParams,
      body: CreateTicketTypeBody,
      response: { 201: envelope(AdminTicketType), ...problems(400, ...AUTH_ERRORS, 404, 413, 415, 422) },
    },
    handler: async (request, reply) => {
      const created = await createTicketType(app.db, request.caller.operatorId, request.params.ActivityID, request.body);
      return reply.code(201).header('Location', `/api/v2/admin/ticket-types/${created.ID}`).send({ data: created });
    },
  });

  app.patch('/ticket-types/:ID', {
    config: requires('activities:write'),
    schema: {
      tags,
      summary: 'Change a ticket type',
      description:
        'Any field but Type. A new Price applies to bookings made from now on; booked tickets keep their price. ' +
        'Translations replaces all translations. The default type stays the default until another type is made it.',
      params: TicketTypeIdParams,
      body: UpdateTicketTypeBody,
      response: { 200: envelope(AdminTicketType), ...problems(400, ...AUTH_ERRORS, 404, 413, 415, 422) },
    },
    handler: async (request) => ({ data: await changeTicketType(app.db, request.caller.operatorId, request.params.ID, request.body) }),
  });

  app.delete('/ticket-types/:ID', {
    config: requires('activities:write'),
    schema: {
      tags,
      summary: 'Take a ticket type off sale',
      description:
        'Bookings that hold its tickets keep them, with their name and price. The default type and a type another one Requires cannot be removed (409).',
      params: TicketTypeIdParams,
      response: { 204: Type.Null({ description: 'Removed' }), ...problems(400, ...AUTH_ERRORS, 404, 409) },
    },
    handler: async (request, reply) => {
      await deleteTicketType(app.db, request.caller.operatorId, request.params.ID);
      return reply.code(204).send(null);
    },
  });
};
