// Seat accounting of a timeslot. `timeslots.booked` counts the seats of bookings that are confirmed or
// on hold and not yet released; it only ever changes through these functions, inside a write transaction
// (`Tx`), together with the booking rows that justify the change.
//
// Why this is safe under any concurrency, on both dialects and with several server processes:
// - Taking seats is one conditional statement, `booked = booked + n WHERE booked + n <= capacity`. On
//   SQLite the write transaction (BEGIN IMMEDIATE) serialises writers outright. On PostgreSQL the UPDATE
//   locks the row, and a writer that waited for that lock re-evaluates its WHERE against the committed
//   row (READ COMMITTED re-check), so two writers can never both pass a check only one of them fits.
//   The CHECK (booked <= capacity) in the schema backs this up; it never replaces it.
// - Releasing lapsed holds flips their status with a conditional UPDATE ... RETURNING, so a hold's seats
//   are given back by exactly the one transaction that flipped it, never twice.
// - Every writer touches the bookings rows first and the timeslot row after, so PostgreSQL's row locks
//   are always taken in the same order and two booking writers cannot deadlock each other.
import type { Tx } from '../db/connection.js';

/**
 * Marks the timeslot's holds whose time has run out as `expired` and gives their seats back. Run first
 * in every write that takes or frees seats of the timeslot, so the count it checks is the live one.
 */
export async function releaseLapsedHolds(tx: Tx, timeslotId: number, now: number): Promise<number> {
  const released = await tx
    .updateTable('bookings')
    .set({ status: 'expired' })
    .where('timeslot_id', '=', timeslotId)
    .where('status', '=', 'on_hold')
    .where('hold_expires_at', '<=', now)
    .returning('participants')
    .execute();
  const seats = released.reduce((sum, row) => sum + Number(row.participants), 0);
  if (seats > 0) await giveBackSeats(tx, timeslotId, seats);
  return seats;
}

/** Takes `seats` seats if that many are left; false (and nothing changed) when they are not. */
export async function takeSeats(tx: Tx, timeslotId: number, seats: number): Promise<boolean> {
  const result = await tx
    .updateTable('timeslots')
    .set((eb) => ({ booked: eb('booked', '+', seats) }))
    .where('id', '=', timeslotId)
    .where((eb) => eb(eb('booked', '+', seats), '<=', eb.ref('capacity')))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Returns seats of a booking that no longer holds them (cancelled, or a hold that lapsed). */
export async function giveBackSeats(tx: Tx, timeslotId: number, seats: number): Promise<void> {
  await tx
    .updateTable('timeslots')
    .set((eb) => ({ booked: eb('booked', '-', seats) }))
    .where('id', '=', timeslotId)
    .execute();
}
