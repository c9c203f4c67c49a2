// SQL of what bookings paid: their share of their basket's payment, their own payments (the desk's, a
// balance's) and their refunds, summed per booking with one query per source over indexed columns
// (basket_items.booking_id, payments(basket_id), payments(booking_id, status), refunds(operator_id,
// booking_id), booking_tickets' key). What the sums mean is payments/booking-money.ts's owedFrom.
import type { Kysely } from 'kysely';
import type { Tx } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import type { MoneySums } from '../payments/booking-money.js';
import { effectiveStatus } from '../bookings/view.js';

/** Parameters per statement: well under SQLite's and PostgreSQL's limits. */
const CHUNK = 500;

async function sumsOfChunk(db: Kysely<Database>, operatorId: number, ids: number[], now: number, into: Map<number, MoneySums>) {
  const bookings = await db
    .selectFrom('bookings')
    .select(['id', 'source', 'status', 'hold_expires_at'])
    .where('operator_id', '=', operatorId)
    .where('id', 'in', ids)
    .execute();
  if (bookings.length === 0) return;
  const mine = bookings.map((booking) => booking.id);
  const totals = await db
    .selectFrom('booking_tickets')
    .select((eb) => ['booking_id', eb.fn.sum<number>(eb('quantity', '*', eb.ref('unit_price'))).as('total'), eb.fn.max('currency').as('currency')])
    .where('booking_id', 'in', mine)
    .groupBy('booking_id')
    .execute();
  const paidBaskets = await db
    .selectFrom('basket_items')
    .innerJoin('payments', 'payments.basket_id', 'basket_items.basket_id')
    .select(['basket_items.booking_id', 'basket_items.deposit', 'basket_items.charged'])
    .where('basket_items.booking_id', 'in', mine)
    .where('payments.status', '=', 'succeeded')
    .execute();
  const own = await db
    .selectFrom('payments')
    .select((eb) => ['booking_id', eb.fn.sum<number>('amount').as('paid')])
    .where('booking_id', 'in', mine)
    .where('status', '=', 'succeeded')
    .groupBy('booking_id')
    .execute();
  const refunds = await db
    .selectFrom('refunds')
    .select((eb) => ['booking_id', eb.fn.sum<number>('amount').as('refunded')])
    .where('operator_id', '=', operatorId)
    .where('booking_id', 'in', mine)
    .where('status', '=', 'succeeded')
    .groupBy('booking_id')
    .execute();
  const totalOf = new Map(totals.map((row) => [Number(row.booking_id), { total: Number(row.total), currency: String(row.currency) }]));
  // A paid basket paid what it charged for each booking (migration 036); an older item its deposit, or its whole price.
  const paidOnline = new Map(paidBaskets.map((row) => [Number(row.booking_id), row.charged ?? row.deposit ?? null]));
  const ownOf = new Map(own.map((row) => [Number(row.booking_id), Number(row.paid)]));
  const refundedOf = new Map(refunds.map((row) => [Number(row.booking_id), Number(row.refunded)]));
  for (const booking of bookings) {
    const price = totalOf.get(booking.id) ?? { total: 0, currency: '' };
    into.set(booking.id, {
      source: booking.source,
      status: effectiveStatus(booking, now),
      total: price.total,
      currency: price.currency,
      paidOnline: paidOnline.has(booking.id) ? Number(paidOnline.get(booking.id) ?? price.total) : 0,
      paidOwn: ownOf.get(booking.id) ?? 0,
      refunded: refundedOf.get(booking.id) ?? 0,
    });
  }
}

/** The money sums of these bookings of the operator, by booking id. */
export async function moneySums(db: Kysely<Database>, operatorId: number, bookingIds: number[], now: number): Promise<Map<number, MoneySums>> {
  const sums = new Map<number, MoneySums>();
  const unique = [...new Set(bookingIds)];
  for (let start = 0; start < unique.length; start += CHUNK) {
    await sumsOfChunk(db, operatorId, unique.slice(start, start + CHUNK), now, sums);
  }
  return sums;
}

/**
 * Bookings whose balance link is due: sold with a deposit (basket_items.deposit, its partial index),
 * confirmed, of an activity with BalanceDueDays, starting within that many days and not yet started,
 * never handled before (balance_requests). Oldest start first.
 */
export async function balanceLinkCandidates(db: Kysely<Database>, now: number, limit: number) {
  return db
    .selectFrom('basket_items')
    .innerJoin('bookings', 'bookings.id', 'basket_items.booking_id')
    .innerJoin('timeslots', 'timeslots.id', 'bookings.timeslot_id')
    .innerJoin('activities', 'activities.id', 'timeslots.activity_id')
    .leftJoin('balance_requests', 'balance_requests.booking_id', 'bookings.id')
    .select([
      'bookings.id as booking_id',
      'bookings.operator_id',
      'bookings.reference',
      'bookings.customer_email',
      'activities.name as activity_name',
      'timeslots.date',
      'timeslots.time',
    ])
    .where('basket_items.deposit', 'is not', null)
    .where('bookings.status', '=', 'confirmed')
    .where('activities.balance_due_days', 'is not', null)
    .where('balance_requests.booking_id', 'is', null)
    .where('timeslots.starts_at', '>', now)
    .where((eb) => eb('timeslots.starts_at', '<=', eb(eb.val(now), '+', eb('activities.balance_due_days', '*', eb.val(86_400)))))
    .orderBy('timeslots.starts_at')
    .limit(limit)
    .execute();
}

/** Marks the booking's balance link handled; false when it was before (another process, an earlier run). */
export async function recordBalanceRequest(tx: Tx, operatorId: number, bookingId: number): Promise<boolean> {
  const inserted = await tx
    .insertInto('balance_requests')
    .values({ booking_id: bookingId, operator_id: operatorId, emailed_at: Date.now() })
    .onConflict((oc) => oc.column('booking_id').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
}
