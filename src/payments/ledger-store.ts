// SQL of the bookings' ledgers (ledger.ts says what they mean): the payments allocated to each booking with
// what was refunded of them, and the booking's own facts that what it owes depends on (source, status,
// tickets' price). The facts are the bookings domain's rows, read here in the same few statements rather than
// through an import (bookings import this domain): one query per source over indexed columns
// (payment_allocations(booking_id), refunds(payment_id), booking_tickets' key), in chunks.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { EMPTY_LEDGER, type BookingFacts, type BookingLedger, type LedgerLine } from './ledger.js';
import type { UnixSeconds } from '../lib/clock.js';

/** Parameters per statement: well under SQLite's and PostgreSQL's limits. */
const CHUNK = 500;

/** A refund counts from the moment it is recorded until it fails. */
const COUNTING = ['pending', 'succeeded'] as const;

async function chunked<T>(ids: number[], read: (chunk: number[]) => Promise<Map<number, T>>): Promise<Map<number, T>> {
  const unique = [...new Set(ids)];
  if (unique.length <= CHUNK) return read(unique);
  const all = new Map<number, T>();
  for (let start = 0; start < unique.length; start += CHUNK)
    for (const [id, value] of await read(unique.slice(start, start + CHUNK))) all.set(id, value);
  return all;
}

/** The ledgers of these bookings of the operator; a booking nothing paid has an empty one. */
export function bookingLedgers(db: Kysely<Database>, operatorId: number, bookingIds: number[]): Promise<Map<number, BookingLedger>> {
  return chunked(bookingIds, (ids) => ledgersOfChunk(db, operatorId, ids));
}

async function ledgersOfChunk(db: Kysely<Database>, operatorId: number, ids: number[]): Promise<Map<number, BookingLedger>> {
  const ledgers = new Map<number, BookingLedger>();
  if (ids.length === 0) return ledgers;
  const allocations = await db
    .selectFrom('payment_allocations')
    .innerJoin('payments', 'payments.id', 'payment_allocations.payment_id')
    .select([
      'payment_allocations.booking_id',
      'payment_allocations.amount',
      'payments.id',
      'payments.provider',
      'payments.currency',
      'payments.amount as payment_amount',
    ])
    .where('payment_allocations.operator_id', '=', operatorId)
    .where('payment_allocations.booking_id', 'in', ids)
    .where('payments.status', '=', 'succeeded')
    .orderBy('payments.id')
    .execute();
  const paymentIds = [...new Set(allocations.map((row) => row.id))];
  const refunds =
    paymentIds.length === 0
      ? []
      : await db
          .selectFrom('refunds')
          .select(['payment_id', 'booking_id', 'amount', 'reason'])
          .where('payment_id', 'in', paymentIds)
          .where('status', 'in', COUNTING)
          .execute();
  const ofPayment = new Map<number, number>();
  const ofLine = new Map<string, number>();
  for (const refund of refunds) {
    const amount = Number(refund.amount);
    ofPayment.set(refund.payment_id, (ofPayment.get(refund.payment_id) ?? 0) + amount);
    const key = `${refund.payment_id}:${refund.booking_id}`;
    ofLine.set(key, (ofLine.get(key) ?? 0) + amount);
  }
  for (const row of allocations) {
    const ledger = ledgers.get(row.booking_id) ?? { lines: [], refunded: 0, refundedForPrice: 0 };
    const line: LedgerLine = {
      paymentId: row.id,
      provider: row.provider,
      currency: row.currency,
      allocated: Number(row.amount),
      refunded: ofLine.get(`${row.id}:${row.booking_id}`) ?? 0,
      paymentAmount: Number(row.payment_amount),
      paymentRefunded: ofPayment.get(row.id) ?? 0,
    };
    ledger.lines.push(line);
    ledger.refunded += line.refunded;
    ledgers.set(row.booking_id, ledger);
  }
  for (const refund of refunds) {
    if (refund.reason !== 'price-difference') continue;
    const ledger = ledgers.get(refund.booking_id);
    if (ledger) ledger.refundedForPrice += Number(refund.amount);
  }
  for (const id of ids) if (!ledgers.has(id)) ledgers.set(id, EMPTY_LEDGER);
  return ledgers;
}

