// Refunds of a booking paid online: by staff (any amount up to what remains), by a guest's cancellation
// within the activity's rule, by the operator cancelling the departure (all that remains), and by a move
// to a cheaper activity (the difference). Every path refunds across ALL of the booking's online payments
// (its deposit and its balances), oldest payment first, each up to its part less its refunds (ledger.ts):
// the check and the insert happen in ONE transaction with the booking's payments locked (PostgreSQL;
// SQLite's write transaction is serial already), so two staff clicking at once can never refund more.
// The provider is asked after the commit (providers/stripe/refunds.ts); the test provider refunds at once.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db, Tx } from '../db/connection.js';
import type { Database, RefundRequester } from '../db/schema.js';
import { audit } from '../audit/log.js';
import { currentContext } from '../access/actor.js';
import { DomainError, NotFound, ValidationFailed } from '../http/errors.js';
import { refundAmount, refundPercent, refundRulesOf } from '../catalog/refund-rules.js';
import { refundSubject } from './ledger-store.js';
import type { InstanceKeys } from '../secrets/keys.js';
import { PaymentProviderUnavailable } from './providers/provider.js';
import { formatMinorUnits, parseMinorUnits } from '../lib/money.js';
import { sendPendingRefunds } from './jobs.js';
import { bookingLedger } from './booking-money.js';
import { onlineOf, planRefund, refundableOf, type BookingLedger } from './ledger.js';
import { refundView } from './view.js';
import type { Refund } from './schemas.js';
import { changeRefundStatus, findPayment, findRefund, insertRefund, lockPayment, type RefundRow } from './index.js';
import type { StripeSettings } from './providers/stripe/gateway.js';
import type { UnixSeconds } from '../lib/clock.js';

export interface RefundContext {
  db: Db;
  keys: InstanceKeys;
  settings: StripeSettings;
}

const GUEST = { type: 'anonymous', id: null, label: 'guest (manage link)' } as const;

const testRefundReference = () => `test_refund_${randomBytes(8).toString('hex')}`;

/** A refund that would pass what remains: 409 naming Amount. */
const tooMuch = (message: string) => new DomainError('conflict', message, [{ field: 'Amount', message }]);

/** The operator's booking id by reference; 404 otherwise. */
async function requireBookingId(db: Kysely<Database>, operatorId: number, reference: string): Promise<number> {
  const booking = await refundSubject(db, operatorId, { reference });
  if (booking === undefined) throw new NotFound(`Booking ${reference} not found`);
  return booking.id;
}

function requester(): { type: RefundRequester; id: number | null } {
  const actor = currentContext()?.actor;
  if (!actor) return { type: 'system', id: null };
  return actor.kind === 'key' ? { type: 'key', id: actor.keyId } : { type: 'user', id: actor.userId };
}

/**
 * The booking's ledger with its online payments locked until the transaction ends, in the order of their ids
 * (every refund takes them in that order, so two never wait on each other), read again under the locks.
 */
async function lockedLedger(tx: Tx, operatorId: number, bookingId: number): Promise<BookingLedger> {
  const before = await bookingLedger(tx, operatorId, bookingId);
  for (const line of before.lines) if (line.provider !== 'desk') await lockPayment(tx, line.paymentId);
  return bookingLedger(tx, operatorId, bookingId);
}

interface RefundRequest {
  /** Minor units, or all that remains (of `percent` of what was paid online, and at most `atMost`, when given). */
  amount: number | 'rest';
  percent?: number;
  atMost?: number;
  reason: string;
  requestedBy: { type: RefundRequester; id: number | null };
}

/**
 * Records the booking's refund under its payments' locks, split over them oldest first: one row per payment
 * refunded from. The test provider's parts succeed in the same transaction; Stripe's are sent after it.
 * `rest` with nothing left records nothing.
 */
