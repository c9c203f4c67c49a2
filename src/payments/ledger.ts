// What a booking has paid, refunded and owes, and how a refund is split over the payments that paid it:
// ONE computation, used by every path (the booking's answer, the desk, the balance link, staff refunds, a
// guest's or a departure's cancellation, a move's price difference). Pure functions over the booking's
// ledger (ledger-store.ts reads it): the payments allocated to the booking and the refunds made of them.
// Refunds count from the moment they are recorded (pending included: a Stripe refund may stay pending for
// days, and the money is on its way back); failed ones do not (a retry checks again).
import type { PaymentState } from './schemas.js';

/** One payment's part of one booking. */
export interface LedgerLine {
  paymentId: number;
  /** stripe or test (online: refundable through slotbook), or desk (cash, card terminal, ...: not). */
  provider: string;
  currency: string;
  /** What this payment paid the booking (its allocation). */
  allocated: number;
  /** Refunded of this booking's part, pending or succeeded. */
  refunded: number;
  /** The payment's whole amount, and what is refunded of it for all its bookings: a refund never passes it. */
  paymentAmount: number;
  paymentRefunded: number;
}

export interface BookingLedger {
  /** Oldest payment first. */
  lines: LedgerLine[];
  /** All of the booking's refunds, pending or succeeded. */
  refunded: number;
  /** Of those, what went back because a move made the booking cheaper (reason price-difference). */
  refundedForPrice: number;
}

export const EMPTY_LEDGER: BookingLedger = { lines: [], refunded: 0, refundedForPrice: 0 };

/** The booking itself, as far as what it owes depends on it. */
export interface BookingFacts {
  source: string;
  /** The effective status (a lapsed hold is expired). */
  status: string;
  /** The tickets' price together, minor units. */
  total: number;
  currency: string;
}

export interface Owed {
  AmountPaid: number;
  AmountRefunded: number;
  AmountDue: number;
  PaymentState: PaymentState;
  Currency: string;
}

const isOnline = (line: LedgerLine) => line.provider !== 'desk';

/** What the line may still give back: its part less its refunds, never more than its payment keeps. */
const lineRefundable = (line: LedgerLine) =>
  isOnline(line) ? Math.max(0, Math.min(line.allocated - line.refunded, line.paymentAmount - line.paymentRefunded)) : 0;

export const paidOf = (ledger: BookingLedger): number => ledger.lines.reduce((sum, line) => sum + line.allocated, 0);

/** What was paid online (refundable through slotbook) and what of that went back. */
export function onlineOf(ledger: BookingLedger): { paid: number; refunded: number } {
  const online = ledger.lines.filter(isOnline);
  return { paid: online.reduce((sum, line) => sum + line.allocated, 0), refunded: online.reduce((sum, line) => sum + line.refunded, 0) };
}

/** What refunds may still give back, across every online payment of the booking (deposit and balances). */
export const refundableOf = (ledger: BookingLedger): number => ledger.lines.reduce((sum, line) => sum + lineRefundable(line), 0);

export interface RefundPart {
  paymentId: number;
  amount: number;
  currency: string;
}

/**
 * Splits a refund of `amount` over the booking's online payments, oldest first, each up to what it may still
 * give back. Asks no more than refundableOf allows: the caller checks that first.
 */
export function planRefund(ledger: BookingLedger, amount: number): RefundPart[] {
  const parts: RefundPart[] = [];
  let left = amount;
  for (const line of ledger.lines) {
    if (left <= 0) break;
    const take = Math.min(left, lineRefundable(line));
    if (take > 0) parts.push({ paymentId: line.paymentId, amount: take, currency: line.currency });
    left -= take;
  }
  return parts;
}

/**
 * What the booking still owes. Paid toward its price is what it paid less what went back because a move made
 * it cheaper (so a move back makes that due again); other refunds (staff's goodwill, a cancellation's)
 * never make money due again. A partner booking is paid to its marketplace: nothing is due to the operator.
 * A cancelled or expired booking owes nothing. The state: refunded when refunds gave back all that was paid,
 * partially_refunded when some; otherwise paid when nothing is due (or the price is 0), part_paid when
 * something was paid, unpaid when nothing was.
 */
export function owedFrom(booking: BookingFacts, ledger: BookingLedger): Owed {
  const paid = paidOf(ledger);
  const base = { AmountRefunded: ledger.refunded, Currency: booking.currency };
  if (booking.source === 'partner') return { ...base, AmountPaid: 0, AmountDue: 0, PaymentState: 'partner' };
  const live = booking.status !== 'cancelled' && booking.status !== 'expired';
  const towardPrice = paid - ledger.refundedForPrice;
  const due = live ? Math.max(0, booking.total - towardPrice) : 0;
  let state: PaymentState;
  if (ledger.refunded > 0) state = ledger.refunded >= paid ? 'refunded' : 'partially_refunded';
  else if (paid >= booking.total) state = 'paid';
  else state = paid > 0 ? 'part_paid' : 'unpaid';
  return { ...base, AmountPaid: paid, AmountDue: due, PaymentState: state };
}

/** What a move leaves to settle: more kept toward the price than it now costs is refunded, less is due. */
export function priceDifferenceOf(booking: BookingFacts, ledger: BookingLedger): { refund: number; due: number } {
  const towardPrice = paidOf(ledger) - ledger.refundedForPrice;
  if (towardPrice > booking.total) return { refund: Math.min(towardPrice - booking.total, refundableOf(ledger)), due: 0 };
  return { refund: 0, due: owedFrom(booking, ledger).AmountDue };
}
