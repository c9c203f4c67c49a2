// The seat ledger: seat accounting of a timeslot. `timeslots.booked` counts the seats of bookings that are confirmed or
// on hold and not yet released; it only ever changes through these functions, inside a write transaction
// (`Tx`), together with the booking rows that justify the change.
//
// Why this is safe under any concurrency, on both dialects and with several server processes:
// - Taking seats is one statement, `booked = booked + n`, run as the transaction's last (runAtCommit),
//   which the schema's CHECK (booked <= capacity) fails when the seats are not left, so the whole
//   transaction rolls back. On SQLite the write transaction (BEGIN IMMEDIATE) serialises writers
//   outright. On PostgreSQL the UPDATE locks the row, and a writer that waited for that lock computes
//   `booked + n` and checks it against the committed row (READ COMMITTED re-check), so two writers can
//   never both pass a check only one of them fits.
// - Why last, and why the CHECK rather than a condition in the WHERE: every booking of a timeslot waits
//   for that one row lock, which PostgreSQL holds until COMMIT. Sent with the COMMIT in one round trip,
//   the lock is held for the statement and the commit only, never for the rest of the booking nor for a
//   turn of our busy event loop; and a refusal has to be an error, as nothing reads the result in between.
// - Releasing lapsed holds flips their status with a conditional UPDATE ... RETURNING, so a hold's seats
//   are given back by exactly the one transaction that flipped it, never twice.
// - Every writer touches the bookings rows first and the timeslot row after, so PostgreSQL's row locks
//   are always taken in the same order and two booking writers cannot deadlock each other.
// - Webhooks: every change of seats notes the timeslot for availability.changed, and every released hold
//   writes its booking.expired, in the same transaction (src/events/outbox.ts).
//
// The ledger is availability's second store: its statements stay here, together with when they run, and
// it writes the bookings rows it releases itself, since on PostgreSQL the release and the take are one
// statement (docs/concurrency.md).
import { sql, type Kysely } from 'kysely';
import { atCommitValue, dialectOf, firstInTransaction, runAtCommit, type Tx } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';
import { expiredEventsCte, noteSeatsChanged, recordBookingEvents } from '../../events/outbox.js';
import { tallyLapsedHolds } from '../../hooks/tallies.js';
import type { SeatsOf } from '../../availability/index.js';
import type { UnixSeconds } from '../../lib/clock.js';

/**
 * Marks the timeslot's holds whose time has run out as `expired` and gives their seats back. Run first
 * in every write that takes or frees seats of the timeslot, so the count it checks is the live one.
 */
export async function releaseLapsedHolds(tx: Tx, timeslotId: number, now: UnixSeconds): Promise<number> {
  const released = await tx
    .updateTable('bookings')
    .set({ status: 'expired' })
    .where('timeslot_id', '=', timeslotId)
    .where('status', '=', 'on_hold')
    .where('hold_expires_at', '<=', now)
    .returningAll()
    .execute();
  for (const row of released) await recordBookingEvents(tx, row, ['booking.expired']);
  tallyLapsedHolds(tx, released.length);
  const seats = released.reduce((sum, row) => sum + Number(row.seats), 0);
  if (seats > 0) await giveBackSeats(tx, { operatorId: released[0]!.operator_id, timeslotId }, seats);
  return seats;
}

/**
 * Releases the timeslot's lapsed holds and takes `seats` seats when the transaction commits (see above).
 * If they are not left, the transaction rolls back, booking and all, and the write rejects with the error
 * `refuse` makes, reading through a handle outside the transaction. In a transaction that takes seats more
 * than once, the first take explains a refusal.
 */
