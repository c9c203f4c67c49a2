import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AUTH_ERRORS, envelope, problems } from '../http/schemas.js';
import { WaitlistEntry, WaitlistIdParams, WaitlistQuery } from './schemas.js';
import { listWaitlist, removeWaitlistEntry } from './service.js';
import { requires } from '../access/permissions.js';

/** Operator API: the waitlists of the operator's timeslots. */
export const waitlistAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Operator API: waitlists'];

  app.get('/waitlists', {
    config: requires('waitlists:read'),
    schema: {
      tags,
      summary: "A timeslot's waitlist",
      description:
        "Every entry of the timeslot's waitlist in the order customers joined: pending (address not confirmed yet: not in the queue), lapsed, waiting (with its place " +
        'in the queue, which is the order of confirmation), offered, claimed, expired, removed.',
      querystring: WaitlistQuery,
      response: { 200: envelope(Type.Array(WaitlistEntry)), ...problems(...AUTH_ERRORS, 404, 422) },
    },
    handler: async (request) => ({ data: await listWaitlist(app.db.kysely, request.caller.operatorId, request.query.TimeslotID) }),
  });

  app.post('/waitlists/:ID/remove', {
    config: requires('waitlists:write'),
    schema: {
      tags,
      summary: 'Take a waiting customer off the waitlist',
      description: 'Only a waiting or pending entry changes (to removed); an offer already made runs its course, and removing again changes nothing.',
      params: WaitlistIdParams,
      response: { 200: envelope(WaitlistEntry), ...problems(400, ...AUTH_ERRORS, 404) },
    },
    handler: async (request) => ({ data: await removeWaitlistEntry(app.db, request.caller.operatorId, request.params.ID) }),
  });
};
