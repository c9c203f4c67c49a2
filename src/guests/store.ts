// What slotbook holds about one guest of one operator, found by the e-mail address in any case (the
// indexes of migration 041), and the statements that erase it: personal fields overwritten with
// placeholders, waiver answers and uploaded files deleted, queued e-mails withdrawn; payments, refunds and
// disputes untouched (docs/privacy.md). Every statement is scoped to the operator: another operator's guest
// with the same address is never read or written.
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Tx } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import type { EmailRow } from '../emails/index.js';
import type { PaymentRow, RefundRow } from '../payments/index.js';
import { toSeconds, type UnixMillis, type UnixSeconds } from '../lib/clock.js';

/** What an erased row's contact fields become: an address that can never be delivered to (RFC 2606). */
export const ERASED = { firstName: 'Erased', lastName: 'guest', email: 'erased@erased.invalid', phone: '' } as const;

const byAddress = (column: string, email: string) => sql<SqlBool>`lower(${sql.ref(column)}) = ${email.toLowerCase()}`;

export interface GuestRows {
  bookingIds: number[];
  waitlistEntryIds: number[];
  basketIds: number[];
}

/** The guest's bookings, waitlist places and baskets with this operator. */
export async function findGuestRows(db: Kysely<Database>, operatorId: number, email: string): Promise<GuestRows> {
  const [bookings, entries, baskets] = await Promise.all([
    db.selectFrom('bookings').select('id').where('operator_id', '=', operatorId).where(byAddress('customer_email', email)).orderBy('id').execute(),
    db
      .selectFrom('waitlist_entries')
      .select('id')
      .where('operator_id', '=', operatorId)
      .where(byAddress('customer_email', email))
      .orderBy('id')
      .execute(),
    db.selectFrom('baskets').select('id').where('operator_id', '=', operatorId).where(byAddress('customer_email', email)).orderBy('id').execute(),
  ]);
  return { bookingIds: bookings.map((r) => r.id), waitlistEntryIds: entries.map((r) => r.id), basketIds: baskets.map((r) => r.id) };
}

/** The guest's bookings that still hold seats of a timeslot not yet over (Unix seconds `now`). */
export async function liveUpcomingReferences(db: Kysely<Database>, bookingIds: number[], now: UnixSeconds): Promise<string[]> {
  if (bookingIds.length === 0) return [];
  const rows = await db
    .selectFrom('bookings')
    .innerJoin('timeslots', 'timeslots.id', 'bookings.timeslot_id')
    .select('bookings.reference')
    .where('bookings.id', 'in', bookingIds)
    .where('timeslots.ends_at', '>', now)
    .where((eb) =>
      eb.or([eb('bookings.status', '=', 'confirmed'), eb.and([eb('bookings.status', '=', 'on_hold'), eb('bookings.hold_expires_at', '>', now)])]),
    )
    .orderBy('bookings.id')
    .execute();
  return rows.map((row) => row.reference);
}

export interface GuestWaitlistRow {
  id: number;
  status: string;
  participants: number;
  created_at: UnixMillis;
  date: string;
  time: string;
  activity_public_id: string;
  activity_name: string;
}

export async function waitlistEntriesOf(db: Kysely<Database>, ids: number[]): Promise<GuestWaitlistRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('waitlist_entries')
    .innerJoin('timeslots', 'timeslots.id', 'waitlist_entries.timeslot_id')
    .innerJoin('activities', 'activities.id', 'timeslots.activity_id')
    .select([
      'waitlist_entries.id',
      'waitlist_entries.status',
      'waitlist_entries.participants',
      'waitlist_entries.created_at',
      'timeslots.date',
      'timeslots.time',
      'activities.public_id as activity_public_id',
      'activities.name as activity_name',
    ])
    .where('waitlist_entries.id', 'in', ids)
    .orderBy('waitlist_entries.id')
    .execute();
}

