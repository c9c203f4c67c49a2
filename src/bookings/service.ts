import type { Kysely } from 'kysely';
import type { Db, Tx } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { NotFound, ValidationFailed } from '../http/errors.js';
import type { ActivityRow } from '../catalog/index.js';
import { unixNow, type UnixSeconds } from '../lib/clock.js';
import { placeBooking } from './lifecycle/place.js';
import { prepareDraft, type BookingDraft, type BookingOrigin } from './lifecycle/draft.js';
import type { BookingRequest } from './request-draft.js';
import { cancel, confirm, type Caller } from './lifecycle/commands.js';
import { isOverAlready, orThrow, refusalProblem } from './lifecycle/refusals.js';
import { findBooking, listBookings, type BookableTimeslot, type BookingRecord, type BookingRow } from './store.js';
import { toBooking } from './view.js';
import { bookingTicketsOf } from '../catalog/index.js';
import { PAYMENT_STATE_WINDOW, type AdminBookingListItem, type Booking, type BookingListQuery } from './schemas.js';
import { owedOf, type Owed } from '../payments/booking-money.js';

export type { BookingRequest } from './request-draft.js';
export type { BookingOrigin } from './lifecycle/draft.js';

function record(row: BookingRow, activity: ActivityRow, timeslot: BookableTimeslot): BookingRecord {
  return {
    ...row,
    activity_public_id: activity.public_id,
    timezone: activity.timezone,
    date: timeslot.date,
    time: timeslot.time,
    starts_at: timeslot.starts_at,
  };
}

/**
 * The group (Db.writeGrouped) of a booking request: the bookings of one timeslot queue for its one row
 * lock (PostgreSQL) anyway, so they may as well share a transaction and its commit.
 */
export function timeslotGroup(operatorId: number, request: Pick<BookingRequest, 'ActivityID' | 'Date' | 'Time'>): string {
  return JSON.stringify(['booking', operatorId, request.ActivityID, request.Date, request.Time]);
}

/**
 * Creates a booking of the draft inside the caller's write transaction: confirmed, or on hold for the
 * draft's holdMinutes when given. The partner API and the desk book through this.
 */
export async function bookTimeslot(tx: Tx, origin: BookingOrigin, draft: BookingDraft): Promise<Booking> {
  const now = unixNow();
  const { placement, activity } = await prepareDraft(tx, origin, draft, now);
  const row = await placeBooking(tx, placement, now);
  return toBooking(record(row, activity, placement.timeslot), (await bookingTicketsOf(tx, [row.id])).get(row.id) ?? [], now);
}

async function requireBooking(db: Kysely<Database>, operatorId: number, reference: string, partner?: string): Promise<BookingRecord> {
  const found = await findBooking(db, operatorId, reference, partner);
  if (!found) throw new NotFound(`No booking ${reference}`);
  return found;
}

/** A booking of the operator; with `partner`, only one that marketplace made. */
export async function getBooking(db: Kysely<Database>, operatorId: number, reference: string, partner?: string): Promise<Booking> {
  const [booking] = await withTickets(db, [await requireBooking(db, operatorId, reference, partner)], unixNow());
  return booking!;
}

/** The bookings as the API shows them, their tickets read in one query. */
export async function withTickets(db: Kysely<Database>, records: BookingRecord[], now: UnixSeconds): Promise<Booking[]> {
  const tickets = await bookingTicketsOf(
    db,
    records.map((row) => row.id),
  );
  return records.map((row) => toBooking(row, tickets.get(row.id) ?? [], now));
}

/**
 * Cancels the operator's booking (with `partner`, only that marketplace's own) as `caller`, within the
 * policy, and answers it. A booking cancelled or expired already changes nothing and answers as it is;
 * another refusal is the default problem (409).
 */
export async function cancelBooking(db: Db, operatorId: number, reference: string, caller: Caller, partner?: string): Promise<Booking> {
  const booking = await requireBooking(db.kysely, operatorId, reference, partner);
  const outcome = await db.write((tx) => cancel(tx, booking, caller, unixNow()));
  if (!outcome.ok && !isOverAlready(outcome.refusal)) throw refusalProblem(outcome.refusal);
  return getBooking(db.kysely, operatorId, reference, partner);
}

/**
 * Confirms a booking on hold while its hold is live. A confirmed booking answers unchanged; an expired
 * hold or a cancelled booking cannot be confirmed (409): its seats may already be someone else's. The
 * refusal is thrown after the commit, so that the release of lapsed holds is kept.
 */
export async function confirmBooking(db: Db, operatorId: number, reference: string, partner?: string): Promise<Booking> {
  const booking = await requireBooking(db.kysely, operatorId, reference, partner);
  orThrow(await db.write((tx) => confirm(tx, booking, unixNow())));
  return getBooking(db.kysely, operatorId, reference, partner);
}

/** Operator: bookings of every source, filtered and paged, each with its payment state and amount due. */
export async function listOperatorBookings(db: Kysely<Database>, operatorId: number, query: BookingListQuery): Promise<AdminBookingListItem[]> {
  if (query.From !== undefined && query.To !== undefined && query.To < query.From) {
    throw ValidationFailed.field('To', 'To must not be before From');
  }
  const now = unixNow();
  const filter = {
    from: query.From,
    to: query.To,
    source: query.Source,
    activityId: query.ActivityID,
    status: query.Status,
    search: query.Search,
    limit: query.Limit,
    offset: query.Offset,
  };
  let rows: BookingRecord[];
  let owed: Map<number, Owed>;
  if (query.PaymentState === undefined) {
    rows = await listBookings(db, operatorId, filter, now);
    owed = await owedOf(
      db,
      operatorId,
      rows.map((row) => row.id),
    );
  } else {
    // A booking's payment state is computed from its payments (payments/booking-money.ts), so the filter
    // reads the bookings the other filters keep, at most PAYMENT_STATE_WINDOW of them, and their money
    // sums in a few indexed queries, then pages what is left.
    const window = await listBookings(db, operatorId, { ...filter, limit: PAYMENT_STATE_WINDOW + 1, offset: 0 }, now);
    if (window.length > PAYMENT_STATE_WINDOW)
      throw ValidationFailed.field(
        'PaymentState',
        `PaymentState looks at most ${PAYMENT_STATE_WINDOW} bookings and more match the other filters: narrow From and To (or add Status, Source or ActivityID)`,
      );
    owed = await owedOf(
      db,
      operatorId,
      window.map((row) => row.id),
    );
    rows = window.filter((row) => owed.get(row.id)?.PaymentState === query.PaymentState).slice(query.Offset, query.Offset + query.Limit);
  }
  const bookings = await withTickets(db, rows, now);
  return bookings.map((booking, index) => {
    const money = owed.get(rows[index]!.id);
    return { ...booking, PaymentState: money?.PaymentState ?? 'unpaid', AmountDue: money?.AmountDue ?? 0 };
  });
}