/** The facts of these bookings of the operator that what they owe depends on; another operator's are left out. */
export function bookingFacts(db: Kysely<Database>, operatorId: number, bookingIds: number[], now: UnixSeconds): Promise<Map<number, BookingFacts>> {
  return chunked(bookingIds, (ids) => factsOfChunk(db, operatorId, ids, now));
}

async function factsOfChunk(db: Kysely<Database>, operatorId: number, ids: number[], now: UnixSeconds): Promise<Map<number, BookingFacts>> {
  const facts = new Map<number, BookingFacts>();
  if (ids.length === 0) return facts;
  const bookings = await db
    .selectFrom('bookings')
    .select(['id', 'source', 'status', 'hold_expires_at'])
    .where('operator_id', '=', operatorId)
    .where('id', 'in', ids)
    .execute();
  if (bookings.length === 0) return facts;
  const totals = await db
    .selectFrom('booking_tickets')
    .select((eb) => ['booking_id', eb.fn.sum<number>(eb('quantity', '*', eb.ref('unit_price'))).as('total'), eb.fn.max('currency').as('currency')])
    .where(
      'booking_id',
      'in',
      bookings.map((booking) => booking.id),
    )
    .groupBy('booking_id')
    .execute();
  const totalOf = new Map(totals.map((row) => [Number(row.booking_id), { total: Number(row.total), currency: String(row.currency) }]));
  for (const booking of bookings) {
    const price = totalOf.get(booking.id) ?? { total: 0, currency: '' };
    // A hold whose time passed counts as expired, whether or not its row was released yet.
    const lapsed = booking.status === 'on_hold' && booking.hold_expires_at !== null && Number(booking.hold_expires_at) <= now;
    facts.set(booking.id, { source: booking.source, status: lapsed ? 'expired' : booking.status, total: price.total, currency: price.currency });
  }
  return facts;
}

/**
 * The bookings a payment paid (its allocations), oldest booking first, with each activity's time zone (a
 * deadline is told in it): for the webhook events' booking references and the bookings a dispute flags.
 * The bookings' and activities' rows are read here for the same reason as the facts above.
 */
export async function paidBookings(db: Kysely<Database>, paymentId: number): Promise<{ id: number; reference: string; timezone: string }[]> {
  return db
    .selectFrom('payment_allocations')
    .innerJoin('bookings', 'bookings.id', 'payment_allocations.booking_id')
    .innerJoin('timeslots', 'timeslots.id', 'bookings.timeslot_id')
    .innerJoin('activities', 'activities.id', 'timeslots.activity_id')
    .select(['bookings.id', 'bookings.reference', 'activities.timezone'])
    .where('payment_allocations.payment_id', '=', paymentId)
    .orderBy('bookings.id')
    .execute();
}

/**
 * The payments shown with a booking, oldest first: those allocated to it, its own (a desk invoice still open,
 * a balance session), and its basket's payments that were refunded whole because they could not be honoured
 * (the basket's rows are the shop's, read here for that one question).
 */
export async function bookingPaymentRows(db: Kysely<Database>, operatorId: number, bookingId: number) {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('operator_id', '=', operatorId)
    .where((eb) =>
      eb.or([
        eb('booking_id', '=', bookingId),
        eb('id', 'in', eb.selectFrom('payment_allocations').select('payment_id').where('booking_id', '=', bookingId)),
        eb.and([
          eb('status', 'in', ['refunding', 'refunded']),
          eb('basket_id', 'in', eb.selectFrom('basket_items').select('basket_id').where('booking_id', '=', bookingId)),
        ]),
      ]),
    )
    .orderBy('id')
    .execute();
}

/**
 * The booking a refund is for, by its reference or id, with what a guest's refund is decided by: its
 * timeslot's start and its activity's refund rules (as stored). Undefined for another operator's.
 */
export function refundSubject(db: Kysely<Database>, operatorId: number, by: { reference: string } | { id: number }) {
  return db
    .selectFrom('bookings')
    .innerJoin('timeslots', 'timeslots.id', 'bookings.timeslot_id')
    .innerJoin('activities', 'activities.id', 'timeslots.activity_id')
    .select(['bookings.id', 'bookings.reference', 'timeslots.starts_at', 'activities.guest_refund_rules'])
    .where('bookings.operator_id', '=', operatorId)
    .$call((query) => ('reference' in by ? query.where('bookings.reference', '=', by.reference) : query.where('bookings.id', '=', by.id)))
    .executeTakeFirst();
}
