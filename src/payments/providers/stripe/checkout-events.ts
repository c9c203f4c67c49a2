// Reading Stripe's Checkout events for a basket (handlers of events.ts, wired in src/reactions.ts): which
// payment a session pays, the follow-up that refunds a paid session nothing may be confirmed for, and an
// expired session. What a paid session does to the basket (complete it, once) is the complete-payment flow
// (src/flows/complete-payment.ts); a session of another operator or an unknown basket changes nothing
// (acknowledged, so Stripe stops).
import type { Tx } from '../../../db/connection.js';
import type { StripeEventContext, StripeEventHandler } from './events.js';
import { changePaymentStatus, findPayment, findPaymentBySession, recordCheckoutSession, type PaymentRow } from '../../index.js';
import { createRefund, type CheckoutSession } from './gateway.js';

export const PAID_SESSION_EVENTS = ['checkout.session.completed', 'checkout.session.async_payment_succeeded'] as const;
export const EXPIRED_SESSION_EVENTS = ['checkout.session.expired'] as const;

/** The payment a session of this operator pays, by the session's id, else by the payment its metadata names. */
export async function paymentOfSession(tx: Tx, context: StripeEventContext, session: CheckoutSession): Promise<PaymentRow | undefined> {
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

export const paymentIntentOf = (session: CheckoutSession): string | null =>
  typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null);

/** Refunds the payment in full through Stripe, once (the key is the payment's), then records the refund. */
export function refundFollowUp(context: StripeEventContext, payment: PaymentRow): () => Promise<void> {
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
