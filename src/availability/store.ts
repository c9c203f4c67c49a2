import { sql, type ExpressionBuilder, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Database, TimeslotTable } from '../db/schema.js';
import { dialectOf, type Tx } from '../db/connection.js';
import { noteSeatsChanged } from '../events/outbox.js';
import { lockActivity } from '../catalog/index.js';
import type { UnixSeconds } from '../lib/clock.js';

export type TimeslotRow = Selectable<TimeslotTable>;

/** A timeslot with the seats of its holds that have lapsed but not yet been released. */
export type LiveTimeslotRow = TimeslotRow & { lapsed_hold_seats: number };

/** A timeslot with what it takes to show it: its activity's public ID and time zone. */
export type ZonedTimeslotRow = LiveTimeslotRow & { activity_public_id: string; timezone: string };

/** A timeslot whose seats change, with its operator (whose cached partner answers the change drops). */
export interface SeatsOf {
  operatorId: number;
  timeslotId: number;
}

/**
 * `timeslots.booked` still counts a hold whose time ran out until a booking write releases it. Readers
 * subtract those seats here, so a lapsed hold never blocks a seat, with no background job at all.
 * Published for queries of other domains over timeslots that must stay one query (waitlists/store.ts).
 */
export function lapsedHoldSeatsOf(eb: ExpressionBuilder<Database, 'timeslots'>, now: UnixSeconds) {
  return eb
    .selectFrom('bookings')
    .select((b) => b.fn.coalesce(b.fn.sum<number>('bookings.seats'), b.lit(0)).as('seats'))
    .whereRef('bookings.timeslot_id', '=', 'timeslots.id')
    .where('bookings.status', '=', 'on_hold')
    .where('bookings.hold_expires_at', '<=', now);
}

const lapsedHoldSeats = (now: UnixSeconds) => (eb: ExpressionBuilder<Database, 'timeslots'>) => lapsedHoldSeatsOf(eb, now).as('lapsed_hold_seats');

/** PostgreSQL hands SUM back as a bigint (parsed to a number) or NULL; SQLite as a number. */
function live<T extends TimeslotRow & { lapsed_hold_seats: unknown }>(row: T): T & { lapsed_hold_seats: number } {
  return { ...row, lapsed_hold_seats: Number(row.lapsed_hold_seats ?? 0) };
}

/** The activity's timeslots with dates from `from` to `to` inclusive, by start. */
export async function listTimeslots(
  db: Kysely<Database>,
  activityRowId: number,
  range: { from: string; to: string },
  now: UnixSeconds,
): Promise<LiveTimeslotRow[]> {
  const rows = await db
    .selectFrom('timeslots')
    .selectAll('timeslots')
    .select(lapsedHoldSeats(now))
    .where('timeslots.activity_id', '=', activityRowId)
    .where('timeslots.date', '>=', range.from)
    .where('timeslots.date', '<=', range.to)
    .orderBy('timeslots.starts_at')
    .orderBy('timeslots.id')
    .execute();
  return rows.map(live);
}

export interface DateWithRoom {
  date: string;
  /** Timeslots of the date that have not started and have a seat left. */
  timeslots: number;
  /** Seats left over those timeslots. */
  available: number;
}

/**
 * The dates from `from` to `to` with room, ascending: the rule of seatsLeft (no seats once it takes no
 * more bookings, capacity minus live booked seats) counted per date in the database, so that one row
 * per date comes back instead of every timeslot.
 */
