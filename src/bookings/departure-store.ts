// SQL of cancelled departures (departures.ts): one row per cancelled timeslot.
import type { Kysely, Selectable } from 'kysely';
import type { Tx } from '../db/connection.js';
import type { Database, DepartureCancellationTable } from '../db/schema.js';

export type DepartureCancellationRow = Selectable<DepartureCancellationTable>;

export async function findDepartureCancellation(
  db: Kysely<Database>,
  operatorId: number,
  timeslotId: number,
): Promise<DepartureCancellationRow | undefined> {
  return db
    .selectFrom('departure_cancellations')
    .selectAll()
    .where('timeslot_id', '=', timeslotId)
    .where('operator_id', '=', operatorId)
    .executeTakeFirst();
}

/** Inserts the cancellation unless the timeslot has one (a racing call's): true when inserted. */
export async function insertDepartureCancellation(tx: Tx, row: DepartureCancellationRow): Promise<boolean> {
  const inserted = await tx
    .insertInto('departure_cancellations')
    .values(row)
    .onConflict((oc) => oc.column('timeslot_id').doNothing())
    .returning('timeslot_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function setCancelledBookings(tx: Tx, timeslotId: number, bookingIds: number[]): Promise<void> {
  await tx
    .updateTable('departure_cancellations')
    .set({ booking_ids: JSON.stringify(bookingIds) })
    .where('timeslot_id', '=', timeslotId)
    .execute();
}
