// The balance of a booking that paid a deposit (docs/payments.md, "Deposits and balances"), paid by its
// guest from their booking page (the link of their e-mails and of the balance e-mail, balance-links.ts):
// - through Stripe, a Checkout Session for what is due at the click (never an address made earlier: the
//   page makes it when the guest asks), recorded as a pending payment of the booking (booking_id, no
//   basket); Stripe's checkout.session.completed for it (settleBalance) records it paid, exactly once, like
//   the basket's. A balance paid meanwhile another way (the desk) leaves the payment more than is due: it
//   is refunded in full after the commit, never kept;
// - with the test provider, a test card charged at once.
// The booking's row is locked while what is due is read and the payment written, as at the desk.
import type { Kysely } from 'kysely';
import type { Db, Tx } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { Conflict, NotFound, ValidationFailed } from '../http/errors.js';
import { addSeconds, nowMillis, unixNow } from '../lib/clock.js';
import { formatMinorUnits } from '../lib/money.js';
import { refuseBelowCardMinimum } from '../payments/providers/stripe/minimum.js';
import { findBookingId } from '../bookings/index.js';
import { lockBooking } from '../bookings/index.js';
import { owedOf, type Owed } from '../payments/booking-money.js';
import { PaymentProviderUnavailable, type PaymentConfig } from '../payments/providers/provider.js';
import type { StripeEventContext, StripeEventHandler } from '../payments/providers/stripe/events.js';
import {
  changePaymentStatus,
  findPaymentBySession,
  findStripeAccount,
  insertBookingPayment,
  latestBalancePayment,
  lockPayment,
  recordCheckoutSession,
  type PaymentRow,
} from '../payments/index.js';
import {
  accountClient,
  createCheckoutSession,
  createRefund,
  paymentStartFailure,
  type CheckoutSession,
  type StripeSettings,
} from '../payments/providers/stripe/gateway.js';
import type { InstanceKeys } from '../secrets/keys.js';
import { requireShopProfile } from '../settings/profile.js';
import { SESSION_REUSE_MARGIN_SECONDS, SESSION_SECONDS } from '../payments/providers/stripe/checkout.js';
import { refuseWhileDeclining } from '../payments/declines.js';
import { shopState } from '../shop/settings.js';

/** Marks a Checkout Session as a booking's balance (not a basket's) in its metadata. */
export const BALANCE_KIND = 'balance';

export interface BalanceOutcome {
  /** paid: nothing is due any more; awaiting_payment: pay on Stripe's page at redirectUrl. */
  status: 'paid' | 'awaiting_payment';
  redirectUrl: string | null;
  owed: Owed;
}

export type BalanceConfig = PaymentConfig & StripeSettings;

async function owedNow(db: Kysely<Database>, operatorId: number, bookingId: number): Promise<Owed> {
  return (await owedOf(db, operatorId, [bookingId])).get(bookingId)!;
}

/** What is due and payable now by the guest: 409 when nothing is (a partner's booking, paid, cancelled). */
function requirePayable(owed: Owed, reference: string): void {
  if (owed.PaymentState === 'partner') throw new Conflict(`${reference} was paid to the marketplace it was booked through`);
  if (owed.AmountDue === 0) throw new Conflict(`Nothing is due for ${reference}`);
}

type Prepared =
  | { kind: 'paid' }
  | { kind: 'declined'; reason: string }
  | { kind: 'reuse'; payment: PaymentRow }
  | { kind: 'create'; payment: PaymentRow };

/**
 * The guest pays the balance of `reference`. `returnUrl` is the guest's booking page (Stripe's success and
 * cancel address). With the test provider `cardNumber` is charged at once (422 naming CardNumber when declined).
 */