export async function listDatesWithRoom(
  db: Kysely<Database>,
  activityRowId: number,
  range: { from: string; to: string },
  now: UnixSeconds,
): Promise<DateWithRoom[]> {
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('timeslots')
        .select('timeslots.date')
        .select((slot) =>
          sql<number>`${slot.ref('timeslots.capacity')} - ${slot.ref('timeslots.booked')} + (${lapsedHoldSeatsOf(slot, now)})`.as('free'),
        )
        .where('timeslots.activity_id', '=', activityRowId)
        .where('timeslots.date', '>=', range.from)
        .where('timeslots.date', '<=', range.to)
        .where('timeslots.bookable_until', '>', now)
        .as('slots'),
    )
    .select('slots.date')
    .select((eb) => [eb.fn.countAll<number>().as('timeslots'), eb.fn.sum<number>('slots.free').as('available')])
    .where('slots.free', '>', 0)
    .groupBy('slots.date')
    .orderBy('slots.date')
    .execute();
  // PostgreSQL's COUNT and SUM are bigints (parsed to numbers, see db/postgres.ts); SQLite's numbers.
  return rows.map((row) => ({ date: row.date, timeslots: Number(row.timeslots), available: Number(row.available) }));
}

/** One of the operator's timeslots by ID, with its activity; another operator's is not found. */
export async function findZonedTimeslot(
  db: Kysely<Database>,
  operatorId: number,
  id: number,
  now: UnixSeconds,
): Promise<ZonedTimeslotRow | undefined> {
  const row = await db
    .selectFrom('timeslots')
    .innerJoin('activities', 'activities.id', 'timeslots.activity_id')
    .selectAll('timeslots')
    .select(['activities.public_id as activity_public_id', 'activities.timezone'])
    .select(lapsedHoldSeats(now))
    .where('timeslots.id', '=', id)
    .where('timeslots.operator_id', '=', operatorId)
    .executeTakeFirst();
  return row && live(row);
}

/**
 * Timeslots by ID, whoever's they are (the webhook dispatcher renders them for their own operator's
 * endpoints), with their activity's ID, zone and whether it is archived.
 */
export async function findZonedTimeslotsById(
  db: Kysely<Database>,
  ids: number[],
  now: UnixSeconds,
): Promise<(ZonedTimeslotRow & { archived: number })[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('timeslots')
    .innerJoin('activities', 'activities.id', 'timeslots.activity_id')
    .selectAll('timeslots')
    .select(['activities.public_id as activity_public_id', 'activities.timezone', 'activities.archived'])
    .select(lapsedHoldSeats(now))
    .where('timeslots.id', 'in', ids)
    .execute();
  return rows.map(live);
}

/** A timeslot by ID; with `operatorId`, only that operator's (another's is not found). */
export async function findTimeslotById(db: Kysely<Database>, id: number, operatorId?: number): Promise<TimeslotRow | undefined> {
  let query = db.selectFrom('timeslots').selectAll().where('id', '=', id);
  if (operatorId !== undefined) query = query.where('operator_id', '=', operatorId);
  return query.executeTakeFirst();
}

/**
 * On PostgreSQL, locks the timeslot's row until the transaction ends, so that the seats counted after it
 * stay the caller's to give (the waitlist's offers); SQLite's write transaction already holds the database.
 */
export async function lockTimeslot(tx: Tx, id: number): Promise<void> {
  if (dialectOf(tx) === 'postgres') await sql`SELECT id FROM timeslots WHERE id = ${id} FOR UPDATE`.execute(tx);
}

/** A timeslot with its activity's public ID, name and zone, in one query (a published read: the waitlist's offers). */
export async function findTimeslotWithActivity(db: Kysely<Database>, id: number) {
  return db
    .selectFrom('timeslots')
    .innerJoin('activities', 'activities.id', 'timeslots.activity_id')
    .select([
      'timeslots.capacity',
      'timeslots.booked',
      'timeslots.date',
      'timeslots.time',
      'timeslots.bookable_until',
      'activities.public_id',
      'activities.name',
      'activities.timezone',
    ])
    .where('timeslots.id', '=', id)
    .executeTakeFirst();
}

/** The activity's timeslot at a wall-clock date and time, if there is one. */
export async function findTimeslotAt(db: Kysely<Database>, activityRowId: number, date: string, time: string): Promise<TimeslotRow | undefined> {
  return db
    .selectFrom('timeslots')
    .selectAll()
    .where('activity_id', '=', activityRowId)
    .where('date', '=', date)
    .where('time', '=', time)
    .executeTakeFirst();
}

