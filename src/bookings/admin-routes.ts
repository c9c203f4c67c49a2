import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AUTH_ERRORS, envelope, problems } from '../http/schemas.js';
import { AdminBooking, Booking, BookingListQuery, CancelDepartureBody, CancelledDeparture, PosBookingBody, RescheduleBody } from './schemas.js';
import { TimeslotIdParams } from '../availability/schemas.js';
import { cancelDeparture, getCancelledDeparture } from './departures.js';
import { RESCHEDULE_DESCRIPTION, rescheduleBooking } from './reschedule.js';
import { findBookingId } from './store.js';
import { bookingMoney } from '../payments/booking-money.js';
import { ReferenceParams } from '../http/schemas.js';
import { IdempotencyHeaders, sendIdempotently } from '../idempotency/http.js';
import { audit } from '../audit/log.js';
import { bookTimeslot, timeslotGroup, cancelBooking, getBooking, listOperatorBookings } from './service.js';
import { requires } from '../access/permissions.js';
import { answerAdminRoutes } from './answer-routes.js';

/** Operator API: the bookings dashboard (every source) and point-of-sale bookings. */
export const bookingAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Operator API: bookings'];

  // A booking's waiver answers and their files; registered first, so /openapi.json lists them where it always has.
  await app.register(answerAdminRoutes);

  app.get('/bookings', {
    config: requires('bookings:read'),
    schema: {
      tags,
      summary: 'List bookings',
      description:
        'Bookings of every source, ordered by Date, Time and CreatedAt. From and To bound the booked Date; Search matches part of the reference, ' +
        "the customer's name or e-mail, in any case. Limit (default 100, at most 500) and Offset page through the list.",
      querystring: BookingListQuery,
      response: { 200: envelope(Type.Array(Booking)), ...problems(...AUTH_ERRORS, 422) },
    },
    handler: async (request) => ({ data: await listOperatorBookings(app.db.kysely, request.caller.operatorId, request.query) }),
  });

  app.get('/bookings/:BookingReference', {
    config: requires('bookings:read'),
    schema: {
      tags,
      summary: 'Get a booking',
      params: ReferenceParams,
      description: 'The booking, with the payments of the basket it was bought in and its refunds (docs/payments.md).',
      response: { 200: envelope(AdminBooking), ...problems(400, ...AUTH_ERRORS, 404) },
    },
    handler: async (request) => {
      const { operatorId } = request.caller;
      const booking = await getBooking(app.db.kysely, operatorId, request.params.BookingReference);
      const bookingId = (await findBookingId(app.db.kysely, operatorId, booking.BookingReference))!;
      return { data: { ...booking, ...(await bookingMoney(app.db.kysely, operatorId, bookingId, booking.BookingReference)) } };
    },
  });

  app.post('/bookings', {
    config: requires('bookings:write'),
    schema: {
      tags,
      summary: 'Create a point-of-sale booking',
      description:
        'The body of a partner booking (without HoldMinutes); the booking is confirmed at once with Source pos. Same rules and statuses. Accepts Idempotency-Key.',
      headers: IdempotencyHeaders,
      body: PosBookingBody,
      response: { 201: envelope(Booking), ...problems(400, ...AUTH_ERRORS, 404, 409, 413, 415, 422) },
    },
    handler: async (request, reply) => {
      const origin = { operatorId: request.caller.operatorId, source: 'pos' as const, partner: null };
      return sendIdempotently(
        app.db,
        request,
        reply,
        async (tx) => {
          // Only the fields of PosBookingBody: a stray HoldMinutes in the body puts nothing on hold.
          const booking = await bookTimeslot(tx, origin, request.body);
          await audit(tx, {
            operatorId: origin.operatorId,
            action: 'booking.create',
            resource: { type: 'booking', id: booking.BookingReference },
            after: booking,
          });
          return { statusCode: 201, body: { data: booking }, location: `/api/v2/admin/bookings/${booking.BookingReference}` };
        },
        timeslotGroup(origin.operatorId, request.body),
      );
    },
  });

  app.post('/bookings/:BookingReference/cancel', {
    config: requires('bookings:write'),
    schema: {
      tags,
      summary: 'Cancel a booking',
      description: 'Cancels a booking of any source and frees its seats; cancelling again changes nothing.',
      params: ReferenceParams,
      response: { 200: envelope(Booking), ...problems(400, ...AUTH_ERRORS, 404) },
    },
    handler: async (request) => ({ data: await cancelBooking(app.db, request.caller.operatorId, request.params.BookingReference) }),
  });

  app.post('/bookings/:BookingReference/reschedule', {
    config: requires('bookings:write'),
    schema: {
      tags,
      summary: 'Move a booking to another timeslot',
      description: RESCHEDULE_DESCRIPTION,
      params: ReferenceParams,
      body: RescheduleBody,
      response: { 200: envelope(Booking), ...problems(400, ...AUTH_ERRORS, 404, 409, 413, 415, 422) },
    },
    handler: async (request) => ({
      data: await rescheduleBooking(app.db, request.caller.operatorId, request.params.BookingReference, request.body),
    }),
  });

  // Cancelling a departure cancels bookings: it lives with them, on the timeslot's address.
  app.post('/timeslots/:ID/cancel', {
    config: requires('bookings:write'),
    schema: {
      tags: ['Operator API: timeslots'],
      summary: 'Cancel a departure',
      description:
        'Cancels every live booking of the timeslot (every channel, holds too) as a cancellation does (seats, webhooks, workflows, audit), refunds ' +
        'in full what was paid for them online (docs/payments.md), e-mails each guest with an address the Message with a link to book another ' +
        'time, and closes the timeslot to new bookings on every channel (its Capacity becomes 0). Answers the cancelled bookings. Cancelling it ' +
        'again changes nothing and answers the first cancellation. 404: no such timeslot. 409: it has started and was not cancelled.',
      params: TimeslotIdParams,
      body: CancelDepartureBody,
      response: { 200: envelope(CancelledDeparture), ...problems(400, ...AUTH_ERRORS, 404, 409, 413, 415, 422) },
    },
    handler: async (request) => ({
      data: await cancelDeparture(
        { db: app.db, keys: app.instanceKeys, settings: app.config },
        request.caller.operatorId,
        request.params.ID,
        request.body.Message,
      ),
    }),
  });

  app.get('/timeslots/:ID/cancellation', {
    config: requires('bookings:read'),
    schema: {
      tags: ['Operator API: timeslots'],
      summary: "A cancelled departure's cancellation",
      description: 'The message, who cancelled it and when, and the bookings it cancelled. 404 when the timeslot was not cancelled.',
      params: TimeslotIdParams,
      response: { 200: envelope(CancelledDeparture), ...problems(400, ...AUTH_ERRORS, 404) },
    },
    handler: async (request) => ({ data: await getCancelledDeparture(app.db, request.caller.operatorId, request.params.ID) }),
  });
};
