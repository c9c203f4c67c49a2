import type { Insertable, Kysely, Selectable } from 'kysely';
import type { ActivityTable, Database } from '../db/schema.js';

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

export async function hasTimeslots(db: Kysely<Database>, activityId: number): Promise<boolean> {
  const row = await db.selectFrom('timeslots').select('id').where('activity_id', '=', activityId).limit(1).executeTakeFirst();
  return row !== undefined;
}