export type NewTimeslot = Omit<Insertable<TimeslotTable>, 'id' | 'booked'>;

/**
 * Which of these dates the activity has a timeslot on. On PostgreSQL the activity row is locked first, so
 * that two writers adding one timeslot a day (opening hours) cannot both find a date free.
 */
export async function datesWithTimeslots(tx: Tx, activityRowId: number, dates: string[]): Promise<Set<string>> {
  await lockActivity(tx, activityRowId);
  if (dates.length === 0) return new Set();
  const found = new Set<string>();
  for (let i = 0; i < dates.length; i += INSERT_CHUNK) {
    const rows = await tx
      .selectFrom('timeslots')
      .select('date')
      .where('activity_id', '=', activityRowId)
      .where('date', 'in', dates.slice(i, i + INSERT_CHUNK))
      .execute();
    for (const row of rows) found.add(row.date);
  }
  return found;
}

// Rows per INSERT: well under SQLite's limit of bound parameters with 7 columns each.
const INSERT_CHUNK = 500;

/**
 * Inserts the timeslots that do not exist yet (same activity, date and time) and returns only those it
 * inserted; the unique constraint decides, so two concurrent schedules cannot create a slot twice.
 */
export async function insertNewTimeslots(tx: Tx, rows: NewTimeslot[]): Promise<TimeslotRow[]> {
  const inserted: TimeslotRow[] = [];
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = rows.slice(i, i + INSERT_CHUNK);
    inserted.push(
      ...(await tx
        .insertInto('timeslots')
        .values(chunk)
        .onConflict((oc) => oc.columns(['activity_id', 'date', 'time']).doNothing())
        .returningAll()
        .execute()),
    );
  }
  // New seats on sale: availability.changed for each (webhooks), the partner API's answers dropped.
  const byOperator = new Map<number, number[]>();
  for (const row of inserted) (byOperator.get(row.operator_id) ?? byOperator.set(row.operator_id, []).get(row.operator_id)!).push(row.id);
  for (const [operatorId, ids] of byOperator) await noteSeatsChanged(tx, operatorId, ids);
  return inserted;
}

/** Sets the capacity unless more seats than that are booked; false when it was not changed. */
export async function setCapacityAboveBooked(tx: Tx, { operatorId, timeslotId }: SeatsOf, capacity: number): Promise<boolean> {
  const result = await tx
    .updateTable('timeslots')
    .set({ capacity })
    .where('id', '=', timeslotId)
    .where('operator_id', '=', operatorId)
    .where('booked', '<=', capacity)
    .executeTakeFirst();
  const changed = Number(result.numUpdatedRows) === 1;
  if (changed) await noteSeatsChanged(tx, operatorId, [timeslotId]);
  return changed;
}

/**
 * Closes a cancelled departure (bookings/departures.ts): `freed` seats of the bookings it cancelled go back,
 * it takes no more bookings (bookable_until is now) and its capacity becomes what is still booked (0 once
 * all its bookings are cancelled), so that a booking of any channel that read it open before and commits
 * after is refused by the seat count's CHECK. Both SET expressions read the row before the update.
 */
export async function closeCancelledTimeslot(tx: Tx, { operatorId, timeslotId: id }: SeatsOf, freed: number, now: UnixSeconds): Promise<void> {
  await noteSeatsChanged(tx, operatorId, [id]);
  await tx
    .updateTable('timeslots')
    .set((eb) => ({
      booked: eb('booked', '-', freed),
      capacity: eb('booked', '-', freed),
      bookable_until: sql<UnixSeconds>`CASE WHEN bookable_until < ${now} THEN bookable_until ELSE ${now} END`,
      cancelled_at: sql<UnixSeconds>`coalesce(cancelled_at, ${now})`,
    }))
    .where('id', '=', id)
    .execute();
}
