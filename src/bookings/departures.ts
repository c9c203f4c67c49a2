// Cancelling a departure: the operator calls off a timeslot (the wind picked up). In ONE transaction every
// live booking of it, of every channel and holds too, is cancelled as a cancellation always is (status,
// booking.cancelled, the workflows' reactions, the audit log), the seats go back and the timeslot is closed
// to new bookings on every channel (availability's closeCancelledTimeslot); the departure's reactions
// (src/reactions.ts) refund what was paid online in full and e-mail each guest the operator's message with
// a link to book again. Stripe's refunds are sent right after the commit. A repeated call changes nothing
// and answers the same bookings.
import type { Db } from '../db/connection.js';
import { Conflict, NotFound } from '../http/errors.js';
import { unixNow } from '../lib/clock.js';
import { audit } from '../audit/log.js';
import { currentContext } from '../access/actor.js';
import { cancelDepartureBookings } from './lifecycle/commands.js';
import { findZonedTimeslot } from '../availability/store.js';
import { publishDepartureCancellation } from '../events/reactions.js';
import { sendPendingRefunds } from '../payments/jobs.js';
import type { StripeSettings } from '../payments/providers/stripe/gateway.js';
import type { InstanceKeys } from '../secrets/keys.js';
import { findBooking, findBookingRecords } from './store.js';
import { findDepartureCancellation, insertDepartureCancellation, setCancelledBookings, type DepartureCancellationRow } from './departure-store.js';
import { withTickets } from './service.js';
import type { Booking } from './schemas.js';

export interface DepartureContext {
  db: Db;
  keys: InstanceKeys;
  /** Stripe's address and PUBLIC_URL (the rebooking link). */
  settings: StripeSettings & { publicUrl: string };
}

export interface CancelledDepartureView {
  TimeslotID: number;
  ActivityID: string;
  Date: string;
  Time: string;
  Message: string;
  CancelledAt: string;
  CancelledBy: string;
  /** The bookings the cancellation cancelled, as they are now. */
  Bookings: Booking[];
}

async function view(db: Db, operatorId: number, row: DepartureCancellationRow, slot: { activity_public_id: string; date: string; time: string }) {
  const ids = JSON.parse(row.booking_ids) as number[];
  const now = unixNow();
  return {
    TimeslotID: row.timeslot_id,
    ActivityID: slot.activity_public_id,
    Date: slot.date,
    Time: slot.time,
    Message: row.message,
    CancelledAt: new Date(Number(row.cancelled_at) * 1000).toISOString(),
    CancelledBy: row.cancelled_by,
    Bookings: await withTickets(db.kysely, await findBookingRecords(db.kysely, operatorId, ids), now),
  };
}

/**
 * Cancels the operator's timeslot `timeslotId` with the operator's message to its guests. 404: no such
 * timeslot; 409: it has started (or closed) and was not cancelled. Cancelling it again answers the first
 * cancellation (its message and bookings) and changes nothing.
 */
export async function cancelDeparture(
  context: DepartureContext,
  operatorId: number,
  timeslotId: number,
  message: string,
): Promise<CancelledDepartureView> {
  const { db } = context;
  const now = unixNow();
  const slot = await findZonedTimeslot(db.kysely, operatorId, timeslotId, now);
  if (!slot) throw new NotFound(`No timeslot ${timeslotId}`);
  const cancelled = await db.write(async (tx) => {
    if (await findDepartureCancellation(tx, operatorId, timeslotId)) return [];
    if (slot.bookable_until <= now) throw new Conflict(`The timeslot on ${slot.date} at ${slot.time} has started and can no longer be cancelled`);
    // The cancellation's row first: of two calls racing (PostgreSQL), the second waits here and then does nothing.
    const first = await insertDepartureCancellation(tx, {
      timeslot_id: timeslotId,
      operator_id: operatorId,
      message,
      capacity: slot.capacity,
      booking_ids: '[]',
      cancelled_by: currentContext()?.actor?.label ?? 'system',
      cancelled_at: now,
    });
    if (!first) return [];
    const rows = await cancelDepartureBookings(tx, { operatorId, timeslotId }, { kind: 'staff' }, now);
    const departure = { message, activityId: slot.activity_public_id, publicUrl: context.settings.publicUrl };
    for (const row of rows) await publishDepartureCancellation(tx, row, departure, now);
    await setCancelledBookings(
      tx,
      timeslotId,
      rows.map((row) => row.id),
    );
    await audit(tx, {
      operatorId,
      action: 'timeslot.cancel',
      resource: { type: 'timeslot', id: timeslotId },
      before: { Capacity: slot.capacity },
      after: { Message: message, Bookings: rows.map((row) => row.reference) },
    });
    return rows;
  });
  // The refunds recorded with the cancellation go to Stripe now (the refund sender retries what fails).
  if (cancelled.length > 0) await sendPendingRefunds(db, context.keys, context.settings, operatorId);
  return getCancelledDeparture(db, operatorId, timeslotId);
}

/** The cancellation of the operator's timeslot; 404 when it was not cancelled. */
export async function getCancelledDeparture(db: Db, operatorId: number, timeslotId: number): Promise<CancelledDepartureView> {
  const now = unixNow();
  const slot = await findZonedTimeslot(db.kysely, operatorId, timeslotId, now);
  const row = slot && (await findDepartureCancellation(db.kysely, operatorId, timeslotId));
  if (!slot || !row) throw new NotFound(`Timeslot ${timeslotId} was not cancelled`);
  return view(db, operatorId, row, slot);
}

/**
 * The operator's message to the guest when the booking was cancelled with its departure (the manage page
 * shows it); null otherwise.
 */
export async function departureMessageOf(db: Db['kysely'], operatorId: number, reference: string): Promise<string | null> {
  const booking = await findBooking(db, operatorId, reference);
  if (booking?.status !== 'cancelled') return null;
  const cancellation = await findDepartureCancellation(db, operatorId, booking.timeslot_id);
  if (!cancellation || !(JSON.parse(cancellation.booking_ids) as number[]).includes(booking.id)) return null;
  return cancellation.message;
}
