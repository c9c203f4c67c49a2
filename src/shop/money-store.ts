// SQL of what bookings paid: their share of their basket's payment, their own payments (the desk's, a
// balance's) and their refunds, summed per booking with one query per source over indexed columns
// (basket_items.booking_id, payments(basket_id), payments(booking_id, status), refunds(operator_id,
// booking_id), booking_tickets' key). What the sums mean is payments/booking-money.ts's owedFrom.
import type { Kysely } from 'kysely';
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
    .select('basket_items.booking_id')
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
  const paidOnline = new Set(paidBaskets.map((row) => Number(row.booking_id)));
  const ownOf = new Map(own.map((row) => [Number(row.booking_id), Number(row.paid)]));
  const refundedOf = new Map(refunds.map((row) => [Number(row.booking_id), Number(row.refunded)]));
  for (const booking of bookings) {
    const price = totalOf.get(booking.id) ?? { total: 0, currency: '' };
    into.set(booking.id, {
      source: booking.source,
      status: effectiveStatus(booking, now),
      total: price.total,
      currency: price.currency,
      paidOnline: paidOnline.has(booking.id) ? price.total : 0,
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
