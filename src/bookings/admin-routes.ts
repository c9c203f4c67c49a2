import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AUTH_ERRORS, envelope, problems } from '../http/schemas.js';
import { AdminBooking, AdminBookingListItem, Booking, BookingListQuery, CancelledDeparture, PosBookingBody } from './schemas.js';
import { TimeslotIdParams } from '../availability/schemas.js';
import { getCancelledDeparture } from './departures.js';
import { findBookingId } from './store.js';
import { bookingMoney } from '../payments/booking-money.js';
import { ReferenceParams } from '../http/schemas.js';
import { IdempotencyHeaders, sendIdempotently } from '../idempotency/http.js';
import { audit } from '../audit/log.js';
import { bookTimeslot, timeslotGroup, cancelBooking, getBooking, listOperatorBookings } from './service.js';
import { draftOfRequest } from './request-draft.js';
import { termsAcceptanceOf } from '../settings/terms.js';
import { requires } from '../access/permissions.js';
import { answerAdminRoutes } from './answer-routes.js';
import { recordDeskPayment, recordPosPayment } from './desk.js';
import { DeskPaymentAnswer, DeskPaymentBody } from '../payments/schemas.js';

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
        "the customer's name or e-mail, or a payment's reference (the partner's, Stripe's pi_... or cs_...), in any case; PaymentState keeps the bookings in that payment state (docs/payments.md). Each booking carries its PaymentState and AmountDue. " +
        'Limit (default 100, at most 500) and Offset page through the list.',
      querystring: BookingListQuery,
      response: { 200: envelope(Type.Array(AdminBookingListItem)), ...problems(...AUTH_ERRORS, 422) },
    },
    handler: async (request) => ({ data: await listOperatorBookings(app.db.kysely, request.caller.operatorId, request.query) }),
  });

  app.get('/bookings/:BookingReference', {
    config: requires('bookings:read'),
    schema: {
      tags,
      summary: 'Get a booking',
      params: ReferenceParams,
      description:
        "The booking, with the payments of the basket it was bought in and its own (the desk's), its refunds, what it paid and still owes (AmountDue) and its PaymentState (docs/payments.md), " +
        "and when the guest accepted the shop's terms and privacy pages (TermsAcceptance).",
      response: { 200: envelope(AdminBooking), ...problems(400, ...AUTH_ERRORS, 404) },
    },
    handler: async (request) => {
      const { operatorId } = request.caller;
      const booking = await getBooking(app.db.kysely, operatorId, request.params.BookingReference);
      const bookingId = (await findBookingId(app.db.kysely, operatorId, booking.BookingReference))!;
      const [money, TermsAcceptance] = await Promise.all([
        bookingMoney(app.db.kysely, operatorId, bookingId, booking.BookingReference),
        termsAcceptanceOf(app.db.kysely, operatorId, bookingId),
      ]);
      return { data: { ...booking, ...money, TermsAcceptance } };
    },
  });

  app.post('/bookings', {
    config: requires('bookings:write'),
    schema: {
      tags,
      summary: 'Create a point-of-sale booking',
      description:
        'The body of a partner booking (without HoldMinutes); the booking is confirmed at once with Source pos. Same rules and statuses. Accepts Idempotency-Key. ' +
        'Payment says how it was paid at the desk (cash, card_terminal, voucher, invoice, unpaid; Amount defaults to the whole price): 409 naming Payment.Amount ' +
        'for more than the price, 422 naming Payment.Reference when a card terminal or voucher has none. The answer carries AmountDue and PaymentState.',
      headers: IdempotencyHeaders,
      body: PosBookingBody,
      response: { 201: envelope(AdminBooking), ...problems(400, ...AUTH_ERRORS, 404, 409, 413, 415, 422) },
    },
    handler: async (request, reply) => {
      const origin = { operatorId: request.caller.operatorId, source: 'pos' as const, partner: null };
      return sendIdempotently(
        app.db,
        request,
        reply,
        async (tx) => {
          // Only the fields of PosBookingBody: a stray HoldMinutes in the body puts nothing on hold.
          const { Payment, ...fields } = request.body;
          const booking = await bookTimeslot(tx, origin, draftOfRequest(fields));
          await audit(tx, {
            operatorId: origin.operatorId,
            action: 'booking.create',
            resource: { type: 'booking', id: booking.BookingReference },
            after: booking,
          });
          await recordPosPayment(tx, origin.operatorId, booking.BookingReference, Payment);
          const bookingId = (await findBookingId(tx, origin.operatorId, booking.BookingReference))!;
          const money = await bookingMoney(tx, origin.operatorId, bookingId, booking.BookingReference);
          // Staff book at the desk: no guest was asked to accept the shop's terms.
          return {
            statusCode: 201,
            body: { data: { ...booking, ...money, TermsAcceptance: null } },
            location: `/api/v2/admin/bookings/${booking.BookingReference}`,
          };
        },
        timeslotGroup(origin.operatorId, request.body),
      );
    },
  });

  app.post('/bookings/:BookingReference/payments', {
    config: requires('bookings:write'),
    schema: {
      tags,
      summary: "Record a booking's payment at the desk",
      description:
        'Records money staff took for the booking (the balance at check-in, a walk-in paying later): Method cash, card_terminal or voucher (Reference required), ' +
        "or invoice (pays the open invoice of that amount, else records the transfer). Amount is a decimal in the booking's currency, all that is due when omitted. " +
        'Never more than is due: 409 naming Amount (nothing due, more than due, a partner booking), also when two staff record at once. ' +
        'Permission bookings:write (the front desk, managers, owners, admin keys; not guides). Answers 201 with the payment and what is still due.',
      params: ReferenceParams,
      body: DeskPaymentBody,
      response: { 201: envelope(DeskPaymentAnswer), ...problems(400, ...AUTH_ERRORS, 404, 409, 415, 422) },
    },
    handler: async (request, reply) => {
      const answer = await recordDeskPayment(app.db, request.caller.operatorId, request.params.BookingReference, request.body);
      return reply.code(201).send({ data: answer });
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
    handler: async (request) => ({
      data: await cancelBooking(app.db, request.caller.operatorId, request.params.BookingReference, { kind: 'staff' }),
    }),
  });

  // POST /bookings/:BookingReference/reschedule (a move, with its price difference) is a flow: flows/routes.ts.
  // POST /timeslots/:ID/cancel (a departure's cancellation, with its refunds and e-mails) is a flow: flows/routes.ts.
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
