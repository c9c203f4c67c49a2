// Completing a payment: the ONE confirmation of a paid basket, whoever took the money. The test provider's
// checkout calls completeOrder inside its own transaction right after the charge (checkout.ts); Stripe's
// webhook runs settleStripeCheckout inside the transaction that records the paid Checkout Session. Either
// way, in one transaction: the payment succeeds with its allocations to the basket's bookings, the basket
// becomes paid (once: of two completions, exactly one gets the row), every item's booking is confirmed (and
// the operator's workflows react), the waitlists claim an offer the basket carried (the basketPaid hook), and
// the order-completed usage entry and the order.completed webhook event are written.
// A paid session whose seats are no longer counted for it (a hold released after it lapsed, then perhaps
// sold; a basket already paid) confirms nothing, so nothing is overbooked: the payment is recorded as
// refunding and refunded in full after the commit (payments/providers/stripe/checkout-events.ts).
import type { Tx } from '../db/connection.js';
import { Conflict } from '../http/errors.js';
import { confirmPaidHold } from '../bookings/index.js';
import { recordUsage } from '../usage/service.js';
import { basketPaid } from '../hooks/platform-hooks.js';
import { operatorListens, recordEvents } from '../events/outbox.js';
import { changePaymentStatus, lockPayment } from '../payments/index.js';
import type { StripeEventHandler } from '../payments/providers/stripe/events.js';
import { paymentIntentOf, paymentOfSession, refundFollowUp } from '../payments/providers/stripe/checkout-events.js';
import type { CheckoutSession } from '../payments/providers/stripe/gateway.js';
import {
  basketAllocations,
  basketView,
  findBasket,
  findBasketById,
  listBasketItems,
  lockBasket,
  markBasketPaid,
  setPaymentReference,
  type BasketItemRecord,
  type BasketRow,
} from '../shop/index.js';
import type { UnixSeconds } from '../lib/clock.js';

/**
 * Confirms the paid basket's bookings, which must all still be on hold (the caller checked that their seats
 * are still counted: a live hold, or for Stripe a lapsed one whose seats nobody released). Throws Conflict,
 * rolling the whole transaction back, when the basket was paid or a booking left its hold meanwhile.
 */
export async function completeOrder(
  tx: Tx,
  basket: BasketRow,
  items: BasketItemRecord[],
  paymentReference: string | null,
  now: UnixSeconds,
): Promise<void> {
  if (!(await markBasketPaid(tx, basket.id))) throw new Conflict('This basket is already paid; a basket is paid once');
  for (const item of items) {
    // The payment's reference (Stripe's pi_..., the test provider's) is each booking's, as a partner's is.
    // Only a concurrent cancellation or release of the hold fails here; the whole payment rolls back with it.
    if (!(await confirmPaidHold(tx, { id: item.booking_id, operator_id: basket.operator_id }, paymentReference, now)))
      throw new Conflict(`Booking ${item.reference} was cancelled meanwhile; nothing was charged`);
  }
  await setPaymentReference(tx, basket.id, paymentReference);
  await basketPaid.run(tx, basket);
  await recordUsage(tx, basket.operator_id, {
    meter: 'order-completed',
    micros: 1_000_000n,
    extraInfo: JSON.stringify({ BasketID: basket.id }),
    occurredAt: now,
  });
  await recordOrderCompleted(tx, basket, now);
}

/**
 * order.completed (webhooks): the paid basket as the shop shows it, with its ID (as in order-completed) and
 * without its token, which is the customer's key to it and no business of the operator's systems.
 */
async function recordOrderCompleted(tx: Tx, basket: BasketRow, now: UnixSeconds): Promise<void> {
  if (!(await operatorListens(tx, basket.operator_id))) return;
  const { BasketToken: _token, ...order } = await basketView(tx, (await findBasket(tx, basket.operator_id, basket.token))!, now);
  await recordEvents(tx, basket.operator_id, [
    { type: 'order.completed', resource: `order:${basket.id}`, audience: 'operator', data: JSON.stringify({ BasketID: basket.id, ...order }) },
  ]);
}

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
