import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AUTH_ERRORS, envelope, problems } from '../http/schemas.js';
import { requires } from '../access/permissions.js';
import { Booking } from '../bookings/schemas.js';
import { ReferenceParams } from '../http/schemas.js';
import { Hold, HoldsQuery, MAX_HOLDS, ReleasedHolds, ReleaseHoldsBody } from './schemas.js';
import { listHolds, releaseHold, releaseHolds } from './service.js';

/** Operator API: the live holds on the operator's seats, and releasing them. */
export const holdAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Operator API: holds'];

  app.get('/holds', {
    config: requires('bookings:read'),
    schema: {
      tags,
      summary: 'Live holds',
      description:
        'Bookings on hold whose time has not run out (they block seats until paid, confirmed or lapsed), soonest to lapse first, at most ' +
        `${MAX_HOLDS}: of a timeslot, an activity, a date or a shop client, or all of them. Each names who holds the seats (Channel, Partner, Client) and until when.`,
      querystring: HoldsQuery,
      response: { 200: envelope(Type.Array(Hold)), ...problems(...AUTH_ERRORS, 422) },
    },
    handler: async (request) => ({ data: await listHolds(app.db.kysely, request.caller.operatorId, request.query) }),
  });

  app.post('/holds/:BookingReference/release', {
    config: requires('bookings:write'),
    schema: {
      tags,
      summary: 'Release a hold',
      description:
        'Ends a live hold now: its seats are on sale again at once; the booking becomes expired (no e-mail is sent; paying or confirming it is refused). ' +
        '409 when the booking is not on a live hold.',
      params: ReferenceParams,
      response: { 200: envelope(Booking), ...problems(400, ...AUTH_ERRORS, 404, 409) },
    },
    handler: async (request) => ({ data: await releaseHold(app.db, request.caller.operatorId, request.params.BookingReference) }),
  });

  app.post('/holds/release', {
    config: requires('bookings:write'),
    schema: {
      tags,
      summary: 'Release many holds',
      description:
        'Ends every live hold matching all the filters given (at least one: TimeslotID, ActivityID, Date, Client), as releasing one does, in one transaction. ' +
        'Answers how many holds and seats were released.',
      body: ReleaseHoldsBody,
      response: { 200: envelope(ReleasedHolds), ...problems(...AUTH_ERRORS, 413, 415, 422) },
    },
    handler: async (request) => ({ data: await releaseHolds(app.db, request.caller.operatorId, request.body) }),
  });
};
