// Refunds of a booking sold in the shop: by staff (any amount up to what remains) and by a guest's
// cancellation within the activity's rule (all that remains). A booking may refund at most its share of
// the basket's payment (its tickets at the prices they were sold at), less what was refunded before: the
// check and the insert of the refund happen in ONE transaction with the payment's row locked (PostgreSQL;
// SQLite's write transaction is serial already), so two staff clicking at once can never refund more.
// The provider is asked after the commit (payments/refunds.ts); the test provider refunds at once.
import type { Kysely } from 'kysely';
import type { Db, Tx } from '../db/connection.js';
import type { Database, RefundRequester } from '../db/schema.js';
import { audit } from '../audit/log.js';
import { currentContext } from '../access/actor.js';
import { DomainError, NotFound, ValidationFailed } from '../http/errors.js';
import { bookingReferences, findBooking, findBookingId, type BookingRecord } from '../bookings/store.js';
import { refundAmount, refundPercent, refundRulesOf } from '../catalog/refund-rules.js';
import { findActivity } from '../catalog/store.js';
import type { ChangedBooking, DepartureCancellationReaction, GuestCancellationReaction } from '../events/reactions.js';
import type { InstanceKeys } from '../secrets/keys.js';
import { PaymentProviderUnavailable } from '../payments/providers.js';
import { formatMinorUnits, parseMinorUnits } from '../lib/money.js';
import { sendRefund } from '../payments/refunds.js';
import { bookingPaymentView, refundView } from '../payments/view.js';
import { owedFrom, type BookingMoneyReader, type MoneySumsReader } from '../payments/booking-money.js';
import { unixNow } from '../lib/clock.js';
import { moneySums } from './money-store.js';
import type { Refund } from '../payments/schemas.js';
import {
  basketPaymentsTaken,
  bookingOwnPayments,
  changeRefundStatus,
  findPayment,
  findRefund,
  insertRefund,
  listBookingRefunds,
  lockPayment,
  refundedSoFar,
  succeededBasketPayment,
  type PaymentRow,
  type RefundRow,
} from '../payments/store.js';
import type { StripeSettings } from '../payments/stripe.js';
import { randomBytes } from 'node:crypto';
import { bookingShare } from './store.js';

export interface RefundContext {
  db: Db;
  keys: InstanceKeys;
  settings: StripeSettings;
}

const GUEST = { type: 'anonymous', id: null, label: 'guest (manage link)' } as const;

const testRefundReference = () => `test_refund_${randomBytes(8).toString('hex')}`;

/** A refund that would pass what remains: 409 naming Amount. */
const tooMuch = (message: string) => new DomainError('conflict', message, [{ field: 'Amount', message }]);

/** The basket payment that paid the booking and the booking's share of it; undefined when it was not paid online. */
async function saleOf(db: Kysely<Database>, bookingId: number) {
  const sale = await bookingShare(db, bookingId);
  const payment = sale === undefined ? undefined : await succeededBasketPayment(db, sale.basketId);
  return sale && payment ? { bookingId, share: sale.share, payment } : undefined;
}

/** The operator's booking, the basket payment that paid it and its share of it; 404/409 otherwise. */
async function paidBooking(db: Kysely<Database>, operatorId: number, reference: string) {
  const bookingId = await findBookingId(db, operatorId, reference);
  if (bookingId === undefined) throw new NotFound(`Booking ${reference} not found`);
  const sale = await saleOf(db, bookingId);
  if (!sale) throw tooMuch(`Nothing was paid online for ${reference}: there is nothing to refund`);
  return sale;
}

/**
 * What the booking may still refund of the payment: its share less its refunds, never more than the payment
 * keeps; with `percent` (a guest's cancellation by the activity's rules), at most that part of the share
 * less what went back before.
 */
async function remaining(db: Kysely<Database>, payment: PaymentRow, bookingId: number, share: number, percent = 100): Promise<number> {
  const so = await refundedSoFar(db, payment.id, bookingId);
  const ofShare = refundAmount(share, so.ofBooking, percent);
  return Math.max(0, Math.min(ofShare, Number(payment.amount) - so.ofPayment));
}

function requester(): { type: RefundRequester; id: number | null } {
  const actor = currentContext()?.actor;
  if (!actor) return { type: 'system', id: null };
  return actor.kind === 'key' ? { type: 'key', id: actor.keyId } : { type: 'user', id: actor.userId };
}

