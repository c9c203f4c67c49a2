// Checkout: paying a basket, once. Everything happens in ONE write transaction, so that either the
// payment succeeded and the order is complete (bookings confirmed, basket paid, order-completed entry
// written), or nothing of it exists:
//   1. basket open -> paid (conditional update: the row lock also makes a concurrent second payment wait,
//      then find the basket paid -> 409; it is never charged twice);
//   2. every item must still hold its seats (a lapsed hold: 409, nothing confirmed);
//   3. charge through the payment provider (declined: 422, rolled back; the attempt is recorded after);
//   4. confirm the bookings (and queue the operator's confirmation workflows), record the payment,
//      close the waitlist offer the basket carried, and write the order-completed entry.
// Calling a provider inside a transaction suits the local `test` provider; a networked provider would
// authorise before and capture after the commit (docs/platform-events.md).
import { createHash } from 'node:crypto';
import type { Db, Tx } from '../db/connection.js';
import { Conflict, ValidationFailed } from '../http/errors.js';
import { unixNow } from '../availability/seats.js';
import { changeStatus } from '../bookings/store.js';
import { runIdempotently, MAX_KEY_LENGTH, type WriteResult } from '../idempotency/service.js';
import { recordUsage } from '../usage/service.js';
import { enqueueBookingEvent } from '../workflows/events.js';
import { markOfferClaimed } from '../waitlists/store.js';
import { basketView, requireBasket } from './baskets.js';
import { PaymentDeclined, paymentProvider } from './payments.js';
import { basketAmount, insertPayment, listBasketItems, markBasketPaid, setPaymentReference, type BasketRow } from './store.js';
import type { CheckoutBody } from './schemas.js';

export interface CheckoutResult {
  result: WriteResult;
  replayed: boolean;
}

export async function checkout(db: Db, operatorId: number, token: string, body: CheckoutBody, idempotencyKey: string | undefined): Promise<CheckoutResult> {
  const basket = await requireBasket(db.kysely, operatorId, token);
  if (idempotencyKey !== undefined && (idempotencyKey.length < 1 || idempotencyKey.length > MAX_KEY_LENGTH)) {
    throw ValidationFailed.field('Idempotency-Key', `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters`);
  }
  // The shop has no API key to scope keys by: a key counts within its basket, so two shoppers who happen
  // to pick the same key never see each other's answers.
  const key = idempotencyKey === undefined ? undefined : `shop:${basket.id}:${createHash('sha256').update(idempotencyKey).digest('hex')}`;
  const now = unixNow();
  try {
    return await runIdempotently(db, { operatorId, key, fingerprint: ['checkout', token, body] }, async (tx) => {
      await payBasket(tx, basket, body, now);
      const paid = await requireBasket(tx, operatorId, token);
      return { statusCode: 200, body: { data: await basketView(tx, paid, now) } };
    });
  } catch (error) {
    if (error instanceof PaymentDeclined) await recordDeclinedAttempt(db, basket, body, error.reason);
    throw error;
  }
}

async function payBasket(tx: Tx, basket: BasketRow, body: CheckoutBody, now: number): Promise<void> {
  if (!(await markBasketPaid(tx, basket.id))) throw new Conflict('This basket is already paid; a basket is paid once');

  const items = await listBasketItems(tx, basket.id);
  if (items.length === 0) throw new Conflict('The basket is empty: add a timeslot before checking out');
  for (const item of items) {
    const live = item.status === 'on_hold' && item.hold_expires_at !== null && Number(item.hold_expires_at) > now;
    if (!live) {
      throw new Conflict(`The seats of ${item.reference} (${item.activity_name}, ${item.date} ${item.time}) are no longer held for you; nothing was charged. Remove it or start a new basket.`);
    }
  }

  const amount = await basketAmount(tx, basket.id);
  let reference: string | null = null;
  if (amount > 0) {
    if (!body.Payment) throw ValidationFailed.field('Payment', `Payment is required: the basket costs ${amount} (minor units of ${basket.currency})`);
    const provider = paymentProvider(body.Payment.Provider);
    const charge = await provider.charge({ amount, currency: basket.currency ?? '', cardNumber: body.Payment.CardNumber, description: `Basket ${basket.id}` });
    if (charge.status === 'declined') throw new PaymentDeclined(charge.reason);
    reference = charge.reference;
    await insertPayment(tx, { operatorId: basket.operator_id, basketId: basket.id, provider: provider.name, status: 'succeeded', amount, currency: basket.currency ?? '', reference, failure: null });
  }

  for (const item of items) {
    const confirmed = await changeStatus(tx, item.booking_id, ['on_hold'], { status: 'confirmed', hold_expires_at: null });
    // Only a concurrent cancellation of the hold gets here; the whole payment rolls back with it.
    if (!confirmed) throw new Conflict(`Booking ${item.reference} was cancelled meanwhile; nothing was charged`);
    await enqueueBookingEvent(tx, { id: item.booking_id, operator_id: basket.operator_id }, 'confirmed', now);
  }
  await setPaymentReference(tx, basket.id, reference);
  await markOfferClaimed(tx, basket.id);
  await recordUsage(tx, basket.operator_id, { meter: 'order-completed', micros: 1_000_000n, extraInfo: JSON.stringify({ BasketID: basket.id }), occurredAt: now });
}

async function recordDeclinedAttempt(db: Db, basket: BasketRow, body: CheckoutBody, reason: string): Promise<void> {
  const amount = await basketAmount(db.kysely, basket.id);
  await db.write((tx) =>
    insertPayment(tx, {
      operatorId: basket.operator_id,
      basketId: basket.id,
      provider: body.Payment?.Provider ?? 'test',
      status: 'declined',
      amount,
      currency: basket.currency ?? '',
      reference: null,
      failure: reason,
    }),
  );
}
