// OCTo: reserve, confirm, extend, update, cancel, get and list bookings.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { cancel, extend, getOctoBooking, listOctoBookings, reserve, type Reseller } from './service.js';
import { confirm, update } from './amendments.js';
import { wantsOf } from '../http.js';
import { octoErrors, tags } from '../route-schemas.js';
import { CapabilityHeaders } from '../schemas.js';
import { BookingsQuery, CancellationBody, ConfirmationBody, ExtendBody, OctoBooking, ReservationBody, UpdateBody, UuidParams } from './schemas.js';

const config = { scope: 'ota' as const };
const response = { 200: OctoBooking, ...octoErrors() };

/** The operator of the key and its marketplace (an ota key always names one). */
const resellerOf = (request: FastifyRequest): Reseller => ({
  operatorId: request.caller.operatorId,
  partner: request.caller.partner ?? '',
});

export const octoBookingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const holdTerms = { maxLifetimeMinutes: app.config.holdMaxLifetimeMinutes };
  const ceiling = `A hold is never extended beyond ${app.config.holdMaxLifetimeMinutes} minutes after it was made (HOLD_MAX_LIFETIME_MINUTES); asking for more when it is there is UNPROCESSABLE_ENTITY.`;
  app.post('/bookings', {
    config,
    schema: {
      tags,
      summary: 'OCTo: reserve',
      description:
        'Holds the tickets of unitItems (one item per ticket; unitId = a ticket type of the product, checked against its MinPerBooking, MaxPerBooking ' +
        'and accompaniedBy) on availabilityId as an ON_HOLD booking until utcExpiresAt: expirationMinutes, default 30, at most 60. Missing or ' +
        'empty unitItems is UNPROCESSABLE_ENTITY. ' +
        "The booking is a partner booking of the key's marketplace: it counts against the same seats as the partner API and shows in the dashboard " +
        'with resellerReference as its payment reference. uuid makes the call idempotent (one is generated when absent); reusing it for another ' +
        "reservation is INVALID_BOOKING_UUID. Uuids are per reseller: another reseller's uuid is neither seen nor in the way. Not enough seats left is UNPROCESSABLE_ENTITY.",
      headers: CapabilityHeaders,
      body: ReservationBody,
      response,
    },
    handler: async (request) => reserve(app.db, resellerOf(request), request.body, wantsOf(request)),
  });

  app.get('/bookings', {
    config,
    schema: {
      tags,
      summary: 'OCTo: find bookings',
      description: 'Your bookings with this resellerReference and/or supplierReference (the BookingReference); at least one of them. At most 100.',
      headers: CapabilityHeaders,
      querystring: BookingsQuery,
      response: { 200: Type.Array(OctoBooking), ...octoErrors() },
    },
    handler: async (request) => listOctoBookings(app.db.kysely, resellerOf(request), request.query, wantsOf(request)),
  });

  app.get('/bookings/:uuid', {
    config,
    schema: { tags, summary: 'OCTo: get a booking', params: UuidParams, headers: CapabilityHeaders, response },
    handler: async (request) => getOctoBooking(app.db.kysely, resellerOf(request), request.params.uuid, wantsOf(request)),
  });

  app.patch('/bookings/:uuid', {
    config,
    schema: {
      tags,
      summary: 'OCTo: update a booking',
      description:
        'Changes the contact (notes included), notes, resellerReference and questionAnswers of an ON_HOLD or CONFIRMED booking; expirationMinutes ' +
        'extends a hold. Another availabilityId, productId (with its availabilityId) or unitItems (all of them) amends the booking in one ' +
        `transaction: the new seats are taken and the old ones freed together; not enough seats is UNPROCESSABLE_ENTITY and nothing changes. ${ceiling}`,
      params: UuidParams,
      headers: CapabilityHeaders,
      body: UpdateBody,
      response,
    },
    handler: async (request) => update(app.db, resellerOf(request), request.params.uuid, request.body, wantsOf(request), holdTerms),
  });

  app.post('/bookings/:uuid/confirm', {
    config,
    schema: {
      tags,
      summary: 'OCTo: confirm',
      description:
        "Confirms a live hold; contact must give the option's requiredContactFields (by default firstName and lastName; a fullName of two " +
        'words gives both). unitItems, when sent, are all the tickets: another mix amends the booking first (seats permitting). With octo/questions ' +
        'every required question must be answered (questionAnswers, now or before). A confirmed booking answers again (with any new details); ' +
        'an expired hold or a cancelled booking is UNPROCESSABLE_ENTITY.',
      params: UuidParams,
      headers: CapabilityHeaders,
      body: ConfirmationBody,
      response,
    },
    handler: async (request) => confirm(app.db, resellerOf(request), request.params.uuid, request.body, wantsOf(request)),
  });

  app.post('/bookings/:uuid/extend', {
    config,
    schema: {
      tags,
      summary: 'OCTo: extend a reservation',
      description: `Holds the seats for expirationMinutes (default 30, at most 60) from now, never less than already held. Only a live hold: else UNPROCESSABLE_ENTITY. ${ceiling}`,
      params: UuidParams,
      headers: CapabilityHeaders,
      body: ExtendBody,
      response,
    },
    handler: async (request) => extend(app.db, resellerOf(request), request.params.uuid, request.body, wantsOf(request), holdTerms),
  });

  app.post('/bookings/:uuid/cancel', {
    config,
    schema: {
      tags,
      summary: 'OCTo: cancel',
      description:
        'Frees the seats of a hold or a confirmed booking until its timeslot starts (then UNPROCESSABLE_ENTITY). Cancelling a cancelled or expired ' +
        'booking answers it unchanged. The body (reason) is optional.',
      params: UuidParams,
      headers: CapabilityHeaders,
      body: CancellationBody,
      response,
    },
    handler: async (request) => cancel(app.db, resellerOf(request), request.params.uuid, request.body, wantsOf(request)),
  });
};