async function recordRefunds(tx: Tx, operatorId: number, bookingId: number, reference: string, request: RefundRequest): Promise<RefundRow[]> {
  const ledger = await lockedLedger(tx, operatorId, bookingId);
  const refundable = refundableOf(ledger);
  const online = onlineOf(ledger);
  const byRule = request.percent === undefined ? refundable : refundAmount(online.paid, online.refunded, request.percent);
  const left = Math.min(refundable, byRule, request.atMost ?? refundable);
  if (left === 0 && request.amount === 'rest') return [];
  if (left === 0) throw tooMuch(`${reference} has nothing left to refund`);
  const amount = request.amount === 'rest' ? left : request.amount;
  const currency = ledger.lines.find((line) => line.provider !== 'desk')?.currency ?? '';
  if (amount > left) throw tooMuch(`Amount is more than ${reference} may still refund: ${formatMinorUnits(left, currency)} ${currency}`);
  const rows: RefundRow[] = [];
  for (const part of planRefund(ledger, amount)) {
    const payment = (await findPayment(tx, operatorId, part.paymentId))!;
    const test = payment.provider !== 'stripe';
    const refund = await insertRefund(tx, {
      operatorId,
      paymentId: part.paymentId,
      bookingId,
      amount: part.amount,
      currency: part.currency,
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
    rows.push(refund);
  }
  return rows;
}

/**
 * After the commit: Stripe is asked for every part still pending; a failed one is a 502 naming it, which
 * stays failed to retry. Answers the refunds as they are then.
 */
async function sendAndAnswer(context: RefundContext, operatorId: number, refunds: RefundRow[], reference: string): Promise<Refund[]> {
  await sendPendingRefunds(context.db, context.keys, context.settings, operatorId);
  const answers: Refund[] = [];
  for (const made of refunds) {
    const refund = (await findRefund(context.db.kysely, operatorId, made.id))!;
    const provider = (await findPayment(context.db.kysely, operatorId, refund.payment_id))!.provider;
    if (refund.status === 'failed') {
      throw new PaymentProviderUnavailable(
        `Refund ${refund.id} of ${reference} failed (${refund.failure ?? 'Stripe refused it'}); nothing was refunded by it. Retry it with POST /api/v2/admin/bookings/${reference}/refunds/${refund.id}/retry.`,
      );
    }
    answers.push(refundView(refund, reference, provider));
  }
  return answers;
}

/** Staff refund a booking: `amountText` of it (a decimal in the payments' currency), or all that remains. */
export async function refundBooking(
  context: RefundContext,
  operatorId: number,
  reference: string,
  amountText: string | undefined,
): Promise<Refund[]> {
  const bookingId = await requireBookingId(context.db.kysely, operatorId, reference);
  const ledger = await bookingLedger(context.db.kysely, operatorId, bookingId);
  const online = ledger.lines.find((line) => line.provider !== 'desk');
  if (!online) throw tooMuch(`Nothing was paid online for ${reference}: there is nothing to refund`);
  let amount: number | 'rest' = 'rest';
  if (amountText !== undefined) {
    const parsed = parseMinorUnits(amountText, online.currency);
    if (parsed === undefined) throw ValidationFailed.field('Amount', `Amount must be a decimal with at most the minor digits of ${online.currency}`);
    if (parsed <= 0) throw ValidationFailed.field('Amount', 'Amount must be more than 0');
    amount = parsed;
  }
  const refunds = await context.db.write((tx) =>
    recordRefunds(tx, operatorId, bookingId, reference, { amount, reason: 'staff', requestedBy: requester() }),
  );
  if (refunds.length === 0) throw tooMuch(`${reference} has nothing left to refund`);
  return sendAndAnswer(context, operatorId, refunds, reference);
}

/** Staff retry a failed refund: checked again against what its payment may still give back, then sent with the same idempotency key. */
export async function retryRefund(context: RefundContext, operatorId: number, reference: string, refundId: number): Promise<Refund> {
  const bookingId = (await refundSubject(context.db.kysely, operatorId, { reference }))?.id;
  const found = await findRefund(context.db.kysely, operatorId, refundId);
  if (bookingId === undefined || !found || found.booking_id !== bookingId) throw new NotFound(`Refund ${refundId} of ${reference} not found`);
  const payment = (await findPayment(context.db.kysely, operatorId, found.payment_id))!;
  if (found.status !== 'failed') return refundView(found, reference, payment.provider);
  await context.db.write(async (tx) => {
    const ledger = await lockedLedger(tx, operatorId, bookingId);
    // A failed refund counts for nothing: what its payment may still give back must cover it again.
    const line = ledger.lines.find((candidate) => candidate.paymentId === found.payment_id);
    const room = line ? refundableOf({ ...ledger, lines: [line] }) : 0;
    if (room < Number(found.amount)) throw tooMuch(`Refund ${refundId} is more than ${reference} may still refund`);
    // The test provider refunds at once, as when the refund was made.
    const test = payment.provider !== 'stripe';
    const retried = test
      ? await changeRefundStatus(tx, found.id, ['failed'], 'succeeded', { failure: null, providerReference: testRefundReference() })
      : await changeRefundStatus(tx, found.id, ['failed'], 'pending', { failure: null });
    if (!retried) return;
    await audit(tx, { operatorId, action: 'booking.refund-retry', resource: { type: 'booking', id: reference }, after: { RefundID: found.id } });
  });
  const [answer] = await sendAndAnswer(context, operatorId, [found], reference);
  return answer!;
}

type RefundSubject = NonNullable<Awaited<ReturnType<typeof refundSubject>>>;

/** The percentage of what it paid that a guest's cancellation of the booking at `now` gets back, by its activity's rules. */
const guestRefundPercent = (booking: RefundSubject | undefined, now: UnixSeconds): number =>
  booking ? refundPercent(refundRulesOf(booking), booking.starts_at, now) : 100;

/** The booking's reference (for audit entries) by its id. */
async function referenceOf(db: Kysely<Database>, operatorId: number, bookingId: number): Promise<string> {
  return (await refundSubject(db, operatorId, { id: bookingId }))?.reference ?? String(bookingId);
}

/**
 * A guest cancelled their paid booking within the activity's rule (the guest-cancellation flow): the rule's
 * percentage of what it paid online, less what went back before, is refunded, recorded in the
 * cancellation's transaction. The test provider's refund succeeds there; Stripe's is sent after the commit.
 */
export async function refundGuestCancellation(tx: Tx, booking: { operator_id: number; id: number }, now: UnixSeconds): Promise<void> {
  const subject = await refundSubject(tx, booking.operator_id, { id: booking.id });
  await recordRefunds(tx, booking.operator_id, booking.id, subject?.reference ?? String(booking.id), {
    amount: 'rest',
    percent: guestRefundPercent(subject, now),
    reason: 'guest-cancellation',
    requestedBy: { type: 'guest', id: null },
  });
}

/**
 * What the guest's cancellation of the booking would refund now (the manage page says it before they
 * cancel): the rule's percentage and the amount in minor units; an amount of null when nothing was paid online.
 */
export async function guestRefundPreview(
  db: Kysely<Database>,
  operatorId: number,
  reference: string,
  now: UnixSeconds,
): Promise<{ percent: number; amount: number | null }> {
  const booking = await refundSubject(db, operatorId, { reference });
  const percent = guestRefundPercent(booking, now);
  const ledger = booking === undefined ? undefined : await bookingLedger(db, operatorId, booking.id);
  if (!ledger?.lines.some((line) => line.provider !== 'desk')) return { percent, amount: null };
  const online = onlineOf(ledger);
  return { percent, amount: Math.min(refundableOf(ledger), refundAmount(online.paid, online.refunded, percent)) };
}

/**
 * The operator cancelled the departure of a booking paid online (flows/departure-cancellation.ts): all that remains
 * of what it paid online is refunded, whatever the activity's rules, recorded in the cancellation's
 * transaction as asked by whoever cancelled it (reason departure-cancelled). Stripe's is sent after the commit.
 */
export async function refundDepartureCancellation(tx: Tx, booking: { operator_id: number; id: number }): Promise<void> {
  const reference = await referenceOf(tx, booking.operator_id, booking.id);
  await recordRefunds(tx, booking.operator_id, booking.id, reference, { amount: 'rest', reason: 'departure-cancelled', requestedBy: requester() });
}

/**
 * A move made the booking cheaper than what it paid toward its price (the reschedule flow's price difference): `amount`
 * goes back, never more than remains, recorded in the move's transaction as asked by whoever moved it.
 */
export async function refundPriceDifference(tx: Tx, operatorId: number, bookingId: number, amount: number): Promise<void> {
  if (amount <= 0) return;
  const reference = await referenceOf(tx, operatorId, bookingId);
  await recordRefunds(tx, operatorId, bookingId, reference, { amount: 'rest', atMost: amount, reason: 'price-difference', requestedBy: requester() });
}
