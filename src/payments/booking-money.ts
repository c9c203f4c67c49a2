// What a booking paid, got back and still owes. Which payment paid a booking is the shop's to know (its
// baskets), and the shop imports the bookings domain; so the shop provides the sums here, wired by the
// composition (src/reactions.ts), and the bookings domain, the manifests and the desk ask. What the sums
// mean (AmountDue, PaymentState) is decided in ONE place: `owedFrom` below (docs/payments.md).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { BookingMoney, PaymentState } from './schemas.js';
import { listBookingDisputes } from './dispute-store.js';
import { disputeView } from './view.js';

/** What the shop tells; the disputes are this domain's own (dispute-store.ts). */
type ProvidedMoney = Omit<BookingMoney, 'Disputes'>;

export type BookingMoneyReader = (db: Kysely<Database>, operatorId: number, bookingId: number, reference: string) => Promise<ProvidedMoney>;

/** The money of one booking as stored: what `owedFrom` makes AmountDue and PaymentState of. */
export interface MoneySums {
  source: string;
  /** The effective status (a lapsed hold is expired). */
  status: string;
  /** The tickets' price together, minor units. */
  total: number;
  currency: string;
  /** Its share of its basket's succeeded payment (its tickets, or its deposit), 0 when none. */
  paidOnline: number;
  /** Its own succeeded payments (the desk's, a balance's). */
  paidOwn: number;
  /** Its succeeded refunds. */
  refunded: number;
}

export interface Owed {
  AmountPaid: number;
  AmountRefunded: number;
  AmountDue: number;
  PaymentState: PaymentState;
  Currency: string;
}

/**
 * The one definition of what a booking owes. A partner booking is paid to its marketplace: nothing is due
 * to the operator. Refunds never make money due again: a booking refunded in part after paying in full owes
 * nothing. A cancelled or expired booking owes nothing. The state: refunded when refunds gave back all that
 * was paid, partially_refunded when some; otherwise paid when nothing is due (or the price is 0),
 * part_paid when something was paid, unpaid when nothing was.
 */
export function owedFrom(sums: MoneySums): Owed {
  const paid = sums.paidOnline + sums.paidOwn;
  const base = { AmountRefunded: sums.refunded, Currency: sums.currency };
  if (sums.source === 'partner') return { ...base, AmountPaid: 0, AmountDue: 0, PaymentState: 'partner' };
  const live = sums.status !== 'cancelled' && sums.status !== 'expired';
  const due = live ? Math.max(0, sums.total - paid) : 0;
  let state: PaymentState;
  if (sums.refunded > 0) state = sums.refunded >= paid ? 'refunded' : 'partially_refunded';
  else if (paid >= sums.total) state = 'paid';
  else state = paid > 0 ? 'part_paid' : 'unpaid';
  return { ...base, AmountPaid: paid, AmountDue: due, PaymentState: state };
}

export type MoneySumsReader = (db: Kysely<Database>, operatorId: number, bookingIds: number[]) => Promise<Map<number, MoneySums>>;

const NOTHING: ProvidedMoney = {
  Payments: [],
  Refunds: [],
  AmountPaid: 0,
  AmountRefunded: 0,
  AmountRefundable: 0,
  AmountDue: 0,
  PaymentState: 'unpaid',
};
let reader: BookingMoneyReader = async () => NOTHING;
let sumsReader: MoneySumsReader = async () => new Map();

/** Sets who tells what a booking paid (the shop). */
export function provideBookingMoney(read: BookingMoneyReader, sums: MoneySumsReader): void {
  reader = read;
  sumsReader = sums;
}

export async function bookingMoney(db: Kysely<Database>, operatorId: number, bookingId: number, reference: string): Promise<BookingMoney> {
  const [money, disputes] = await Promise.all([reader(db, operatorId, bookingId, reference), listBookingDisputes(db, operatorId, bookingId)]);
  return { ...money, Disputes: disputes.map(disputeView) };
}

/** What each of these bookings owes (bookings of another operator are left out). */
export async function owedOf(db: Kysely<Database>, operatorId: number, bookingIds: number[]): Promise<Map<number, Owed>> {
  const sums = await sumsReader(db, operatorId, bookingIds);
  return new Map([...sums].map(([id, money]) => [id, owedFrom(money)]));
}
