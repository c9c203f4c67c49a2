// Moving a booking. The use case, step by step, in one transaction: the lifecycle moves it (within the
// policy for the caller; the seats move atomically: the new timeslot's taken and the old one's given back in
// one commit, never an overbooking), then, where a confirmed booking changed timeslot, the shop settles the
// difference its new price makes to what it paid online (refunded at once, or the guest e-mailed to pay).
// moveBooking is that step pair, used by every channel that moves bookings (OCTo's and Viator's amendments
// too); rescheduleBooking is the whole use case of the operator API, the partner API and the manage page
// (storefront/manage-reschedule.ts): the booking keeps its reference, tickets, answers (on the same
// activity), payments and check-in state, and a refund is sent to Stripe right after the commit.
import type { Db } from '../db/connection.js';
import { NotFound, ValidationFailed } from '../http/errors.js';
import { findActivity, type ActivityRow } from '../catalog/index.js';
import { findTimeslotAt } from '../availability/index.js';
import { unixNow, type UnixSeconds } from '../lib/clock.js';
import { audit, type AuditActor } from '../audit/log.js';
import { checkMix, type TicketMix } from '../catalog/tickets/mix.js';
import { bookingTicketsOf, listTicketTypes, type BookingTicketRow, type TicketTypeRow } from '../catalog/index.js';
import type { Tx } from '../db/connection.js';
import { amendBooking, orThrow, type AmendmentTarget, type CallerKind, type Outcome } from '../bookings/index.js';
import { findBooking, type BookingRecord } from '../bookings/index.js';
import { getBooking } from '../bookings/service.js';
import { sendPendingRefunds, type RefundSending } from '../payments/jobs.js';
import { settlePriceDifference } from './price-difference.js';
import type { Booking } from '../bookings/schemas.js';

/**
 * Moves the booking to `target` as `caller` (the lifecycle's amendBooking), and settles the price difference
 * of a confirmed booking that changed timeslot, in the caller's transaction.
 */
export async function moveBooking(
  tx: Tx,
  booking: { id: number; operator_id: number },
  target: AmendmentTarget,
  caller: CallerKind,
  now: UnixSeconds,
): Promise<Outcome<{ changed: boolean; rescheduled: boolean }>> {
  const moved = await amendBooking(tx, booking.id, target, caller, now);
  if (moved.ok && moved.rescheduled) await settlePriceDifference(tx, booking, now);
  return moved;
}

/** The routes' description (admin and partner). */
export const RESCHEDULE_DESCRIPTION =
  'Moves a confirmed booking or a live hold to the timeslot at Date and Time of its activity, or of ActivityID (another activity of the operator ' +
  'that sells its ticket types, priced by that activity). The seats move in one transaction: the new timeslot gains them as the old one gets them ' +
  'back, never overbooked. It keeps its BookingReference, tickets, waiver answers (a move to another activity leaves the waiver pending), ' +
  'payments and check-in. Within its activity the price stays what was paid; to another activity the Total may change, and the operator settles ' +
  'a difference (POST .../refund gives money back). Moving it to where it is changes nothing. 404: no such booking. 409: the new timeslot lacks ' +
  'room, or the booking is cancelled, expired or has started (nothing changes). 422: no such activity or timeslot, other ticket types, or a ' +
  'timeslot that takes no bookings (started, cancelled).';

export interface RescheduleRequest {
  Date: string;
  Time: string;
  /** Another activity of the operator with the same ticket types; the booking's own when absent. */
  ActivityID?: string;
}

export interface RescheduleOptions {
  /** Who moves it: the policy's caller kind (staff, a partner, the guest). */
  caller: CallerKind;
  /** A move that changed the price of a booking paid online refunds the difference: sent to Stripe right after the commit. */
  refunds: RefundSending;
  /** Only a booking this marketplace made (the partner API): another's is 404. */
  partner?: string;
  /** The audit log's actor when it is not the request's (a guest through their manage link). */
  as?: AuditActor;
  /** Checked with the booking as it is, before anything is written (the guest's rule). */
  allow?: (booking: BookingRecord, target: { activity: ActivityRow; startsAt: UnixSeconds }) => void;
}

/**
 * The booking's own tickets as a mix: same activity, same tickets at the prices they were sold at (the
 * amendment keeps them as they are, so a move within the activity never changes what was paid).
 */
