// OCTo: reserve, confirm, extend, update, cancel, get and list bookings.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { cancel, confirm, extend, getOctoBooking, listOctoBookings, reserve, update } from './bookings.js';
import { wantsPricing } from './http.js';
import { octoErrors, resellerOf, tags } from './route-schemas.js';
import {
  BookingsQuery,
  CancellationBody,
  CapabilityHeaders,
  ConfirmationBody,
  ExtendBody,
  OctoBooking,
  ReservationBody,
  UpdateBody,
  UuidParams,
} from './schemas.js';

const config = { scope: 'ota' as const };
const response = { 200: OctoBooking, ...octoErrors() };

export const octoBookingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const holdTerms = { maxLifetimeMinutes: app.config.holdMaxLifetimeMinutes };
  const ceiling = `A hold is never extended beyond ${app.config.holdMaxLifetimeMinutes} minutes after it was made (HOLD_MAX_LIFETIME_MINUTES); asking for more when it is there is UNPROCESSABLE_ENTITY.`;
  app.post('/bookings', {
    config,
    schema: {
      tags,
      summary: 'OCTo: reserve',
      description:
        'Holds the seats of availabilityId (one per unit item) as an ON_HOLD booking until utcExpiresAt: expirationMinutes, default 30, at most 60. ' +
        'The booking is a partner booking of the key\'s marketplace: it counts against the same seats as the partner API and shows in the dashboard ' +
        'with resellerReference as its payment reference. uuid makes the call idempotent (one is generated when absent); reusing it for another ' +
        'reservation is INVALID_BOOKING_UUID. Uuids are per reseller: another reseller\'s uuid is neither seen nor in the way. Not enough seats left is UNPROCESSABLE_ENTITY.',
      headers: CapabilityHeaders,
      body: ReservationBody,
      response,
    },
    handler: async (request) => reserve(app.db, resellerOf(request), request.body, wantsPricing(request)),
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
    handler: async (request) => listOctoBookings(app.db.kysely, resellerOf(request), request.query, wantsPricing(request)),
  });

  app.get('/bookings/:uuid', {
    config,
    schema: { tags, summary: 'OCTo: get a booking', params: UuidParams, headers: CapabilityHeaders, response },
    handler: async (request) => getOctoBooking(app.db.kysely, resellerOf(request), request.params.uuid, wantsPricing(request)),
  });

  app.patch('/bookings/:uuid', {
    config,
    schema: {
      tags,
      summary: 'OCTo: update a booking',
      description:
        'Changes the contact, notes, resellerReference and unit item labels of an ON_HOLD or CONFIRMED booking; expirationMinutes extends a hold. ' +
        `Another product, option, availability or number of unit items is UNPROCESSABLE_ENTITY: cancel and reserve again. ${ceiling}`,
      params: UuidParams,
      headers: CapabilityHeaders,
      body: UpdateBody,
      response,
    },
    handler: async (request) => update(app.db, resellerOf(request), request.params.uuid, request.body, wantsPricing(request), holdTerms),
  });

  app.post('/bookings/:uuid/confirm', {
    config,
    schema: {
      tags,
      summary: 'OCTo: confirm',
      description:
        'Confirms a live hold; contact must give firstName, lastName and emailAddress (phoneNumber optional). A confirmed booking answers again ' +
        '(with any new details); an expired hold or a cancelled booking is UNPROCESSABLE_ENTITY.',
      params: UuidParams,
      headers: CapabilityHeaders,
      body: ConfirmationBody,
      response,
    },
    handler: async (request) => confirm(app.db, resellerOf(request), request.params.uuid, request.body, wantsPricing(request)),
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
    handler: async (request) => extend(app.db, resellerOf(request), request.params.uuid, request.body, wantsPricing(request), holdTerms),
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
    handler: async (request) => cancel(app.db, resellerOf(request), request.params.uuid, request.body, wantsPricing(request)),
  });
};
