import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AUTH_ERRORS, envelope, PartnerParams, problems } from '../http/schemas.js';
import { Booking, PartnerBookingBody } from './schemas.js';
import { ReferenceParams } from '../http/schemas.js';
import { IdempotencyHeaders, sendIdempotently } from '../idempotency/http.js';
import { bookTimeslot, timeslotGroup, cancelBooking, confirmBooking, getBooking } from './service.js';
import { draftOfRequest } from './request-draft.js';

const PartnerBookingParams = Type.Composite([PartnerParams, ReferenceParams]);

/** Partner API: bookings. A partner sees and changes only the bookings its own marketplace made. */
export const bookingPartnerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Partner API'];
  // request.caller.partner is the key's marketplace; the auth plugin has checked it equals :partner.
  const marketplace = (caller: { partner: string | null }) => caller.partner ?? '';

  app.post('/booking', {
    config: { scope: 'ota' },
    schema: {
      tags,
      summary: 'Create a booking',
      description:
        'Takes the seats of the timeslot at Date and Time. Every field but PaymentReference, WaiverAnswers and HoldMinutes is required. ' +
        'With HoldMinutes the booking is on_hold until confirmed (POST .../confirm) or until HoldExpiresAt, when its seats are released. ' +
        '404: no such activity or no timeslot at Date and Time. 422: invalid fields, too many Participants for the product, or the timeslot has started. ' +
        '409: not enough seats left; offer another timeslot. Accepts Idempotency-Key.',
      params: PartnerParams,
      headers: IdempotencyHeaders,
      body: PartnerBookingBody,
      response: { 201: envelope(Booking), ...problems(400, ...AUTH_ERRORS, 404, 409, 413, 415, 422, 500) },
    },
    handler: async (request, reply) => {
      const partner = marketplace(request.caller);
      const origin = { operatorId: request.caller.operatorId, source: 'partner' as const, partner };
      return sendIdempotently(
        app.db,
        request,
        reply,
        async (tx) => {
          const booking = await bookTimeslot(tx, origin, draftOfRequest(request.body, request.body.HoldMinutes));
          return { statusCode: 201, body: { data: booking }, location: `/api/v2/ota/${partner}/booking/${booking.BookingReference}` };
        },
        timeslotGroup(origin.operatorId, request.body),
      );
    },
  });

  app.get('/booking/:BookingReference', {
    config: { scope: 'ota' },
    schema: {
      tags,
      summary: 'Get a booking',
      params: PartnerBookingParams,
      response: { 200: envelope(Booking), ...problems(400, ...AUTH_ERRORS, 404) },
    },
    handler: async (request) => ({
      data: await getBooking(app.db.kysely, request.caller.operatorId, request.params.BookingReference, marketplace(request.caller)),
    }),
  });

  app.post('/booking/:BookingReference/cancel', {
    config: { scope: 'ota' },
    schema: {
      tags,
      summary: 'Cancel a booking',
      description:
        'Frees the seats. Cancelling a cancelled booking (or an expired hold) changes nothing and answers the booking as it is. ' +
        'A confirmed booking can be cancelled until its timeslot starts and never once its guests were checked in (409); a hold can always be released.',
      params: PartnerBookingParams,
      response: { 200: envelope(Booking), ...problems(400, ...AUTH_ERRORS, 404, 409) },
    },
    handler: async (request) => ({
      data: await cancelBooking(app.db, request.caller.operatorId, request.params.BookingReference, { kind: 'partner' }, marketplace(request.caller)),
    }),
  });

  // POST /booking/:BookingReference/reschedule (a move, with its price difference) is a flow: flows/routes.ts.
  app.post('/booking/:BookingReference/confirm', {
    config: { scope: 'ota' },
    schema: {
      tags,
      summary: 'Confirm a booking on hold',
      description: 'Confirms a hold before HoldExpiresAt. A confirmed booking answers unchanged; an expired hold or a cancelled booking is 409.',
      params: PartnerBookingParams,
      response: { 200: envelope(Booking), ...problems(400, ...AUTH_ERRORS, 404, 409) },
    },
    handler: async (request) => ({
      data: await confirmBooking(app.db, request.caller.operatorId, request.params.BookingReference, marketplace(request.caller)),
    }),
  });
};