/** Records the refund under the payment's lock; the test provider's refund succeeds in the same transaction. */
async function recordRefund(
  tx: Tx,
  operatorId: number,
  reference: string,
  sale: { bookingId: number; share: number; payment: PaymentRow },
  request: { amount: number | 'rest'; percent?: number; reason: string; requestedBy: { type: RefundRequester; id: number | null } },
): Promise<RefundRow | undefined> {
  const payment = await lockPayment(tx, sale.payment.id);
  const left = await remaining(tx, payment, sale.bookingId, sale.share, request.percent);
  const amount = request.amount === 'rest' ? left : request.amount;
  if (left === 0) {
    if (request.amount === 'rest') return undefined;
    throw tooMuch(`${reference} has nothing left to refund`);
  }
  if (amount > left)
    throw tooMuch(`Amount is more than ${reference} may still refund: ${formatMinorUnits(left, payment.currency)} ${payment.currency}`);
  const test = payment.provider !== 'stripe';
  const refund = await insertRefund(tx, {
    operatorId,
    paymentId: payment.id,
    bookingId: sale.bookingId,
    amount,
    currency: payment.currency,
    status: test ? 'succeeded' : 'pending',
    providerReference: test ? testRefundReference() : null,
    reason: request.reason,
    requestedBy: request.requestedBy,
  });
  await audit(
    tx,
    { operatorId, action: 'booking.refund', resource: { type: 'booking', id: reference }, after: refundView(refund, reference, payment.provider) },
    request.requestedBy.type === 'guest' ? GUEST : undefined,
  );
  return refund;
}

/** After the commit: Stripe is asked; a failed answer is a 502 naming the refund, which stays failed to retry. */
async function sendAndAnswer(context: RefundContext, refund: RefundRow, reference: string, provider: string): Promise<Refund> {
  if (provider !== 'stripe') return refundView(refund, reference, provider);
  const sent = await sendRefund(context.db, context.keys, context.settings, refund);
  if (sent.status === 'failed') {
    throw new PaymentProviderUnavailable(
      `Refund ${sent.id} of ${reference} failed (${sent.failure ?? 'Stripe refused it'}); nothing was refunded. Retry it with POST /api/v2/admin/bookings/${reference}/refunds/${sent.id}/retry.`,
    );
  }
  return refundView(sent, reference, provider);
}

/** Staff refund a booking: `amountText` of it (a decimal in the payment's currency), or all that remains. */
export async function refundBooking(context: RefundContext, operatorId: number, reference: string, amountText: string | undefined): Promise<Refund> {
  const sale = await paidBooking(context.db.kysely, operatorId, reference);
  let amount: number | 'rest' = 'rest';
  if (amountText !== undefined) {
    const parsed = parseMinorUnits(amountText, sale.payment.currency);
    if (parsed === undefined)
      throw ValidationFailed.field('Amount', `Amount must be a decimal with at most the minor digits of ${sale.payment.currency}`);
    if (parsed <= 0) throw ValidationFailed.field('Amount', 'Amount must be more than 0');
    amount = parsed;
  }
  const refund = await context.db.write((tx) => recordRefund(tx, operatorId, reference, sale, { amount, reason: 'staff', requestedBy: requester() }));
  if (!refund) throw tooMuch(`${reference} has nothing left to refund`);
  return sendAndAnswer(context, refund, reference, sale.payment.provider);
}

/** Staff retry a failed refund: checked again against what remains, then sent with the same idempotency key. */
export async function retryRefund(context: RefundContext, operatorId: number, reference: string, refundId: number): Promise<Refund> {
  const bookingId = await findBookingId(context.db.kysely, operatorId, reference);
  const found = await findRefund(context.db.kysely, operatorId, refundId);
  if (bookingId === undefined || !found || found.booking_id !== bookingId) throw new NotFound(`Refund ${refundId} of ${reference} not found`);
  const payment = (await findPayment(context.db.kysely, operatorId, found.payment_id))!;
  if (found.status !== 'failed') return refundView(found, reference, payment.provider);
  const sale = await paidBooking(context.db.kysely, operatorId, reference);
  await context.db.write(async (tx) => {
    const locked = await lockPayment(tx, payment.id);
    if ((await remaining(tx, locked, bookingId, sale.share)) < Number(found.amount))
      throw tooMuch(`Refund ${refundId} is more than ${reference} may still refund`);
    // The test provider refunds at once, as when the refund was made.
    const test = payment.provider !== 'stripe';
    const retried = test
      ? await changeRefundStatus(tx, found.id, ['failed'], 'succeeded', { failure: null, providerReference: testRefundReference() })
      : await changeRefundStatus(tx, found.id, ['failed'], 'pending', { failure: null });
    if (!retried) return;
    await audit(tx, { operatorId, action: 'booking.refund-retry', resource: { type: 'booking', id: reference }, after: { RefundID: found.id } });
  });
  const pending = (await findRefund(context.db.kysely, operatorId, refundId))!;
  if (pending.status !== 'pending') return refundView(pending, reference, payment.provider);
  return sendAndAnswer(context, pending, reference, payment.provider);
}

/** The booking's refunds as the API shows them. */
export async function bookingRefunds(db: Kysely<Database>, operatorId: number, bookingId: number, reference: string): Promise<Refund[]> {
  const rows = await listBookingRefunds(db, operatorId, bookingId);
  const providers = new Map<number, string>();
  const answer: Refund[] = [];
  for (const row of rows) {
    if (!providers.has(row.payment_id)) providers.set(row.payment_id, (await findPayment(db, operatorId, row.payment_id))?.provider ?? 'test');
    answer.push(refundView(row, reference, providers.get(row.payment_id)!));
  }
  return answer;
}

