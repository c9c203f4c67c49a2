// A departure's cancellation, the bookings' part: every live booking of the timeslot, of every channel and
// holds too, is cancelled by the lifecycle as a cancellation always is (status, booking.cancelled, the
// workflows' reactions, the audit log), the seats go back and the timeslot is closed to new bookings on
// every channel. The use case (the refunds, the guests' e-mails) is flows/departure-cancellation.ts.
import type { Db, Tx } from '../db/connection.js';
import { Conflict, NotFound } from '../http/errors.js';
import { unixNow, type UnixSeconds } from '../lib/clock.js';
import { audit } from '../audit/log.js';
import { currentContext } from '../access/actor.js';
import { cancelDepartureBookings } from './lifecycle/commands.js';
import { findZonedTimeslot } from '../availability/index.js';
import { findBooking, findBookingRecords, type BookingRow } from './store.js';
import { findDepartureCancellation, insertDepartureCancellation, setCancelledBookings, type DepartureCancellationRow } from './departure-store.js';
import { withTickets } from './service.js';
import type { Booking } from './schemas.js';

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

/** What a departure's cancellation did: the bookings it cancelled, and the activity (for the guests' link to book again). */
export interface DepartureCancelled {
  bookings: BookingRow[];
  activityId: string;
}

/**
 * Cancels the operator's timeslot `timeslotId` with the operator's message to its guests, in the caller's
 * transaction: the cancellation's row, then every live booking cancelled by the lifecycle (which closes the
 * timeslot), then the audit entry. 404: no such timeslot; 409: it has started (or closed) and was not
 * cancelled. Cancelling it again changes nothing and answers no bookings.
 */
export async function cancelTimeslotBookings(
  tx: Tx,
  operatorId: number,
  timeslotId: number,
  message: string,
  now: UnixSeconds,
): Promise<DepartureCancelled> {
  const slot = await findZonedTimeslot(tx, operatorId, timeslotId, now);
  if (!slot) throw new NotFound(`No timeslot ${timeslotId}`);
  const nothing = { bookings: [], activityId: slot.activity_public_id };
  if (await findDepartureCancellation(tx, operatorId, timeslotId)) return nothing;
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
  if (!first) return nothing;
  const rows = await cancelDepartureBookings(tx, { operatorId, timeslotId }, { kind: 'staff' }, now);
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
  return { bookings: rows, activityId: slot.activity_public_id };
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
