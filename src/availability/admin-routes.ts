import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ActivityIdParams, AUTH_ERRORS, envelope, problems } from '../http/schemas.js';
import { AdminRangeQuery, AdminTimeslot, CreateTimeslotsBody, TimeslotIdParams } from './schemas.js';
import { getAdminTimeslot, listAdminTimeslots } from './service.js';
import { createTimeslots } from './creation.js';
import { requires } from '../access/permissions.js';

/** Operator API: timeslots of the operator's activities. */
export const timeslotAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Operator API: timeslots'];

  app.post('/activities/:ActivityID/timeslots', {
    config: requires('activities:write'),
    schema: {
      tags,
      summary: 'Create one timeslot or a weekly schedule of timeslots',
      description:
        '{Date, Time, Capacity} answers the timeslot (409 if it exists, 422 if the clocks skip that time). ' +
        '{From, To, Weekdays, Times, Capacity} answers the list of timeslots it created. Timeslots in the past may be created.',
      params: ActivityIdParams,
      body: CreateTimeslotsBody,
      response: {
        201: Type.Union([envelope(AdminTimeslot, 'One timeslot'), envelope(Type.Array(AdminTimeslot), 'The timeslots of a schedule')]),
        ...problems(400, ...AUTH_ERRORS, 404, 409, 413, 415, 422),
      },
    },
    handler: async (request, reply) => {
      const created = await createTimeslots(app.db, request.caller.operatorId, request.params.ActivityID, request.body);
      if (created.kind === 'schedule') return reply.code(201).send({ data: created.timeslots });
      return reply.code(201).header('Location', `/api/v2/admin/timeslots/${created.timeslot.ID}`).send({ data: created.timeslot });
    },
  });

  app.get('/activities/:ActivityID/timeslots', {
    config: requires('activities:read'),
    schema: {
      tags,
      summary: "List an activity's timeslots",
      description: 'Timeslots with dates from From to To (inclusive), by start, with seats booked and free.',
      params: ActivityIdParams,
      querystring: AdminRangeQuery,
      response: { 200: envelope(Type.Array(AdminTimeslot)), ...problems(400, ...AUTH_ERRORS, 404, 422) },
    },
    handler: async (request) => ({
      data: await listAdminTimeslots(app.db.kysely, request.caller.operatorId, request.params.ActivityID, request.query),
    }),
  });

  app.get('/timeslots/:ID', {
    config: requires('activities:read'),
    schema: {
      tags,
      summary: 'Get a timeslot',
      params: TimeslotIdParams,
      response: { 200: envelope(AdminTimeslot), ...problems(400, ...AUTH_ERRORS, 404) },
    },
    handler: async (request) => ({ data: await getAdminTimeslot(app.db.kysely, request.caller.operatorId, request.params.ID) }),
  });
  // PATCH /timeslots/:ID (its capacity) releases lapsed holds first: a flow (flows/timeslot-capacity.ts).
};
