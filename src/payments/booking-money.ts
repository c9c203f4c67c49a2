// What the operator's booking answer says about money, and what bookings owe: read from the ledger
// (payments allocated to each booking and their refunds, ledger-store.ts) and computed by ledger.ts, the one
// definition of paid, refunded, refundable and due.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { unixNow } from '../lib/clock.js';
import type { BookingMoney } from './schemas.js';
import { listBookingDisputes } from './dispute-store.js';
import { bookingFacts, bookingLedgers, bookingPaymentRows } from './ledger-store.js';
import { EMPTY_LEDGER, owedFrom, refundableOf, type BookingFacts, type BookingLedger, type Owed } from './ledger.js';
import { listBookingRefunds } from './store.js';
import { bookingPaymentView, disputeView, refundView } from './view.js';

export type { Owed } from './ledger.js';

/** What each of these bookings owes (bookings of another operator are left out). */
export async function owedOf(db: Kysely<Database>, operatorId: number, bookingIds: number[]): Promise<Map<number, Owed>> {
  const [facts, ledgers] = await Promise.all([bookingFacts(db, operatorId, bookingIds, unixNow()), bookingLedgers(db, operatorId, bookingIds)]);
  return new Map([...facts].map(([id, booking]) => [id, owedFrom(booking, ledgers.get(id) ?? EMPTY_LEDGER)]));
}

/** The booking's ledger: what refunds may still give back, and how they would be split. */
export async function bookingLedger(db: Kysely<Database>, operatorId: number, bookingId: number): Promise<BookingLedger> {
  return (await bookingLedgers(db, operatorId, [bookingId])).get(bookingId) ?? EMPTY_LEDGER;
}

/** The booking's facts and ledger together (what a move's price difference is computed from); undefined for another operator's. */
export async function bookingAccount(
  db: Kysely<Database>,
  operatorId: number,
  bookingId: number,
  now = unixNow(),
): Promise<{ booking: BookingFacts; ledger: BookingLedger } | undefined> {
  const [facts, ledger] = await Promise.all([bookingFacts(db, operatorId, [bookingId], now), bookingLedger(db, operatorId, bookingId)]);
  const booking = facts.get(bookingId);
  return booking && { booking, ledger };
}

/** The booking's payments, refunds, disputes and sums, as the operator's booking answer shows them. */
export async function bookingMoney(db: Kysely<Database>, operatorId: number, bookingId: number, reference: string): Promise<BookingMoney> {
  const [payments, refunds, disputes, ledger, facts] = await Promise.all([
    bookingPaymentRows(db, operatorId, bookingId),
    listBookingRefunds(db, operatorId, bookingId),
    listBookingDisputes(db, operatorId, bookingId),
    bookingLedger(db, operatorId, bookingId),
    bookingFacts(db, operatorId, [bookingId], unixNow()),
  ]);
  const providers = new Map(payments.map((payment) => [payment.id, payment.provider]));
  const booking = facts.get(bookingId);
  const owed = booking ? owedFrom(booking, ledger) : undefined;
  return {
    Payments: payments.map(bookingPaymentView),
    Refunds: refunds.map((refund) => refundView(refund, reference, providers.get(refund.payment_id) ?? 'test')),
    AmountPaid: owed?.AmountPaid ?? 0,
    AmountRefunded: owed?.AmountRefunded ?? 0,
    AmountRefundable: refundableOf(ledger),
    AmountDue: owed?.AmountDue ?? 0,
    PaymentState: owed?.PaymentState ?? 'unpaid',
    Disputes: disputes.map(disputeView),
  };
}
