import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import { dialectOf, type Tx } from '../db/connection.js';
import type { ActivityTable, Database } from '../db/schema.js';
import { nowMillis } from '../lib/clock.js';

export type ActivityRow = Selectable<ActivityTable>;

/** The operator's activities by ID. Operators have tens of activities, not thousands: name matching
 * happens in the service, in JavaScript, so that it is the same Unicode-aware match on every dialect. */
export async function listActivities(db: Kysely<Database>, operatorId: number, includeArchived = false): Promise<ActivityRow[]> {
  let query = db.selectFrom('activities').selectAll().where('operator_id', '=', operatorId);
  if (!includeArchived) query = query.where('archived', '=', 0);
  return query.orderBy('id').execute();
}

/** An activity of this operator by its public ActivityID; another operator's is simply not found. */
export async function findActivity(db: Kysely<Database>, operatorId: number, publicId: string): Promise<ActivityRow | undefined> {
  return db.selectFrom('activities').selectAll().where('public_id', '=', publicId).where('operator_id', '=', operatorId).executeTakeFirst();
}

export async function findActivityById(db: Kysely<Database>, operatorId: number, id: number): Promise<ActivityRow | undefined> {
  return db.selectFrom('activities').selectAll().where('id', '=', id).where('operator_id', '=', operatorId).executeTakeFirst();
}

export async function insertActivity(db: Kysely<Database>, row: Omit<Insertable<ActivityTable>, 'id' | 'archived'>): Promise<ActivityRow> {
  return db.insertInto('activities').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateActivity(
  db: Kysely<Database>,
  id: number,
  changes: Partial<Omit<ActivityRow, 'id' | 'operator_id' | 'public_id'>>,
): Promise<ActivityRow> {
  return db.updateTable('activities').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/**
 * Whether the activity has any timeslot. It reads availability's table: availability builds on the catalog
 * (it imports it), so the catalog cannot ask availability without closing a circle, and it needs only this.
 */
export async function hasTimeslots(db: Kysely<Database>, activityId: number): Promise<boolean> {
  const row = await db.selectFrom('timeslots').select('id').where('activity_id', '=', activityId).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** The activity's public ID by its row ID. */
export async function activityPublicId(db: Kysely<Database>, id: number): Promise<string> {
  const row = await db.selectFrom('activities').select('public_id').where('id', '=', id).executeTakeFirstOrThrow();
  return row.public_id;
}

/**
 * Marks the operator's activity as changed now (and sets its UnitPrice when given), which locks its row
 * until the transaction ends; the row as it then is, or undefined when the operator has no such activity.
 */
export async function touchActivity(tx: Tx, operatorId: number, id: number, unitPrice?: number): Promise<ActivityRow | undefined> {
  return tx
    .updateTable('activities')
    .set({ updated_at: nowMillis(), ...(unitPrice !== undefined && { unit_price: unitPrice }) })
    .where('id', '=', id)
    .where('operator_id', '=', operatorId)
    .returningAll()
    .executeTakeFirst();
}

/** On PostgreSQL, locks the activity's row until the transaction ends (SQLite's write transaction holds the database). */
export async function lockActivity(tx: Tx, id: number): Promise<void> {
  if (dialectOf(tx) === 'postgres') await sql`SELECT id FROM activities WHERE id = ${id} FOR UPDATE`.execute(tx);
}
