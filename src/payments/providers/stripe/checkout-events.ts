// What Stripe's Checkout events do to a basket (handlers of payments/providers/stripe/events.ts, wired in
// src/reactions.ts). They run inside the transaction that records the event, so each takes effect once.
// - A paid session (checkout.session.completed with payment_status paid, or
//   checkout.session.async_payment_succeeded): the payment succeeded and the basket is completed
//   (completion.ts, exactly as the test provider's checkout does), whether or not the guest ever comes
//   back. If its seats are no longer counted for it (a hold released after it lapsed, then perhaps sold;
//   a basket already paid), nothing is confirmed, so nothing is overbooked: the payment is recorded as
//   refunding and refunded in full after the commit, with an idempotency key of the payment.
// - An expired session (checkout.session.expired): the payment is marked expired; nothing is released
//   early, the holds lapse at their own time.
// - A session of another operator or an unknown basket changes nothing (acknowledged, so Stripe stops).
import type { Tx } from '../db/connection.js';
import type { StripeEventContext, StripeEventHandler } from '../payments/providers/stripe/events.js';
import { changePaymentStatus, findPayment, findPaymentBySession, lockPayment, recordCheckoutSession, type PaymentRow } from '../payments/index.js';
import { createRefund, type CheckoutSession } from '../payments/providers/stripe/gateway.js';
import { completeOrder } from './completion.js';
import { basketAllocations, findBasketById, listBasketItems, lockBasket } from './store.js';

export const PAID_SESSION_EVENTS = ['checkout.session.completed', 'checkout.session.async_payment_succeeded'] as const;
export const EXPIRED_SESSION_EVENTS = ['checkout.session.expired'] as const;

/** The payment a session of this operator pays, by the session's id, else by the payment its metadata names. */
async function paymentOfSession(tx: Tx, context: StripeEventContext, session: CheckoutSession): Promise<PaymentRow | undefined> {
  const metadata = session.metadata ?? {};
  if (metadata.slotbook_operator_id !== String(context.operatorId)) {
    context.ignore('the session names another operator');
    return undefined;
  }
  let payment = await findPaymentBySession(tx, context.operatorId, session.id);
  // The session was made but its id never recorded (the answer was lost): its metadata names the payment.
  const named = Number(metadata.slotbook_payment_id);
  if (!payment && Number.isSafeInteger(named)) {
    const candidate = await findPayment(tx, context.operatorId, named);
    if (candidate?.provider === 'stripe' && candidate.checkout_session_id === null && session.url !== null) {
      await recordCheckoutSession(tx, candidate.id, { id: session.id, url: session.url, expiresAt: session.expires_at });
      payment = candidate;
    }
  }
  if (!payment || payment.basket_id === null || String(payment.basket_id) !== metadata.slotbook_basket_id) {
    context.ignore('no basket of this operator has this session');
    return undefined;
  }
  return payment;
}

const paymentIntentOf = (session: CheckoutSession): string | null =>
  typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null);

export const settleStripeCheckout: StripeEventHandler = async (tx, context) => {
  const session = context.event.data.object as CheckoutSession;
  // Paid later (a bank debit, ...): checkout.session.async_payment_succeeded says when.
  if (session.payment_status !== 'paid') {
    context.ignore(`the session is ${session.payment_status}, not paid yet`);
    return undefined;
  }
  const found = await paymentOfSession(tx, context, session);
  if (!found) return undefined;
  // The basket first, then its payment: the order checkout locks them in.
  await lockBasket(tx, found.basket_id!);
  const payment = await lockPayment(tx, found.id);
  if (payment.status === 'refunding') return refundFollowUp(context, payment);
  if (payment.status !== 'pending' && payment.status !== 'expired') {
    context.ignore(`the payment is ${payment.status} already`);
    return undefined;
  }
  const paymentIntent = paymentIntentOf(session);
  const basket = (await findBasketById(tx, context.operatorId, payment.basket_id!))!;
  const items = await listBasketItems(tx, basket.id);
  // Still counted for the guest: on hold in the database. A lapsed hold is released (expired) by the
  // first booking of its timeslot after it lapsed; until then its seats are nobody else's, so it may be
  // confirmed; once released, they may be sold, and confirming it could overbook.
  const why =
    basket.status !== 'open'
      ? 'the basket was paid already'
      : items.length === 0 || items.some((item) => item.status !== 'on_hold')
        ? 'the seats were no longer held'
        : session.amount_total !== Number(payment.amount) || session.currency?.toUpperCase() !== payment.currency.toUpperCase()
          ? "the amount paid is not the basket's"
          : undefined;
  if (why === undefined) {
    await changePaymentStatus(tx, payment.id, ['pending', 'expired'], 'succeeded', {
      providerReference: paymentIntent,
      allocations: await basketAllocations(tx, basket.id),
    });
    await completeOrder(tx, basket, items, paymentIntent ?? session.id, context.now);
    return undefined;
  }
  await changePaymentStatus(tx, payment.id, ['pending', 'expired'], 'refunding', { providerReference: paymentIntent, failure: `Refunded: ${why}` });
  return refundFollowUp(context, { ...payment, provider_reference: paymentIntent });
};

/** Refunds the payment in full through Stripe, once (the key is the payment's), then records the refund. */
function refundFollowUp(context: StripeEventContext, payment: PaymentRow): () => Promise<void> {
  return async () => {
    if (payment.provider_reference === null) throw new Error('The paid session names no PaymentIntent to refund');
    const refund = await createRefund(
      context.client(),
      {
        paymentIntent: payment.provider_reference,
        reason: 'requested_by_customer',
        metadata: { slotbook_operator_id: String(payment.operator_id), slotbook_payment_id: String(payment.id) },
      },
      `slotbook-refund-${payment.operator_id}-${payment.id}`,
    );
    await context.db.write((tx) => changePaymentStatus(tx, payment.id, ['refunding'], 'refunded', { refundReference: refund.id }));
  };
}

export const expireStripeCheckout: StripeEventHandler = async (tx, context) => {
  const session = context.event.data.object as CheckoutSession;
  const payment = await paymentOfSession(tx, context, session);
  if (!payment) return undefined;
  if (!(await changePaymentStatus(tx, payment.id, ['pending'], 'expired'))) context.ignore(`the payment is ${payment.status}`);
  return undefined;
};
