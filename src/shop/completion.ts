// Completing an order: the ONE confirmation of a paid basket, whoever took the money. The test provider's
// checkout calls it inside its own transaction right after the charge (checkout.ts); Stripe's webhook
// calls it inside the transaction that records the paid Checkout Session (stripe-settlement.ts). Either
// way, in one transaction: the basket becomes paid (once: of two completions, exactly one gets the row),
// every item's booking is confirmed (and the operator's workflows react), the waitlist offer the basket
// carried is claimed, and the order-completed usage entry and the order.completed webhook event are written.
import type { Tx } from '../db/connection.js';
import { Conflict } from '../http/errors.js';
import { changeStatus } from '../bookings/lifecycle/transitions.js';
import { recordUsage } from '../usage/service.js';
import { basketPaid, publishBookingChange } from '../events/reactions.js';
import { operatorListens, recordEvents } from '../events/outbox.js';
import { basketView } from './baskets.js';
import { findBasket, markBasketPaid, setPaymentReference, type BasketItemRecord, type BasketRow } from './store.js';
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
    const confirmed = await changeStatus(tx, item.booking_id, ['on_hold'], {
      status: 'confirmed',
      hold_expires_at: null,
      ...(paymentReference !== null && { payment_reference: paymentReference }),
    });
    // Only a concurrent cancellation or release of the hold gets here; the whole payment rolls back with it.
    if (!confirmed) throw new Conflict(`Booking ${item.reference} was cancelled meanwhile; nothing was charged`);
    await publishBookingChange(tx, { id: item.booking_id, operator_id: basket.operator_id }, 'confirmed', now);
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