/** The e-mails written to the guest: about their bookings or waitlist places, or to their address (never staff's). */
export async function emailsOf(
  db: Kysely<Database>,
  operatorId: number,
  email: string,
  rows: GuestRows,
): Promise<(EmailRow & { booking_reference: string | null })[]> {
  return db
    .selectFrom('emails')
    .leftJoin('bookings', 'bookings.id', 'emails.booking_id')
    .selectAll('emails')
    .select('bookings.reference as booking_reference')
    .where('emails.operator_id', '=', operatorId)
    .where('emails.kind', '!=', 'staff')
    .where((eb) => {
      const matches: Expression<SqlBool>[] = [byAddress('emails.to_address', email)];
      if (rows.bookingIds.length > 0) matches.push(eb('emails.booking_id', 'in', rows.bookingIds));
      if (rows.waitlistEntryIds.length > 0) matches.push(eb('emails.waitlist_entry_id', 'in', rows.waitlistEntryIds));
      return eb.or(matches);
    })
    .orderBy('emails.id')
    .execute();
}

/** The payments of the guest's bookings and baskets, and their refunds. */
export async function paymentsOf(
  db: Kysely<Database>,
  operatorId: number,
  rows: GuestRows,
): Promise<{ payments: PaymentRow[]; refunds: RefundRow[] }> {
  if (rows.bookingIds.length === 0 && rows.basketIds.length === 0) return { payments: [], refunds: [] };
  const payments = await db
    .selectFrom('payments')
    .selectAll()
    .where('operator_id', '=', operatorId)
    .where((eb) => {
      const matches = [];
      if (rows.bookingIds.length > 0) {
        matches.push(eb('booking_id', 'in', rows.bookingIds));
        matches.push(eb('id', 'in', eb.selectFrom('payment_allocations').select('payment_id').where('booking_id', 'in', rows.bookingIds)));
      }
      if (rows.basketIds.length > 0) matches.push(eb('basket_id', 'in', rows.basketIds));
      return eb.or(matches);
    })
    .orderBy('id')
    .execute();
  if (payments.length === 0) return { payments, refunds: [] };
  const refunds = await db
    .selectFrom('refunds')
    .selectAll()
    .where('operator_id', '=', operatorId)
    .where(
      'payment_id',
      'in',
      payments.map((p) => p.id),
    )
    .orderBy('id')
    .execute();
  return { payments, refunds };
}

/** The booking IDs that paid a payment, from its allocations (a basket's payment pays several). */
export async function allocatedBookings(db: Kysely<Database>, paymentIds: number[]): Promise<Map<number, number[]>> {
  const found = new Map<number, number[]>();
  if (paymentIds.length === 0) return found;
  const rows = await db.selectFrom('payment_allocations').select(['payment_id', 'booking_id']).where('payment_id', 'in', paymentIds).execute();
  for (const row of rows) found.set(row.payment_id, [...(found.get(row.payment_id) ?? []), row.booking_id]);
  return found;
}

/** The uploaded files of the guest: named by their bookings' answers, uploaded through a booking's link or their basket. */
export async function uploadsOf(
  db: Kysely<Database>,
  operatorId: number,
  rows: GuestRows,
): Promise<{ id: number; public_id: string; content_type: string; size: number; created_at: UnixMillis; booking_id: number | null }[]> {
  if (rows.bookingIds.length === 0 && rows.basketIds.length === 0) return [];
  return db
    .selectFrom('uploads')
    .select(['id', 'public_id', 'content_type', 'size', 'created_at', 'booking_id'])
    .where('operator_id', '=', operatorId)
    .where((eb) => {
      const matches = [];
      if (rows.bookingIds.length > 0) {
        matches.push(eb('booking_id', 'in', rows.bookingIds));
        matches.push(eb('public_id', 'in', eb.selectFrom('waiver_answers').select('answer').where('booking_id', 'in', rows.bookingIds)));
      }
      if (rows.basketIds.length > 0) matches.push(eb('basket_id', 'in', rows.basketIds));
      return eb.or(matches);
    })
    .orderBy('id')
    .execute();
}

/** Terms acceptances of the bookings (kept: they hold no personal data, and show what the guest agreed to). */
export async function termsAcceptancesOf(db: Kysely<Database>, bookingIds: number[]) {
  if (bookingIds.length === 0) return [];
  return db.selectFrom('booking_terms_acceptances').selectAll().where('booking_id', 'in', bookingIds).execute();
}

// ---- erasure --------------------------------------------------------------------------------------

export interface ErasedCounts {
  bookings: number;
  waitlistEntries: number;
  baskets: number;
  uploads: number;
  answers: number;
  emails: number;
}