export async function payBalance(
  db: Db,
  keys: InstanceKeys,
  config: BalanceConfig & { publicUrl: string },
  operatorId: number,
  reference: string,
  request: { returnUrl: string; cardNumber?: string; clientHmac: string },
): Promise<BalanceOutcome> {
  const bookingId = await findBookingId(db.kysely, operatorId, reference);
  if (bookingId === undefined) throw new NotFound('No such booking link');
  const now = unixNow();
  const prepared = await db.write(async (tx): Promise<Prepared> => {
    const locked = await lockBooking(tx, bookingId);
    if (locked?.status !== 'confirmed') throw new Conflict(`${reference} is not confirmed: nothing is due`);
    const owed = await owedNow(tx, operatorId, bookingId);
    requirePayable(owed, reference);
    const { provider } = await shopState(tx, operatorId, config);
    if (!provider) throw new Conflict('This shop takes no payments at the moment; nothing was charged');
    if (provider.name === 'test') {
      if (request.cardNumber === undefined) throw ValidationFailed.field('CardNumber', 'CardNumber is required: this shop is in test mode');
      // The same waits after declines as a basket's checkout (payments/declines.ts), per booking and per address.
      await refuseWhileDeclining(tx, { bookingId }, request.clientHmac, nowMillis());
      const charge = await provider.charge({
        amount: owed.AmountDue,
        currency: owed.Currency,
        cardNumber: request.cardNumber,
        description: `Balance ${reference}`,
      });
      if (charge.status === 'declined') {
        // Recorded (and committed) so that it counts towards the waits; the answer is a 422 after the commit.
        await insertBookingPayment(tx, {
          operatorId,
          bookingId,
          provider: 'test',
          method: 'online',
          status: 'declined',
          amount: owed.AmountDue,
          currency: owed.Currency,
          reference: null,
          failure: charge.reason,
          clientHmac: request.clientHmac,
        });
        return { kind: 'declined', reason: charge.reason };
      }
      await insertBookingPayment(tx, {
        operatorId,
        bookingId,
        provider: 'test',
        method: 'online',
        status: 'succeeded',
        amount: owed.AmountDue,
        currency: owed.Currency,
        reference: charge.reference,
      });
      return { kind: 'paid' };
    }
    refuseBelowCardMinimum(owed.AmountDue, owed.Currency, 'AmountDue');
    const latest = await latestBalancePayment(tx, bookingId);
    if (latest?.status === 'pending') {
      const open = latest.checkout_session_id !== null && Number(latest.session_expires_at) - now > SESSION_REUSE_MARGIN_SECONDS;
      if (open && Number(latest.amount) === owed.AmountDue) return { kind: 'reuse', payment: latest };
      await changePaymentStatus(tx, latest.id, ['pending'], 'expired');
    }
    const payment = await insertBookingPayment(tx, {
      operatorId,
      bookingId,
      provider: 'stripe',
      method: 'online',
      status: 'pending',
      amount: owed.AmountDue,
      currency: owed.Currency,
      reference: null,
      sessionExpiresAt: addSeconds(now, SESSION_SECONDS),
    });
    return { kind: 'create', payment };
  });
  if (prepared.kind === 'declined') throw ValidationFailed.field('CardNumber', `The payment was declined: ${prepared.reason}`);
  if (prepared.kind === 'paid') return { status: 'paid', redirectUrl: null, owed: await owedNow(db.kysely, operatorId, bookingId) };
  if (prepared.kind === 'reuse')
    return { status: 'awaiting_payment', redirectUrl: prepared.payment.redirect_url, owed: await owedNow(db.kysely, operatorId, bookingId) };

  const payment = prepared.payment;
  const account = await findStripeAccount(db.kysely, operatorId);
  if (!account) throw new Conflict('This shop takes no payments at the moment; nothing was charged');
  const profile = await requireShopProfile(db.kysely, operatorId, config.publicUrl);
  const metadata = {
    slotbook_operator_id: String(operatorId),
    slotbook_kind: BALANCE_KIND,
    slotbook_booking_id: String(bookingId),
    slotbook_payment_id: String(payment.id),
  };
  let session: CheckoutSession;
  try {
    session = await createCheckoutSession(
      accountClient(config, keys, account),
      {
        mode: 'payment',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: payment.currency.toLowerCase(),
              unit_amount: Number(payment.amount),
              product_data: {
                name: `Balance of booking ${reference}`,
                description: `${profile.name}: ${formatMinorUnits(Number(payment.amount), payment.currency)} ${payment.currency}`,
              },
            },
          },
        ],
        client_reference_id: `${operatorId}:booking:${bookingId}`,
        metadata,
        payment_intent_data: { metadata, description: `${profile.name}: balance of ${reference}` },
        expires_at: Number(payment.session_expires_at),
        success_url: `${request.returnUrl}?balance=paid`,
        cancel_url: request.returnUrl,
      },
      `slotbook-balance-${operatorId}-${payment.id}`,
    );
  } catch (error) {
    throw paymentStartFailure(error, '');
  }
  if (session.url === null) throw new PaymentProviderUnavailable('Stripe answered no payment page; nothing was charged. Try again in a moment.');
  await db.write((tx) => recordCheckoutSession(tx, payment.id, { id: session.id, url: session.url!, expiresAt: session.expires_at }));
  return { status: 'awaiting_payment', redirectUrl: session.url, owed: await owedNow(db.kysely, operatorId, bookingId) };
}