function keptMix(booking: BookingRecord, tickets: BookingTicketRow[]): TicketMix {
  const lines = tickets.map((row) => ({
    type: { id: row.ticket_type_id, code: row.code, name: row.name, price: Number(row.unit_price), position: row.position } as TicketTypeRow,
    quantity: row.quantity,
  }));
  const total = tickets.reduce((sum, row) => sum + row.quantity * Number(row.unit_price), 0);
  return { lines, people: booking.participants, seats: booking.seats, total };
}

/** The same tickets on another activity, at its prices: 422 on ActivityID when it does not sell them all. */
function mixOn(activity: ActivityRow, types: TicketTypeRow[], tickets: BookingTicketRow[]): TicketMix {
  const requested = tickets.map((row) => ({ code: row.code, quantity: row.quantity }));
  const { mix, problems } = checkMix(types, requested, activity.max_participants_per_booking);
  if (problems.length > 0) {
    throw ValidationFailed.field(
      'ActivityID',
      `Activity ${activity.public_id} cannot take this booking's tickets: ${problems.map((problem) => problem.message).join('; ')}`,
    );
  }
  return mix;
}

/**
 * Moves the operator's booking `reference` to the timeslot at Date and Time (of ActivityID, or of its own
 * activity) and answers it. 404: no such booking (of this marketplace); 422 naming ActivityID or Time: no
 * such activity or timeslot, another ticket set, a timeslot that takes no bookings; 409: the booking is
 * not live or has started, or the new timeslot lacks room (nothing changes). Moving a booking to where it
 * is changes nothing and answers it.
 */
export async function rescheduleBooking(
  db: Db,
  operatorId: number,
  reference: string,
  request: RescheduleRequest,
  options: RescheduleOptions,
): Promise<Booking> {
  const booking = await findBooking(db.kysely, operatorId, reference, options.partner);
  if (!booking) throw new NotFound(`No booking ${reference}`);
  const current = await findActivity(db.kysely, operatorId, booking.activity_public_id);
  if (!current) throw new NotFound(`No booking ${reference}`);
  const sameActivity = request.ActivityID === undefined || request.ActivityID === current.public_id;
  const activity = sameActivity ? current : await findActivity(db.kysely, operatorId, request.ActivityID!);
  if (!activity) throw ValidationFailed.field('ActivityID', `No activity ${request.ActivityID}`);
  if (activity.archived) throw ValidationFailed.field('ActivityID', `Activity ${activity.public_id} is archived and takes no bookings`);
  const timeslot = await findTimeslotAt(db.kysely, activity.id, request.Date, request.Time);
  if (!timeslot) throw ValidationFailed.field('Time', `Activity ${activity.public_id} has no timeslot on ${request.Date} at ${request.Time}`);
  options.allow?.(booking, { activity, startsAt: timeslot.starts_at });

  const tickets = (await bookingTicketsOf(db.kysely, [booking.id])).get(booking.id) ?? [];
  const mix = sameActivity ? keptMix(booking, tickets) : mixOn(activity, await listTicketTypes(db.kysely, [activity.id]), tickets);
  const now = unixNow();
  const target = {
    id: timeslot.id,
    date: timeslot.date,
    time: timeslot.time,
    starts_at: timeslot.starts_at,
    bookable_until: timeslot.bookable_until,
  };
  const moved = await db.write(async (tx) => {
    const moved = orThrow(await moveBooking(tx, booking, { activity, timeslot: target, mix }, options.caller, now));
    if (!moved.changed) return false;
    await audit(
      tx,
      {
        operatorId,
        action: 'booking.reschedule',
        resource: { type: 'booking', id: reference },
        before: { ActivityID: booking.activity_public_id, Date: booking.date, Time: booking.time },
        after: { ActivityID: activity.public_id, Date: target.date, Time: target.time },
      },
      options.as,
    );
    return true;
  });
  // A price difference refunded in the move's transaction goes to Stripe now, as staff's and guests' refunds do.
  if (moved && !sameActivity) await sendPendingRefunds(db, options.refunds.keys, options.refunds.settings, operatorId);
  return getBooking(db.kysely, operatorId, reference, options.partner);
}
