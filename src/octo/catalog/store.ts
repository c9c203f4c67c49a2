// SQL of OCTo's catalogue. OCTo has no tables of its own for products and availability: these read
// timeslots (the availability domain's table) in the shapes OCTo asks for, where availability/store.ts
// publishes no such read.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { TimeslotRow } from '../../availability/index.js';
import type { UnixSeconds } from '../../lib/clock.js';

/** The distinct local start times (HH:MM) of each activity's timeslots that still take bookings. Reads timeslots. */
export async function upcomingStartTimes(db: Kysely<Database>, activityIds: number[], now: UnixSeconds): Promise<Map<number, string[]>> {
  const byActivity = new Map<number, string[]>();
  if (activityIds.length === 0) return byActivity;
  const rows = await db
    .selectFrom('timeslots')
    .select(['activity_id', 'time'])
    .distinct()
    .where('activity_id', 'in', activityIds)
    .where('bookable_until', '>', now)
    .orderBy('activity_id')
    .orderBy('time')
    .execute();
  for (const row of rows) byActivity.set(row.activity_id, [...(byActivity.get(row.activity_id) ?? []), row.time]);
  return byActivity;
}

/** The activity's timeslot on `date`: an opening-hours activity has one a day. Reads timeslots. */
export async function findDayTimeslot(db: Kysely<Database>, activityRowId: number, date: string): Promise<TimeslotRow | undefined> {
  return db.selectFrom('timeslots').selectAll().where('activity_id', '=', activityRowId).where('date', '=', date).executeTakeFirst();
}