export async function takeSeatsAtCommit(
  tx: Tx,
  { operatorId, timeslotId }: SeatsOf,
  seats: number,
  now: UnixSeconds,
  refuse: (db: Kysely<Database>) => Promise<Error>,
): Promise<void> {
  const explain = async (error: unknown, db: Kysely<Database>) => (violatesSeatCount(error) ? refuse(db) : undefined);
  const take = sql`UPDATE timeslots SET booked = booked + ${atCommitValue(tx, seats)} WHERE id = ${atCommitValue(tx, timeslotId)}`;
  // Once per transaction is enough: the other bookings of a group (Db.writeGrouped) come right after.
  // A hold that lapses in between only makes a refusal possible, and a refused group runs each again alone.
  if (!firstInTransaction(tx, `release-lapsed-holds:${timeslotId}`)) {
    runAtCommit(tx, { query: take.compile(tx), explain });
    return;
  }
  await noteSeatsChanged(tx, operatorId, [timeslotId]);
  if (dialectOf(tx) === 'postgres') {
    // The release goes into the same statement: one statement less per booking, and its bookings rows
    // are still locked before the timeslot row. The released holds' booking.expired events too.
    const id = sql.lit(timeslotId);
    const query = sql`WITH released AS (
        UPDATE bookings SET status = 'expired'
        WHERE timeslot_id = ${id} AND status = 'on_hold' AND hold_expires_at <= ${sql.lit(now)}
        RETURNING id, operator_id, reference, source, partner, seats),
      ${expiredEventsCte()}
      UPDATE timeslots SET booked = booked + ${sql.lit(seats)} - (SELECT coalesce(sum(seats), 0) FROM released)
      WHERE id = ${id}`.compile(tx);
    runAtCommit(tx, { query, explain });
    return;
  }
  // SQLite has no UPDATE in a WITH; its write lock already holds every row, so order costs nothing there.
  await releaseLapsedHolds(tx, timeslotId, now);
  runAtCommit(tx, { query: take.compile(tx), explain });
}

/**
 * Moves a booking's seats at commit (an amendment: another timeslot, another ticket mix, or both): the
 * changes of one timeslot are netted first, so a booking that grows on its own timeslot asks only for
 * the difference and the CHECK never refuses seats the booking already holds. Then, in timeslot order
 * (two amendments crossing the same timeslots lock them in the same order, so they cannot deadlock),
 * each timeslot takes seats like takeSeatsAtCommit or gives them back. All of it is the transaction's
 * last statements: the new seats and the release of the old commit together, so there is never a moment
 * with both or neither, and a take that does not fit rolls the whole amendment back.
 */
export async function changeSeatsAtCommit(
  tx: Tx,
  operatorId: number,
  changes: { timeslotId: number; seats: number }[],
  now: UnixSeconds,
  refuse: (timeslotId: number, seats: number) => (db: Kysely<Database>) => Promise<Error>,
): Promise<void> {
  const net = new Map<number, number>();
  for (const change of changes) net.set(change.timeslotId, (net.get(change.timeslotId) ?? 0) + change.seats);
  for (const [timeslotId, seats] of [...net].sort(([a], [b]) => a - b)) {
    if (seats > 0) await takeSeatsAtCommit(tx, { operatorId, timeslotId }, seats, now, refuse(timeslotId, seats));
    else if (seats < 0) {
      await noteSeatsChanged(tx, operatorId, [timeslotId]);
      const query = sql`UPDATE timeslots SET booked = booked - ${atCommitValue(tx, -seats)} WHERE id = ${atCommitValue(tx, timeslotId)}`.compile(tx);
      runAtCommit(tx, { query, explain: async () => undefined });
    }
  }
}

/** The CHECK on timeslots.booked, the only constraint a seat update can break. */
function violatesSeatCount(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23514' || code === 'SQLITE_CONSTRAINT_CHECK';
}

/** Returns seats of a booking that no longer holds them (cancelled, or a hold that lapsed). */
export async function giveBackSeats(tx: Tx, { operatorId, timeslotId }: SeatsOf, seats: number): Promise<void> {
  await noteSeatsChanged(tx, operatorId, [timeslotId]);
  await tx
    .updateTable('timeslots')
    .set((eb) => ({ booked: eb('booked', '-', seats) }))
    .where('id', '=', timeslotId)
    .execute();
}