/** Whether a Checkout event is about a booking's balance (its metadata says so), not a basket. */
export function isBalanceSession(context: StripeEventContext): boolean {
  const session = context.event.data.object as CheckoutSession;
  return session.metadata?.slotbook_kind === BALANCE_KIND;
}

/** The balance payment a session of this operator pays, or undefined (ignored). */
async function balancePaymentOf(tx: Tx, context: StripeEventContext, session: CheckoutSession): Promise<PaymentRow | undefined> {
  const metadata = session.metadata ?? {};
  if (metadata.slotbook_operator_id !== String(context.operatorId)) {
    context.ignore('the session names another operator');
    return undefined;
  }
  const payment = await findPaymentBySession(tx, context.operatorId, session.id);
  if (!payment || payment.booking_id === null || String(payment.booking_id) !== metadata.slotbook_booking_id) {
    context.ignore('no balance of this operator has this session');
    return undefined;
  }
  return payment;
}

/** A paid balance session: the payment succeeded, once; more than is due by now (paid meanwhile) is refunded in full. */
export const settleBalance: StripeEventHandler = async (tx, context) => {
  const session = context.event.data.object as CheckoutSession;
  if (session.payment_status !== 'paid') {
    context.ignore(`the session is ${session.payment_status}, not paid yet`);
    return undefined;
  }
  const found = await balancePaymentOf(tx, context, session);
  if (!found) return undefined;
  // The booking first, then its payment: the order payBalance and the desk take them in.
  await lockBooking(tx, found.booking_id!);
  const payment = await lockPayment(tx, found.id);
  if (payment.status !== 'pending' && payment.status !== 'expired') {
    context.ignore(`the payment is ${payment.status} already`);
    return undefined;
  }
  const paymentIntent = typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null);
  const owed = await owedNow(tx, context.operatorId, found.booking_id!);
  const matches = session.amount_total === Number(payment.amount) && session.currency?.toUpperCase() === payment.currency.toUpperCase();
  if (matches && owed.AmountDue >= Number(payment.amount)) {
    await changePaymentStatus(tx, payment.id, ['pending', 'expired'], 'succeeded', { providerReference: paymentIntent });
    return undefined;
  }
  const why = matches ? 'the balance was paid another way meanwhile' : 'the amount paid is not the balance asked';
  await changePaymentStatus(tx, payment.id, ['pending', 'expired'], 'refunding', { providerReference: paymentIntent, failure: `Refunded: ${why}` });
  return async () => {
    if (paymentIntent === null) throw new Error('The paid session names no PaymentIntent to refund');
    const refund = await createRefund(
      context.client(),
      { paymentIntent, reason: 'duplicate', metadata: { slotbook_operator_id: String(context.operatorId), slotbook_payment_id: String(payment.id) } },
      `slotbook-refund-${payment.operator_id}-${payment.id}`,
    );
    await context.db.write((write) => changePaymentStatus(write, payment.id, ['refunding'], 'refunded', { refundReference: refund.id }));
  };
};

export const expireBalance: StripeEventHandler = async (tx, context) => {
  const payment = await balancePaymentOf(tx, context, context.event.data.object as CheckoutSession);
  if (payment && !(await changePaymentStatus(tx, payment.id, ['pending'], 'expired'))) context.ignore(`the payment is ${payment.status}`);
  return undefined;
};