/**
 * Erases the guest's personal data in the rows found (all of the operator's): contact fields, channel
 * notes, waiver answers, uploads, e-mails (queued ones withdrawn). `emailIds` and `uploadIds` as read in
 * this transaction.
 */
export async function eraseGuestRows(tx: Tx, operatorId: number, rows: GuestRows, emailIds: number[], uploadIds: number[]): Promise<ErasedCounts> {
  const contact = {
    customer_first_name: ERASED.firstName,
    customer_last_name: ERASED.lastName,
    customer_email: ERASED.email,
    customer_phone: ERASED.phone,
  };
  const counts: ErasedCounts = { bookings: 0, waitlistEntries: 0, baskets: 0, uploads: 0, answers: 0, emails: 0 };
  const { bookingIds, waitlistEntryIds, basketIds } = rows;
  if (uploadIds.length > 0) {
    const deleted = await tx.deleteFrom('uploads').where('operator_id', '=', operatorId).where('id', 'in', uploadIds).executeTakeFirst();
    counts.uploads = Number(deleted.numDeletedRows);
  }
  if (bookingIds.length > 0) {
    const answers = await tx.deleteFrom('waiver_answers').where('booking_id', 'in', bookingIds).executeTakeFirst();
    counts.answers = Number(answers.numDeletedRows);
    const updated = await tx
      .updateTable('bookings')
      .set(contact)
      .where('operator_id', '=', operatorId)
      .where('id', 'in', bookingIds)
      .executeTakeFirst();
    counts.bookings = Number(updated.numUpdatedRows);
    await tx
      .updateTable('octo_bookings')
      .set({ notes: null, contact: '{}' })
      .where('operator_id', '=', operatorId)
      .where('booking_id', 'in', bookingIds)
      .execute();
    await tx.updateTable('gyg_bookings').set({ comment: null }).where('operator_id', '=', operatorId).where('booking_id', 'in', bookingIds).execute();
    await tx.updateTable('viator_bookings').set({ note: null }).where('operator_id', '=', operatorId).where('booking_id', 'in', bookingIds).execute();
  }
  if (waitlistEntryIds.length > 0) {
    // A place still waiting (or unconfirmed) can never be offered to nobody: it is removed.
    await tx
      .updateTable('waitlist_entries')
      .set({ status: 'removed' })
      .where('operator_id', '=', operatorId)
      .where('id', 'in', waitlistEntryIds)
      .where('status', '=', 'waiting')
      .execute();
    const updated = await tx
      .updateTable('waitlist_entries')
      .set({ ...contact, confirm_token_hash: null })
      .where('operator_id', '=', operatorId)
      .where('id', 'in', waitlistEntryIds)
      .executeTakeFirst();
    counts.waitlistEntries = Number(updated.numUpdatedRows);
  }
  if (basketIds.length > 0) {
    const updated = await tx
      .updateTable('baskets')
      .set(contact)
      .where('operator_id', '=', operatorId)
      .where('id', 'in', basketIds)
      .executeTakeFirst();
    counts.baskets = Number(updated.numUpdatedRows);
  }
  if (emailIds.length > 0) {
    await tx
      .updateTable('emails')
      .set({ status: 'cancelled', claimed_by: null, claimed_until: null })
      .where('operator_id', '=', operatorId)
      .where('id', 'in', emailIds)
      .where('status', 'in', ['queued', 'failed'])
      .execute();
    const updated = await tx
      .updateTable('emails')
      .set({ to_address: ERASED.email, subject: '[erased]', body: '', meter_extra_info: null })
      .where('operator_id', '=', operatorId)
      .where('id', 'in', emailIds)
      .executeTakeFirst();
    counts.emails = Number(updated.numUpdatedRows);
  }
  return counts;
}

/** The operator's webhook events about these resources (booking:..., waitlist:..., order:...). */
export async function eventsAbout(tx: Tx, operatorId: number, resources: string[]): Promise<{ id: number; data: string }[]> {
  if (resources.length === 0) return [];
  return tx.selectFrom('webhook_events').select(['id', 'data']).where('operator_id', '=', operatorId).where('resource', 'in', resources).execute();
}

