// The operator API's routes whose use case crosses domains: they run a flow. Each keeps the tag and
// address of the domain it belongs to, so the API reference reads as if the domain had registered it.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AUTH_ERRORS, envelope, PartnerParams, problems, ReferenceParams } from '../http/schemas.js';
import { requires } from '../access/permissions.js';
import { AdminTimeslot, TimeslotIdParams, UpdateTimeslotBody } from '../availability/schemas.js';
import { Booking, CancelDepartureBody, CancelledDeparture, RescheduleBody } from '../bookings/schemas.js';
import { RESCHEDULE_DESCRIPTION, rescheduleBooking } from './reschedule.js';
import { cancelDeparture } from './departure-cancellation.js';
import { changeTimeslotCapacity } from './timeslot-capacity.js';

const PartnerBookingParams = Type.Composite([PartnerParams, ReferenceParams]);

export const flowAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/bookings/:BookingReference/reschedule', {
    config: requires('bookings:write'),
    schema: {
      tags: ['Operator API: bookings'],
      summary: 'Move a booking to another timeslot',
      description: RESCHEDULE_DESCRIPTION,
      params: ReferenceParams,
      body: RescheduleBody,
      response: { 200: envelope(Booking), ...problems(400, ...AUTH_ERRORS, 404, 409, 413, 415, 422) },
    },
    handler: async (request) => ({
      data: await rescheduleBooking(app.db, request.caller.operatorId, request.params.BookingReference, request.body, {
        caller: 'staff',
        refunds: { keys: app.instanceKeys, settings: app.config },
      }),
    }),
  });

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
};

/** The partner API's routes that run a flow. */
export const flowPartnerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const marketplace = (caller: { partner: string | null }) => caller.partner ?? '';
  app.post('/booking/:BookingReference/reschedule', {
    config: { scope: 'ota' },
    schema: {
      tags: ['Partner API'],
      summary: 'Move a booking to another timeslot',
      description: `${RESCHEDULE_DESCRIPTION} A partner moves only the bookings its own marketplace made (another's is 404).`,
      params: PartnerBookingParams,
      body: RescheduleBody,
      response: { 200: envelope(Booking), ...problems(400, ...AUTH_ERRORS, 404, 409, 413, 415, 422) },
    },
    handler: async (request) => ({
      data: await rescheduleBooking(app.db, request.caller.operatorId, request.params.BookingReference, request.body, {
        caller: 'partner',
        partner: marketplace(request.caller),
        refunds: { keys: app.instanceKeys, settings: app.config },
      }),
    }),
  });
};
