// The SQL that writes a booking's status: the only place it is written (test/architecture.test.ts keeps it
// so). Placing a booking inserts it with its first status; the lifecycle's commands (commands.ts, place.ts,
// move.ts) and the seat ledger (seat-ledger.ts, lapsed holds) move it on. Every change writes its webhook
// event in the same statement's transaction (events/outbox.ts).
import { sql, type Insertable } from 'kysely';
import type { Tx } from '../../db/connection.js';
import type { BookingTable } from '../../db/schema.js';
import { recordBookingEvents } from '../../events/outbox.js';
import { tallyBooking } from '../../hooks/tallies.js';
import type { BookingStatus } from '../schemas.js';
import type { BookingRow } from '../store.js';
import { nowMillis, type UnixMillis, type UnixSeconds } from '../../lib/clock.js';

/**
 * Inserts the booking unless its reference is taken (then undefined, and the caller draws another), with
 * its webhook events: booking.created, and booking.confirmed when it is confirmed at once.
 */
export async function insertBooking(tx: Tx, row: Omit<Insertable<BookingTable>, 'id'>): Promise<BookingRow | undefined> {
  // ON CONFLICT DO NOTHING rather than catching the unique violation: on PostgreSQL a failed statement
  // would abort the whole transaction, seats taken included.
  const booking = await tx
    .insertInto('bookings')
    .values(row)
    .onConflict((oc) => oc.column('reference').doNothing())
    .returningAll()
    .executeTakeFirst();
  if (booking)
    await recordBookingEvents(tx, booking, booking.status === 'confirmed' ? ['booking.created', 'booking.confirmed'] : ['booking.created']);
  return booking;
}

/** The webhook event of a booking that moved to `status`. */
const STATUS_EVENTS = { confirmed: 'booking.confirmed', cancelled: 'booking.cancelled', expired: 'booking.expired' } as const;

/**
 * Moves the booking to `to` only if it is still in one of `from`, and returns it when it did, with the
 * webhook event of its new status. The condition makes a repeated cancel or confirm a no-op, and makes
 * exactly one of two racing writers the one that frees the seats (and writes the event). Callers go
 * through transitions.ts's changeStatus, which keeps the files of a booking that became confirmed.
 */
export async function updateStatus(
  tx: Tx,
  bookingId: number,
  from: BookingStatus[],
  changes: { status: Exclude<BookingStatus, 'on_hold'>; cancelled_at?: UnixMillis; hold_expires_at?: null; payment_reference?: string | null },
): Promise<BookingRow | undefined> {
  const changed = await tx
    .updateTable('bookings')
    .set(changes)
    .where('id', '=', bookingId)
    .where('status', 'in', from)
    .returningAll()
    .executeTakeFirst();
  if (changed) await recordBookingEvents(tx, changed, [STATUS_EVENTS[changes.status]]);
  return changed;
}

/**
 * Moves a live hold's expiry to `until`, and returns the hold when it moved. Only a hold that is still on
 * hold and has not lapsed at `now` moves: a lapsed hold's seats may already be someone else's, so it
 * cannot be revived. Callers go through transitions.ts's extendHoldUntil, which keeps the hold's files.
 */
export async function updateHoldExpiry(tx: Tx, bookingId: number, until: UnixSeconds, now: UnixSeconds): Promise<BookingRow | undefined> {
  const extended = await tx
    .updateTable('bookings')
    .set({ hold_expires_at: until })
    .where('id', '=', bookingId)
    .where('status', '=', 'on_hold')
    .where('hold_expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();
  if (extended) await recordBookingEvents(tx, extended, ['booking.updated']);
  return extended;
}

/** The booking row, locked until the transaction ends (an UPDATE that changes nothing, on both dialects). */
export async function lockBooking(tx: Tx, bookingId: number): Promise<BookingRow | undefined> {
  return tx.updateTable('bookings').set({ status: sql`status` }).where('id', '=', bookingId).returningAll().executeTakeFirst();
}

/** The columns an amendment changes: where the booking is, how many it is for, and its waiver. */
export interface BookingMove {
  timeslot_id: number;
  participants: number;
  seats: number;
  waiver_status?: 'pending';
}

/** Moves the booking (lifecycle/move.ts, under lockBooking's lock), with booking.updated. */
export async function moveBooking(tx: Tx, bookingId: number, move: BookingMove): Promise<BookingRow> {
  const moved = await tx.updateTable('bookings').set(move).where('id', '=', bookingId).returningAll().executeTakeFirstOrThrow();
  await recordBookingEvents(tx, moved, ['booking.updated']);
  return moved;
}

/** The lock and the status gate in one statement: an UPDATE that changes nothing, of a confirmed booking only. */
export async function lockConfirmed(tx: Tx, bookingId: number): Promise<boolean> {
  const row = await tx
    .updateTable('bookings')
    .set({ status: sql`status` })
    .where('id', '=', bookingId)
    .where('status', '=', 'confirmed')
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Cancels every live booking of the timeslot (confirmed, or on a hold that has not lapsed) in one
 * statement, each with its booking.cancelled event, and returns them (a cancelled departure).
 */
export async function cancelLiveBookingsOf(tx: Tx, timeslotId: number, now: UnixSeconds): Promise<BookingRow[]> {
  const cancelled = await tx
    .updateTable('bookings')
    .set({ status: 'cancelled', cancelled_at: nowMillis() })
    .where('timeslot_id', '=', timeslotId)
    .where((eb) => eb.or([eb('status', '=', 'confirmed'), eb.and([eb('status', '=', 'on_hold'), eb('hold_expires_at', '>', now)])]))
    .returningAll()
    .execute();
  for (const row of cancelled) {
    await recordBookingEvents(tx, row, ['booking.cancelled']);
    tallyBooking(tx, 'cancelled', row);
  }
  return cancelled;
}

/**
 * Ends the given holds now if they are still live (status expired, as a lapsed hold), and answers those
 * it ended. The status condition makes a hold that lapsed, was paid or cancelled meanwhile a no-op, so
 * its seats are never given back twice. The caller gives the seats back.
 */
export async function endHolds(tx: Tx, bookingIds: number[], now: UnixSeconds) {
  if (bookingIds.length === 0) return [];
  const ended = await tx
    .updateTable('bookings')
    .set({ status: 'expired', hold_expires_at: now })
    .where('id', 'in', bookingIds)
    .where('status', '=', 'on_hold')
    .where('hold_expires_at', '>', now)
    .returningAll()
    .execute();
  // A released hold ends as a lapsed one does: booking.expired for the webhooks.
  for (const row of ended) await recordBookingEvents(tx, row, ['booking.expired']);
  return ended;
}