/** The percentage of what it paid that a guest's cancellation of the booking at `now` gets back, by its activity's rules. */
async function guestRefundPercent(db: Kysely<Database>, booking: BookingRecord | undefined, now: number): Promise<number> {
  const activity = booking && (await findActivity(db, booking.operator_id, booking.activity_public_id));
  return booking && activity ? refundPercent(refundRulesOf(activity), Number(booking.starts_at), now) : 100;
}

/**
 * A guest cancelled their paid booking within the activity's rule (the manage page allows nothing else):
 * the rule's percentage of its share, less what went back before, is refunded, recorded in the
 * cancellation's transaction. The test provider's refund succeeds there; Stripe's is sent after the commit
 * (sendPendingRefunds).
 */
export const refundGuestCancellation: GuestCancellationReaction = async (tx, booking, now) => {
  const sale = await saleOf(tx, booking.id);
  if (!sale) return;
  const reference = (await bookingReferences(tx, booking.operator_id, [booking.id])).get(booking.id) ?? String(booking.id);
  await recordRefund(tx, booking.operator_id, reference, sale, {
    amount: 'rest',
    percent: await guestRefundPercent(tx, await findBooking(tx, booking.operator_id, reference), now),
    reason: 'guest-cancellation',
    requestedBy: { type: 'guest', id: null },
  });
};

/**
 * What the guest's cancellation of the booking would refund now (the manage page says it before they
 * cancel): the rule's percentage and the amount in minor units; an amount of null when nothing was paid online.
 */
export async function guestRefundPreview(
  db: Kysely<Database>,
  operatorId: number,
  reference: string,
  now: number,
): Promise<{ percent: number; amount: number | null }> {
  const booking = await findBooking(db, operatorId, reference);
  const percent = await guestRefundPercent(db, booking, now);
  const sale = booking === undefined ? undefined : await saleOf(db, booking.id);
  return { percent, amount: sale ? await remaining(db, sale.payment, sale.bookingId, sale.share, percent) : null };
}

/** What the booking paid, got back and owes (the operator's booking answer): its basket's payments, its own, its refunds. */
export const readBookingMoney: BookingMoneyReader = async (db, operatorId, bookingId, reference) => {
  const share = await bookingShare(db, bookingId);
  const basketPayments = share === undefined ? [] : await basketPaymentsTaken(db, share.basketId);
  const own = await bookingOwnPayments(db, operatorId, bookingId);
  const refunds = await bookingRefunds(db, operatorId, bookingId, reference);
  const sums = (await moneySums(db, operatorId, [bookingId], unixNow())).get(bookingId);
  const owed = sums === undefined ? undefined : owedFrom(sums);
  const payment = share === undefined ? undefined : await succeededBasketPayment(db, share.basketId);
  return {
    Payments: [...basketPayments, ...own].sort((a, b) => a.id - b.id).map(bookingPaymentView),
    Refunds: refunds,
    AmountPaid: owed?.AmountPaid ?? 0,
    AmountRefunded: owed?.AmountRefunded ?? 0,
    AmountRefundable: share && payment ? await remaining(db, payment, bookingId, share.share) : 0,
    AmountDue: owed?.AmountDue ?? 0,
    PaymentState: owed?.PaymentState ?? 'unpaid',
  };
};

/** The money sums of bookings, as the payments domain asks them (owedOf). */
export const readMoneySums: MoneySumsReader = (db, operatorId, bookingIds) => moneySums(db, operatorId, bookingIds, unixNow());
/**
 * The operator cancelled the departure of a booking paid online (bookings/departures.ts): all that remains
 * of its share is refunded, whatever the activity's rules, recorded in the cancellation's transaction as
 * asked by whoever cancelled it (reason departure-cancelled). Stripe's is sent after the commit.
 */
export const refundDepartureCancellation: DepartureCancellationReaction = async (tx, booking) => {
  const sale = await saleOf(tx, booking.id);
  if (!sale) return;
  const reference = (await bookingReferences(tx, booking.operator_id, [booking.id])).get(booking.id) ?? String(booking.id);
  await recordRefund(tx, booking.operator_id, reference, sale, { amount: 'rest', reason: 'departure-cancelled', requestedBy: requester() });
};

/**
 * A move made the booking cheaper than what it kept (shop/price-difference.ts): `amount` of its share goes
 * back, never more than remains, recorded in the move's transaction as asked by whoever moved it.
 */
export async function refundPriceDifference(tx: Tx, booking: ChangedBooking, amount: number): Promise<void> {
  const sale = await saleOf(tx, booking.id);
  if (!sale) return;
  const reference = (await bookingReferences(tx, booking.operator_id, [booking.id])).get(booking.id) ?? String(booking.id);
  const left = await remaining(tx, sale.payment, sale.bookingId, sale.share);
  if (Math.min(amount, left) === 0) return;
  await recordRefund(tx, booking.operator_id, reference, sale, {
    amount: Math.min(amount, left),
    reason: 'price-difference',
    requestedBy: requester(),
  });
}
