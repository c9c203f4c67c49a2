import { sql, type ExpressionBuilder, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type { ActivityTable, BookingCheckinTable, BookingTable, Database, TimeslotTable } from '../db/schema.js';
import type { Tx } from '../db/connection.js';
import type { BookingSource, BookingStatus } from './schemas.js';
import { recordBookingEvents } from '../events/outbox.js';
import { anyReactionInterested } from '../hooks/platform-hooks.js';
import type { UnixMillis, UnixSeconds } from '../lib/clock.js';

export type BookingRow = Selectable<BookingTable>;

/** A booking with what it takes to show it: its timeslot's date, time and start, its activity's ID and zone. */
export type BookingRecord = BookingRow & {
  activity_public_id: string;
  timezone: string;
  date: string;
  time: string;
  starts_at: UnixSeconds;
};

// The timeslot's and activity's columns are joined in rather than asked of availability and the catalog:
// the lists filter and page by them (date, activity), which only one query can do.
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

/** The references of these of the operator's bookings, by booking ID (a published read: the e-mail outbox's listing, a workflow e-mail's manage link). */
export async function bookingReferences(db: Kysely<Database>, operatorId: number, bookingIds: number[]): Promise<Map<number, string>> {
  if (bookingIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('bookings')
    .select(['id', 'reference'])
    .where('operator_id', '=', operatorId)
    .where('id', 'in', [...new Set(bookingIds)])
    .execute();
  return new Map(rows.map((row) => [row.id, row.reference]));
}

/** The ID of the operator's booking with this reference. */
export async function findBookingId(db: Kysely<Database>, operatorId: number, reference: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('bookings')
    .select('id')
    .where('operator_id', '=', operatorId)
    .where('reference', '=', reference)
    .executeTakeFirst();
  return row?.id;
}

/** The ID of the operator's newest confirmed booking (through bookings_operator_created; a few cancelled or held ones on top are skipped). */
export async function newestConfirmedBookingId(db: Kysely<Database>, operatorId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('bookings')
    .select('id')
    .where('operator_id', '=', operatorId)
    .where('status', '=', 'confirmed')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

/** What a guest e-mail about a booking says of it: its guest, timeslot, activity and the operator's names. */
export interface BookingForEmail {
  reference: string;
  source: string;
  partner: string | null;
  participants: number;
  customer_first_name: string;
  customer_last_name: string;
  customer_email: string;
  date: string;
  time: string;
  starts_at: UnixSeconds;
  ends_at: UnixSeconds;
  activity_name: string;
  /** The activity's IANA zone, which date and time are in. */
  timezone: string;
  operator_name: string;
  shop_name: string | null;
  /** The guest's language: 'en' or 'de' (migration 033). */
  locale: string;
  /** Whether an OCTo reseller made it (a partner booking with an OCTo record). */
  octo: number;
}

/**
 * A published read for the workflows' e-mails, in one query: it runs inside the transaction that confirms
 * a booking, for every booking of an operator with workflows, so the timeslot, the activity and the
 * operator's names (the operators table, the settings' columns) are joined here rather than asked apart.
 */
export async function findBookingForEmail(db: Kysely<Database>, operatorId: number, bookingId: number): Promise<BookingForEmail | undefined> {
  return db
    .selectFrom('bookings')
    .innerJoin('timeslots', 'timeslots.id', 'bookings.timeslot_id')
    .innerJoin('activities', 'activities.id', 'timeslots.activity_id')
    .innerJoin('operators', 'operators.id', 'bookings.operator_id')
    .leftJoin('octo_bookings', 'octo_bookings.booking_id', 'bookings.id')
    .select([
      'bookings.reference',
      'bookings.source',
      'bookings.locale',
      sql<number>`case when octo_bookings.booking_id is null then 0 else 1 end`.as('octo'),
      'bookings.partner',
      'bookings.participants',
      'bookings.customer_first_name',
      'bookings.customer_last_name',
      'bookings.customer_email',
      'timeslots.date',
      'timeslots.time',
      'timeslots.starts_at',
      'timeslots.ends_at',
      'activities.name as activity_name',
      'activities.timezone',
      'operators.name as operator_name',
      'operators.shop_name',
    ])
    .where('bookings.id', '=', bookingId)
    .where('bookings.operator_id', '=', operatorId)
    .executeTakeFirst();
}

/** The timeslot a booking is placed on, as far as placing it needs. */
export type BookableTimeslot = Pick<Selectable<TimeslotTable>, 'id' | 'date' | 'time' | 'starts_at' | 'bookable_until'>;

export interface BookingTarget {
  activity: Selectable<ActivityTable>;
  /** The activity's timeslot at the date and time asked for, if it has one. */
  timeslot: BookableTimeslot | undefined;
  /** Whether any reaction to bookings cares about the operator's (hooks/platform-hooks.ts); if none, a booking publishes nothing. */
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
        : { id: timeslot_id, date, time, starts_at: timeslot_starts_at, bookable_until: timeslot_bookable_until },
    // SQLite answers EXISTS with 0 or 1, PostgreSQL with a boolean.
    reactionsInterested: Boolean(Number(reactions_interested)),
  };
}

export async function setWaiverStatus(tx: Tx, bookingId: number, status: 'pending' | 'complete'): Promise<void> {
  await tx.updateTable('bookings').set({ waiver_status: status }).where('id', '=', bookingId).execute();
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
function hasStatus(eb: RecordScope, status: BookingStatus, now: UnixSeconds) {
  const lapsed = eb.and([eb('bookings.status', '=', 'on_hold'), eb('bookings.hold_expires_at', '<=', now)]);
  if (status === 'expired') return eb.or([eb('bookings.status', '=', 'expired'), lapsed]);
  if (status === 'on_hold') return eb.and([eb('bookings.status', '=', 'on_hold'), eb('bookings.hold_expires_at', '>', now)]);
  return eb('bookings.status', '=', status);
}

/**
 * The reference, the customer's name or e-mail, the payment reference (a partner's, or the shop's payment),
 * or a reference of any payment of the booking (its own, those allocated to it, its basket's: Stripe's pi_...
 * and cs_...). The payments' rows are read here, in the one query of the list, for that one question.
 */
function matchesSearch(pattern: string) {
  const like = (column: ReturnType<typeof sql.ref>) => sql<boolean>`lower(${column}) LIKE ${pattern} ESCAPE '\\'`;
  const fullName = sql`${sql.ref('bookings.customer_first_name')} || ' ' || ${sql.ref('bookings.customer_last_name')}`;
  const paidWith = sql<boolean>`EXISTS (
    SELECT 1 FROM payments p
    WHERE p.operator_id = bookings.operator_id
      AND (p.booking_id = bookings.id
        OR p.id IN (SELECT a.payment_id FROM payment_allocations a WHERE a.booking_id = bookings.id)
        OR p.basket_id IN (SELECT bi.basket_id FROM basket_items bi WHERE bi.booking_id = bookings.id))
      AND (lower(p.provider_reference) LIKE ${pattern} ESCAPE '\\' OR lower(p.checkout_session_id) LIKE ${pattern} ESCAPE '\\'))`;
  return (eb: RecordScope) =>
    eb.or([
      like(sql.ref('bookings.reference')),
      sql<boolean>`lower(${fullName}) LIKE ${pattern} ESCAPE '\\'`,
      like(sql.ref('bookings.customer_email')),
      like(sql.ref('bookings.payment_reference')),
      paidWith,
    ]);
}

/** The operator's bookings of every source, by the timeslot's date and time, then when they were made. */
export async function listBookings(db: Kysely<Database>, operatorId: number, filter: BookingFilter, now: UnixSeconds): Promise<BookingRecord[]> {
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

/** The customer, language and payment-reference columns a channel may change after booking (OCTo confirm and update). */
export type BookingDetails = Partial<
  Pick<BookingTable, 'customer_first_name' | 'customer_last_name' | 'customer_email' | 'customer_phone' | 'payment_reference'> & {
    locale: string;
  }
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

// ---- check-in at the door (checkin.ts): booking_checkins ----

export type BookingCheckinRow = Selectable<BookingCheckinTable>;

/** The check-in rows of these bookings (one query), by booking. */
export async function checkinsOf(db: Kysely<Database>, bookingIds: number[]): Promise<Map<number, BookingCheckinRow[]>> {
  const byBooking = new Map<number, BookingCheckinRow[]>(bookingIds.map((id) => [id, []]));
  if (bookingIds.length === 0) return byBooking;
  const rows = await db.selectFrom('booking_checkins').selectAll().where('booking_id', 'in', bookingIds).execute();
  for (const row of rows) byBooking.get(Number(row.booking_id))?.push(row);
  return byBooking;
}

/** The booking's status as it is now (the effective one needs the hold's expiry too). */
export async function currentStatus(db: Kysely<Database>, bookingId: number): Promise<Pick<BookingRow, 'status' | 'hold_expires_at'> | undefined> {
  return db.selectFrom('bookings').select(['status', 'hold_expires_at']).where('id', '=', bookingId).executeTakeFirst();
}

/** Sets one ticket line's check-in count; 0 deletes the line's row (the first check-in's time stays while it is above 0). */
export async function setCheckinCount(
  tx: Tx,
  line: { bookingId: number; ticketTypeId: number; operatorId: number },
  count: number,
  nowMs: UnixMillis,
): Promise<void> {
  if (count === 0) {
    await tx.deleteFrom('booking_checkins').where('booking_id', '=', line.bookingId).where('ticket_type_id', '=', line.ticketTypeId).execute();
    return;
  }
  await tx
    .insertInto('booking_checkins')
    .values({ booking_id: line.bookingId, ticket_type_id: line.ticketTypeId, operator_id: line.operatorId, checked_in: count, checked_in_at: nowMs })
    .onConflict((oc) => oc.columns(['booking_id', 'ticket_type_id']).doUpdateSet({ checked_in: count }))
    .execute();
}

/** A booking as a staff digest lists it. */
export interface BookingForDigest {
  reference: string;
  status: string;
  source: string;
  partner: string | null;
  participants: number;
  date: string;
  time: string;
  activity_name: string;
}

/**
 * A published read for the staff's daily digest (notices/digest.ts): the operator's bookings made within
 * [since, until) that are confirmed now, and those cancelled within it, by date and time of their visit.
 */
export async function bookingsForDigest(db: Kysely<Database>, operatorId: number, since: UnixMillis, until: UnixMillis): Promise<BookingForDigest[]> {
  return db
    .selectFrom('bookings')
    .innerJoin('timeslots', 'timeslots.id', 'bookings.timeslot_id')
    .innerJoin('activities', 'activities.id', 'timeslots.activity_id')
    .select([
      'bookings.reference',
      'bookings.status',
      'bookings.source',
      'bookings.partner',
      'bookings.participants',
      'timeslots.date',
      'timeslots.time',
      'activities.name as activity_name',
    ])
    .where('bookings.operator_id', '=', operatorId)
    .where((eb) =>
      eb.or([
        eb.and([eb('bookings.status', '=', 'confirmed'), eb('bookings.created_at', '>=', since), eb('bookings.created_at', '<', until)]),
        eb.and([eb('bookings.status', '=', 'cancelled'), eb('bookings.cancelled_at', '>=', since), eb('bookings.cancelled_at', '<', until)]),
      ]),
    )
    .orderBy('timeslots.starts_at')
    .orderBy('bookings.id')
    .limit(1000)
    .execute();
}

/** The operator's bookings by ID, as the API shows them (with their timeslot and activity), in ID order. */
export async function findBookingRecords(db: Kysely<Database>, operatorId: number, bookingIds: number[]): Promise<BookingRecord[]> {
  if (bookingIds.length === 0) return [];
  return selectRecords(db).where('bookings.operator_id', '=', operatorId).where('bookings.id', 'in', bookingIds).orderBy('bookings.id').execute();
}

/**
 * Holds now, for the metrics: live ones, and lapsed ones whose seats no writer has given back yet (the next
 * write on their timeslot, or the webhook dispatcher's sweep, does). Index bookings_live_holds.
 */
export async function holdCounts(db: Kysely<Database>, now: UnixSeconds): Promise<{ live: number; lapsed: number }> {
  const row = await db
    .selectFrom('bookings')
    .select((eb) => [
      eb.fn.sum<number>(eb.case().when('hold_expires_at', '>', now).then(1).else(0).end()).as('live'),
      eb.fn.countAll<number>().as('all'),
    ])
    .where('status', '=', 'on_hold')
    .executeTakeFirstOrThrow();
  const live = Number(row.live ?? 0);
  return { live, lapsed: Number(row.all) - live };
}