/** The operator's outbox rows not yet dispatched (their events still carry snapshots of the guest's rows). */
export async function pendingOutbox(tx: Tx, operatorId: number): Promise<{ id: number; events: string }[]> {
  return tx.selectFrom('webhook_outbox').select(['id', 'events']).where('operator_id', '=', operatorId).execute();
}

export async function rewriteOutbox(tx: Tx, id: number, events: string): Promise<void> {
  await tx.updateTable('webhook_outbox').set({ events }).where('id', '=', id).execute();
}

export async function rewriteEventData(tx: Tx, id: number, data: string): Promise<void> {
  await tx.updateTable('webhook_events').set({ data }).where('id', '=', id).execute();
}

// ---- retention ------------------------------------------------------------------------------------

/**
 * Up to `limit` guests (operator, address) with no activity since `cutoffMs`: every booking of theirs
 * created and its timeslot ended before it, every waitlist place and basket opened before it. Erased rows
 * (the placeholder address) and walk-ins without an address are left out.
 */
export async function guestsInactiveSince(
  db: Kysely<Database>,
  cutoffMs: UnixMillis,
  limit: number,
): Promise<{ operatorId: number; email: string }[]> {
  const cutoffSeconds = toSeconds(cutoffMs);
  const address = sql<string>`lower(customer_email)`;
  const fromBookings = await db
    .selectFrom('bookings')
    .select(['operator_id', address.as('email')])
    .where('customer_email', '!=', '')
    .where('customer_email', '!=', ERASED.email)
    .where('created_at', '<', cutoffMs)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('bookings as b')
            .innerJoin('timeslots as s', 's.id', 'b.timeslot_id')
            .select('b.id')
            .whereRef('b.operator_id', '=', 'bookings.operator_id')
            .where(sql<boolean>`lower(b.customer_email) = lower(bookings.customer_email)`)
            .where((inner) => inner.or([inner('b.created_at', '>=', cutoffMs), inner('s.ends_at', '>=', cutoffSeconds)])),
        ),
      ),
    )
    .groupBy(['operator_id', address])
    .limit(limit)
    .execute();
  const others = await Promise.all(
    (['waitlist_entries', 'baskets'] as const).map((table) =>
      db
        .selectFrom(table)
        .select(['operator_id', address.as('email')])
        .where('customer_email', '!=', '')
        .where('customer_email', '!=', ERASED.email)
        .groupBy(['operator_id', address])
        .having((eb) => eb(eb.fn.max('created_at'), '<', cutoffMs))
        .limit(limit)
        .execute(),
    ),
  );
  const seen = new Set<string>();
  return [...fromBookings, ...others.flat()]
    .filter((row) => {
      const key = `${row.operator_id} ${row.email}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, limit)
    .map((row) => ({ operatorId: row.operator_id, email: row.email }));
}

/** Whether the guest did anything at or after `cutoffMs` (Unix ms) with this operator: a booking made or still to end, a place or basket opened. */
export async function activeSince(db: Kysely<Database>, operatorId: number, rows: GuestRows, cutoffMs: UnixMillis): Promise<boolean> {
  const cutoffSeconds = toSeconds(cutoffMs);
  if (rows.bookingIds.length > 0) {
    const recent = await db
      .selectFrom('bookings')
      .innerJoin('timeslots', 'timeslots.id', 'bookings.timeslot_id')
      .select('bookings.id')
      .where('bookings.operator_id', '=', operatorId)
      .where('bookings.id', 'in', rows.bookingIds)
      .where((eb) => eb.or([eb('bookings.created_at', '>=', cutoffMs), eb('timeslots.ends_at', '>=', cutoffSeconds)]))
      .executeTakeFirst();
    if (recent) return true;
  }
  if (rows.waitlistEntryIds.length > 0) {
    const recent = await db
      .selectFrom('waitlist_entries')
      .select('id')
      .where('id', 'in', rows.waitlistEntryIds)
      .where('created_at', '>=', cutoffMs)
      .executeTakeFirst();
    if (recent) return true;
  }
  if (rows.basketIds.length > 0) {
    const recent = await db
      .selectFrom('baskets')
      .select('id')
      .where('id', 'in', rows.basketIds)
      .where('created_at', '>=', cutoffMs)
      .executeTakeFirst();
    if (recent) return true;
  }
  return false;
}
