// A guest's own booking through the capability token of their e-mails' link (manage.ts). Public and
// rate-limited like the shop; a closed shop still answers, since the guest booked while it was open.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { envelope, problems } from '../http/schemas.js';
import { Type } from '@sinclair/typebox';
import { BasketParams, ShopLocaleQuery } from '../shop/schemas.js';
import { clientFingerprint } from '../shop/client.js';
import {
  BalanceBody,
  BalancePayment,
  BookingWaiver,
  CompleteWaiverBody,
  GuestRescheduleBody,
  ManagedBooking,
  ManageLink,
  ManageParams,
} from './manage-schemas.js';
import { rescheduleAsGuest } from './manage-reschedule.js';
import {
  basketManageLinks,
  bookingWaiver,
  cancelAsGuest,
  completeWaiverAsGuest,
  managedBooking,
  managedBookingQr,
  payBalanceAsGuest,
} from './manage.js';
import { manageUploadRoutes } from './manage-upload-routes.js';

export const manageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Online shop (public)'];
  const config = { shopper: true };

  app.get('/bookings/:ManageToken', {
    config,
    schema: {
      tags,
      summary: "A guest's own booking",
      description:
        "The booking the token of the guest's e-mail link names, and whether (and until when) the guest may cancel it. An unknown or altered token is 404.",
      params: ManageParams,
      response: { 200: envelope(ManagedBooking), ...problems(400, 404, 422, 429) },
    },
    handler: async (request) => ({
      data: await managedBooking(app.db.kysely, app.instanceKeys, request.params.OperatorID, request.params.ManageToken),
    }),
  });

  app.get('/bookings/:ManageToken/qr.svg', {
    config,
    schema: {
      tags,
      summary: "A guest's QR code for the door",
      description:
        "An SVG QR code of the BookingReference, shown on the guest's booking page for staff to scan at check-in. An unknown or altered token is 404.",
      params: ManageParams,
      produces: ['image/svg+xml'],
      response: { 200: Type.String({ description: 'SVG' }), ...problems(400, 404, 422, 429) },
    },
    handler: async (request, reply) =>
      reply
        .type('image/svg+xml')
        .send(await managedBookingQr(app.db.kysely, app.instanceKeys, request.params.OperatorID, request.params.ManageToken)),
  });

  app.post('/bookings/:ManageToken/balance', {
    config,
    schema: {
      tags,
      summary: 'Pay the balance of a booking as its guest',
      description:
        'Pays what the booking still owes (the rest after a deposit). With Stripe: a Checkout Session for the balance is made now (or the open one answered again) ' +
        "and its address answered, 200 awaiting_payment; Stripe's webhook records it paid. With the test provider: CardNumber is charged at once, 200 paid. " +
        '409 when nothing is due (paid, cancelled, a partner booking); 422 naming CardNumber when a test card is missing or declined; 429 (Retry-After) after repeated declines ' +
        'for this booking or from this address, as at checkout; 502 when Stripe cannot be reached.',
      params: ManageParams,
      body: BalanceBody,
      response: { 200: envelope(BalancePayment), ...problems(400, 404, 409, 415, 422, 429, 502) },
    },
    handler: async (request) => ({
      data: await payBalanceAsGuest(app.db, app.instanceKeys, app.config, request.params.OperatorID, request.params.ManageToken, {
        cardNumber: request.body.CardNumber,
        clientHmac: clientFingerprint(request),
      }),
    }),
  });

  app.post('/bookings/:ManageToken/cancel', {
    config,
    schema: {
      tags,
      summary: 'Cancel a booking as its guest',
      description:
        'Cancels the booking as the operator would (its seats are freed and offered to the waitlist; webhooks and workflows hear of it) when the ' +
        'activity lets guests cancel and it is not later than its hours before the start. 409 saying why otherwise, also when it is cancelled already.',
      params: ManageParams,
      response: { 200: envelope(ManagedBooking), ...problems(400, 404, 409, 422, 429) },
    },
    handler: async (request) => ({
      data: await cancelAsGuest(app.db, app.instanceKeys, app.config, request.params.OperatorID, request.params.ManageToken),
    }),
  });

  app.get('/bookings/:ManageToken/waiver', {
    config,
    schema: {
      tags,
      summary: "A booking's waiver, for its guest to complete",
      description:
        "Whether the booking's waiver is complete, and its activity's questions (in Locale where translated) for the guest to answer with POST .../waiver.",
      params: ManageParams,
      querystring: ShopLocaleQuery,
      response: { 200: envelope(BookingWaiver), ...problems(400, 404, 422, 429) },
    },
    handler: async (request) => ({
      data: await bookingWaiver(app.db.kysely, app.instanceKeys, request.params.OperatorID, request.params.ManageToken, request.query.Locale),
    }),
  });

  app.post('/bookings/:ManageToken/waiver', {
    config,
    schema: {
      tags,
      summary: "Complete a booking's waiver as its guest",
      description:
        'For a booking whose WaiverStatus is pending (made at the desk, by a marketplace or from a waitlist offer without the answers): every required ' +
        "question of the activity answered, checked like a booking's WaiverAnswers (422 naming WaiverAnswers[i].Answer, e.g. a consent not agreed to); a " +
        "file question's answer is the FileID of an upload through this booking's link (POST .../bookings/{ManageToken}/uploads). The waiver is then " +
        'complete and is not changed again: 409 once complete, or when the booking is cancelled or expired.',
      params: ManageParams,
      body: CompleteWaiverBody,
      response: { 200: envelope(ManagedBooking), ...problems(400, 404, 409, 422, 429) },
    },
    handler: async (request) => ({
      data: await completeWaiverAsGuest(app.db, app.instanceKeys, request.params.OperatorID, request.params.ManageToken, request.body.WaiverAnswers),
    }),
  });

  await app.register(manageUploadRoutes);

  app.post('/bookings/:ManageToken/reschedule', {
    config,
    schema: {
      tags,
      summary: 'Move a booking to another time as its guest',
      description:
        'Moves the booking to the timeslot of its activity at Date and Time (GET .../activities/{ActivityID}/timeslots lists those with room) when the ' +
        "activity lets guests move bookings and it is not later than its GuestRescheduleHours before the booking's start. The tickets and what was " +
        'paid stay as they are. Moving it to where it is changes nothing. 409 saying why otherwise, or when the new time lacks room (nothing ' +
        'changes); 422 naming Time when there is no such timeslot or it takes no bookings.',
      params: ManageParams,
      body: GuestRescheduleBody,
      response: { 200: envelope(ManagedBooking), ...problems(400, 404, 409, 413, 415, 422, 429) },
    },
    handler: async (request) => ({
      data: await rescheduleAsGuest(app.db, app.instanceKeys, request.params.OperatorID, request.params.ManageToken, request.body),
    }),
  });

  app.get('/baskets/:BasketToken/manage-links', {
    config,
    schema: {
      tags,
      summary: "The manage tokens of a paid basket's bookings",
      description:
        'For the confirmation page: each booking of the paid basket with the token of its own page (view, and cancel where the activity allows). ' +
        '409 while the basket is not paid.',
      params: BasketParams,
      response: { 200: envelope(Type.Array(ManageLink)), ...problems(400, 404, 409, 429) },
    },
    handler: async (request) => ({
      data: await basketManageLinks(app.db.kysely, app.instanceKeys, request.params.OperatorID, request.params.BasketToken),
    }),
  });
};
