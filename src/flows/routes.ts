// The operator API's routes whose use case crosses domains: they run a flow. Each keeps the tag and
// address of the domain it belongs to, so the API reference reads as if the domain had registered it.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTH_ERRORS, envelope, problems } from '../http/schemas.js';
import { requires } from '../access/permissions.js';
import { AdminTimeslot, TimeslotIdParams, UpdateTimeslotBody } from '../availability/schemas.js';
import { changeTimeslotCapacity } from './timeslot-capacity.js';

export const flowAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.patch('/timeslots/:ID', {
    config: requires('activities:write'),
    schema: {
      tags: ['Operator API: timeslots'],
      summary: "Change a timeslot's capacity",
      description: 'The capacity can never go below the seats already booked (409).',
      params: TimeslotIdParams,
      body: UpdateTimeslotBody,
      response: { 200: envelope(AdminTimeslot), ...problems(400, ...AUTH_ERRORS, 404, 409, 413, 415, 422) },
    },
    handler: async (request) => ({
      data: await changeTimeslotCapacity(app.db, request.caller.operatorId, request.params.ID, request.body.Capacity),
    }),
  });
};
