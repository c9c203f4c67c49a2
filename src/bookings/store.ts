import { sql, type ExpressionBuilder, type Insertable, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type { ActivityTable, BookingTable, Database, TimeslotTable } from '../db/schema.js';
import type { Tx } from '../db/connection.js';
import type { BookingSource, BookingStatus } from './schemas.js';
import { recordBookingEvents } from '../events/outbox.js';
import { anyReactionInterested } from '../events/reactions.js';
import { keepBookingFiles } from '../questions/upload-store.js';

export type BookingRow = Selectable<BookingTable>;

/** A booking with what it takes to show it: its timeslot's date, time and start, its activity's ID and zone. */
export type BookingRecord = BookingRow & {
  activity_public_id: string;
  timezone: string;
  date: string;
  time: string;
  starts_at: number;
};

function selectRecords(db: Kysely<Database>) {
  return db
    .selectFrom('bookings')
    .innerJoin('timeslots', 'timeslots.id', 'bookings.timeslot_id')
    .innerJoin('activities', 'activities.id', 'timeslots.activity_id')
    .selectAll('bookings')
    .select(['activities.public_id as activity_public_id', 'activities.timezone', 'timeslots.date', 'timeslots.time', 'timeslots.starts_at']);
}

/**
 * One of the operator's bookings by reference. With `partner`, only that marketplace's own partner
 * bookings are found: a partner never sees the operator's other sales, nor another marketplace's.
 */
export async function findBooking(db: Kysely<Database>, operatorId: number, reference: string, partner?: string): Promise<BookingRecord | undefined> {
  let query = selectRecords(db).where('bookings.reference', '=', reference).where('bookings.operator_id', '=', operatorId);
  if (partner !== undefined) query = query.where('bookings.source', '=', 'partner').where('bookings.partner', '=', partner);
  return query.executeTakeFirst();
}

/** The timeslot a booking is placed on, as far as placing it needs. */
export type BookableTimeslot = Pick<Selectable<TimeslotTable>, 'id' | 'date' | 'time' | 'starts_at' | 'bookable_until'>;

export interface BookingTarget {
  activity: Selectable<ActivityTable>;
  /** The activity's timeslot at the date and time asked for, if it has one. */
  timeslot: BookableTimeslot | undefined;
  /** Whether any reaction to bookings cares about the operator's (events/reactions.ts); if none, a booking publishes nothing. */
  reactionsInterested: boolean;
}

/**
 * What a booking request names, in one query (the bookings of one timeslot queue behind each other, so
 * every statement of a booking counts): the operator's activity by public ID, its timeslot at `date` and
 * `time`, and whether any reaction cares about the operator's bookings. Undefined when the operator has no such activity.
 */
export async function findBookingTarget(
  db: Kysely<Database>,
  operatorId: number,
  activityId: string,
  date: string,
  time: string,
): Promise<BookingTarget | undefined> {
  const row = await db
    .selectFrom('activities')
    .leftJoin('timeslots', (join) =>
      join.onRef('timeslots.activity_id', '=', 'activities.id').on('timeslots.date', '=', date).on('timeslots.time', '=', time),
    )
    .selectAll('activities')
    .select(['timeslots.id as timeslot_id', 'timeslots.starts_at as timeslot_starts_at', 'timeslots.bookable_until as timeslot_bookable_until'])
    .select(sql<SqlBool>`${anyReactionInterested(operatorId)}`.as('reactions_interested'))
    .where('activities.public_id', '=', activityId)
    .where('activities.operator_id', '=', operatorId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { timeslot_id, timeslot_starts_at, timeslot_bookable_until, reactions_interested, ...activity } = row;
  return {
    activity,
    timeslot:
      timeslot_id === null || timeslot_starts_at === null || timeslot_bookable_until === null
        ? undefined
        : { id: timeslot_id, date, time, starts_at: Number(timeslot_starts_at), bookable_until: Number(timeslot_bookable_until) },
    // SQLite answers EXISTS with 0 or 1, PostgreSQL with a boolean.
    reactionsInterested: Boolean(Number(reactions_interested)),
  };
}

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

export async function insertWaiverAnswers(tx: Tx, bookingId: number, answers: { questionId: number; answer: string }[]): Promise<void> {
  if (answers.length === 0) return;
  await tx
    .insertInto('waiver_answers')
    .values(answers.map((a) => ({ booking_id: bookingId, question_id: a.questionId, answer: a.answer })))
    .execute();
}

/** The booking's waiver answers by question. */
export async function waiverAnswersOf(db: Kysely<Database>, bookingId: number): Promise<Map<number, string>> {
  const rows = await db.selectFrom('waiver_answers').select(['question_id', 'answer']).where('booking_id', '=', bookingId).execute();
  return new Map(rows.map((row) => [row.question_id, row.answer]));
}

/** Answers given after booking (OCTo): each replaces an earlier answer to its question. */
export async function replaceWaiverAnswers(tx: Tx, bookingId: number, answers: { questionId: number; answer: string }[]): Promise<void> {
  for (const { questionId, answer } of answers) {
    await tx
      .insertInto('waiver_answers')
      .values({ booking_id: bookingId, question_id: questionId, answer })
      .onConflict((oc) => oc.columns(['booking_id', 'question_id']).doUpdateSet({ answer }))
      .execute();
  }
}

export async function setWaiverStatus(tx: Tx, bookingId: number, status: 'pending' | 'complete'): Promise<void> {
  await tx.updateTable('bookings').set({ waiver_status: status }).where('id', '=', bookingId).execute();
}

/** A booking that moved to another activity answers its questions anew. */
export async function deleteWaiverAnswers(tx: Tx, bookingId: number): Promise<void> {
  await tx.deleteFrom('waiver_answers').where('booking_id', '=', bookingId).execute();
}

/** The webhook event of a booking that moved to `status`. */
const STATUS_EVENTS = { confirmed: 'booking.confirmed', cancelled: 'booking.cancelled', expired: 'booking.expired' } as const;

/**
 * Moves the booking to `to` only if it is still in one of `from`, and returns it when it did, with the
 * webhook event of its new status. The condition makes a repeated cancel or confirm a no-op, and makes
 * exactly one of two racing writers the one that frees the seats (and writes the event). A booking that
 * becomes confirmed attaches the files its answers name for good; its hold kept them from the sweep until
 * now (it was live), so none is gone.
 */
export async function changeStatus(
  tx: Tx,
  bookingId: number,
  from: BookingStatus[],
  changes: { status: Exclude<BookingStatus, 'on_hold'>; cancelled_at?: number; hold_expires_at?: null },
): Promise<BookingRow | undefined> {
  const changed = await tx
    .updateTable('bookings')
    .set(changes)
    .where('id', '=', bookingId)
    .where('status', 'in', from)
    .returningAll()
    .executeTakeFirst();
  if (changed) await recordBookingEvents(tx, changed, [STATUS_EVENTS[changes.status]]);
  if (changed?.status === 'confirmed') await keepBookingFiles(tx, changed, Date.now());
  return changed;
}

export interface BookingFilter {
  from?: string;
  to?: string;
  source?: BookingSource;
  activityId?: string;
  status?: BookingStatus;
  search?: string;
  limit: number;
  offset: number;
}

/** `%`, `_` and the escape character itself match literally in the customer's search text. */
export const likePattern = (text: string): string => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

type RecordScope = ExpressionBuilder<Database, 'bookings' | 'timeslots' | 'activities'>;

/**
 * A hold whose time has run out counts as expired even before a write releases it, so the Status filter
 * uses the same reading as the Booking shown (view.ts).
 */
function hasStatus(eb: RecordScope, status: BookingStatus, now: number) {
  const lapsed = eb.and([eb('bookings.status', '=', 'on_hold'), eb('bookings.hold_expires_at', '<=', now)]);
  if (status === 'expired') return eb.or([eb('bookings.status', '=', 'expired'), lapsed]);
  if (status === 'on_hold') return eb.and([eb('bookings.status', '=', 'on_hold'), eb('bookings.hold_expires_at', '>', now)]);
  return eb('bookings.status', '=', status);
}

function matchesSearch(pattern: string) {
  const like = (column: ReturnType<typeof sql.ref>) => sql<boolean>`lower(${column}) LIKE ${pattern} ESCAPE '\\'`;
  const fullName = sql`${sql.ref('bookings.customer_first_name')} || ' ' || ${sql.ref('bookings.customer_last_name')}`;
  return (eb: RecordScope) =>
    eb.or([
      like(sql.ref('bookings.reference')),
      sql<boolean>`lower(${fullName}) LIKE ${pattern} ESCAPE '\\'`,
      like(sql.ref('bookings.customer_email')),
    ]);
}

/** The operator's bookings of every source, by the timeslot's date and time, then when they were made. */
export async function listBookings(db: Kysely<Database>, operatorId: number, filter: BookingFilter, now: number): Promise<BookingRecord[]> {
  let query = selectRecords(db).where('bookings.operator_id', '=', operatorId);
  if (filter.from !== undefined) query = query.where('timeslots.date', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('timeslots.date', '<=', filter.to);
  if (filter.source !== undefined) query = query.where('bookings.source', '=', filter.source);
  if (filter.activityId !== undefined) query = query.where('activities.public_id', '=', filter.activityId);
  if (filter.status !== undefined) {
    const status = filter.status;
    query = query.where((eb) => hasStatus(eb, status, now));
  }
  if (filter.search !== undefined) query = query.where(matchesSearch(likePattern(filter.search)));
  return query
    .orderBy('timeslots.date')
    .orderBy('timeslots.time')
    .orderBy('bookings.created_at')
    .orderBy('bookings.id')
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
}

/** The customer and payment-reference columns a channel may change after booking (OCTo confirm and update). */
export type BookingDetails = Partial<
  Pick<BookingTable, 'customer_first_name' | 'customer_last_name' | 'customer_email' | 'customer_phone' | 'payment_reference'>
>;

/**
 * Changes who the booking is for and the partner's reference; seats and status are untouched. Only a
 * real change writes (and sends booking.updated): a retried OCTo confirmation writes the same details again.
 */
export async function changeBookingDetails(tx: Tx, bookingId: number, details: BookingDetails): Promise<void> {
  const columns = Object.keys(details) as (keyof BookingDetails)[];
  if (columns.length === 0) return;
  const changed = await tx
    .updateTable('bookings')
    .set(details)
    .where('id', '=', bookingId)
    .where((eb) => eb.or(columns.map((column) => eb(column, 'is distinct from', details[column] ?? null))))
    .returningAll()
    .executeTakeFirst();
  if (changed) await recordBookingEvents(tx, changed, ['booking.updated']);
}

/**
 * Moves a live hold's expiry to `until`. Only a hold that is still on hold and has not lapsed at `now`
 * moves: a lapsed hold's seats may already be someone else's, so it cannot be revived. The files it names
 * are kept from the sweep until the new expiry. True when it moved.
 */
export async function extendHoldUntil(tx: Tx, bookingId: number, until: number, now: number): Promise<boolean> {
  const extended = await tx
    .updateTable('bookings')
    .set({ hold_expires_at: until })
    .where('id', '=', bookingId)
    .where('status', '=', 'on_hold')
    .where('hold_expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();
  if (extended) {
    await recordBookingEvents(tx, extended, ['booking.updated']);
    await keepBookingFiles(tx, extended, Date.now());
  }
  return extended !== undefined;
}

/** The reference of one of the operator's bookings, by row ID (an e-mail names its booking so). */
export async function bookingReference(db: Kysely<Database>, operatorId: number, bookingId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('bookings')
    .select('reference')
    .where('id', '=', bookingId)
    .where('operator_id', '=', operatorId)
    .executeTakeFirst();
  return row?.reference;
}
