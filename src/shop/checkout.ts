// Checkout: paying a basket, once. Everything happens in ONE write transaction, so that either the
// payment succeeded and the order is complete (bookings confirmed, basket paid, order-completed entry
// written), or nothing of it exists but, for a declined card, the record of the declined attempt:
//   1. lock the payer's address (one payment per address at a time) and the basket's row, which must be
//      open (a concurrent second payment waits, then finds it paid -> 409; it is never charged twice), in
//      a shop with a payment provider (payments.ts: in production the test provider charges only a shop
//      in test mode; without one nothing is confirmed, free baskets included -> 409);
//   2. every item must still hold its seats (a lapsed hold: 409, nothing confirmed);
//   3. after repeated declines, wait (declines.ts: 429 with a growing Retry-After);
//   4. charge through the payment provider; declined: the attempt alone is recorded, then 422;
//   5. confirm the bookings (and queue the operator's confirmation workflows), record the payment, mark
//      the basket paid, close the waitlist offer the basket carried, and write the order-completed entry.
// Calling a provider inside a transaction suits the local `test` provider; a networked provider would
// authorise before and capture after the commit (docs/platform-events.md).
import type { Db, Tx } from '../db/connection.js';
import { tryLockForTransaction } from '../db/advisory-lock.js';
import { Conflict, ValidationFailed } from '../http/errors.js';
import { unixNow } from '../lib/clock.js';
import { changeStatus } from '../bookings/status.js';
import { runIdempotently, type WriteResult } from '../idempotency/service.js';
import type { InstanceKeys } from '../secrets/keys.js';
import { recordUsage } from '../usage/service.js';
import { publishBasketPaid, publishBookingChange } from '../events/reactions.js';
import { operatorListens, recordEvents } from '../events/outbox.js';
import { basketView, requireBasket } from './baskets.js';
import { refuseWhileDeclining } from './declines.js';
import { PaymentDeclined, type PaymentConfig } from './payments.js';
import { shopState } from './settings.js';
import {
  basketAmount,
  findBasket,
  insertPayment,
  listBasketItems,
  lockBasket,
  markBasketPaid,
  setPaymentReference,
  type BasketRow,
} from './store.js';
import type { CheckoutBody } from './schemas.js';

export interface CheckoutResult {
  result: WriteResult;
  replayed: boolean;
}

export interface Payer {
  /** HMAC of the paying client's address (client.ts). */
  clientHmac: string;
  /** The Idempotency-Key header, if sent. */
  idempotencyKey: string | undefined;
  /** The route's namespace in idempotency records. */
  route: string;
}

export async function checkout(
  db: Db,
  keys: InstanceKeys,
  config: PaymentConfig,
  operatorId: number,
  token: string,
  body: CheckoutBody,
  payer: Payer,
): Promise<CheckoutResult> {
  const basket = await requireBasket(db.kysely, operatorId, token);
  const now = unixNow();
  // The shop has no API key: an Idempotency-Key counts within its basket, so two shoppers who pick the same
  // key never see each other's answers. The card number is no part of the fingerprint: a retry with the same
  // key answers the first payment whatever card it names, and no record can be used to test a guess.
  const request = {
    operatorId,
    holder: `basket:${basket.id}`,
    route: payer.route,
    key: payer.idempotencyKey,
    fingerprint: [body.Payment?.Provider ?? null],
  };
  const outcome = await runIdempotently(db, keys, request, async (tx) => {
    const declined = await payBasket(tx, config, basket, body, payer.clientHmac, now);
    if (declined !== undefined) return { statusCode: 422, body: declined };
    const paid = await requireBasket(tx, operatorId, token);
    return { statusCode: 200, body: { data: await basketView(tx, paid, now) } };
  });
  // The declined attempt is committed (it counts towards the waits of declines.ts); the answer is a 422.
  if (outcome.result.statusCode === 422) throw new PaymentDeclined(outcome.result.body as string);
  return outcome;
}

/** Pays the basket, or records a declined attempt and answers its reason. */
async function payBasket(
  tx: Tx,
  config: PaymentConfig,
  basket: BasketRow,
  body: CheckoutBody,
  clientHmac: string,
  now: number,
): Promise<string | undefined> {
  // Card testers pay many baskets at once from one address: one payment per address at a time (the others
  // are refused at once rather than queued, so that they hold no database connection while they wait).
  if (!(await tryLockForTransaction(tx, `payer:${clientHmac}`)))
    throw new Conflict('Another payment from your network is in progress; retry in a moment');
  await lockBasket(tx, basket.id);
  const current = await requireBasket(tx, basket.operator_id, basket.token);
  if (current.status !== 'open') throw new Conflict('This basket is already paid; a basket is paid once');
  // Asked here, not in a route, so that every payment passes it: a shop that nothing charges sells nothing.
  const { provider } = await shopState(tx, basket.operator_id, config);
  if (!provider) throw new Conflict('This shop takes no payments at the moment; nothing was charged or booked');

  const items = await listBasketItems(tx, basket.id);
  if (items.length === 0) throw new Conflict('The basket is empty: add a timeslot before checking out');
  for (const item of items) {
    const live = item.status === 'on_hold' && item.hold_expires_at !== null && Number(item.hold_expires_at) > now;
    if (!live) {
      throw new Conflict(
        `The seats of ${item.reference} (${item.activity_name}, ${item.date} ${item.time}) are no longer held for you; nothing was charged. Remove it or start a new basket.`,
      );
    }
  }

  const amount = await basketAmount(tx, basket.id);
  const currency = current.currency ?? '';
  let reference: string | null = null;
  if (amount > 0) {
    if (!body.Payment)
      throw ValidationFailed.field('Payment', `Payment is required: the basket costs ${amount} (minor units of ${current.currency})`);
    if (body.Payment.Provider !== provider.name)
      throw ValidationFailed.field('Payment.Provider', `This shop takes payments through ${provider.name}`);
    await refuseWhileDeclining(tx, basket.id, clientHmac, Date.now());
    const charge = await provider.charge({ amount, currency, cardNumber: body.Payment.CardNumber, description: `Basket ${basket.id}` });
    const attempt = { operatorId: basket.operator_id, basketId: basket.id, provider: provider.name, amount, currency, clientHmac };
    if (charge.status === 'declined') {
      await insertPayment(tx, { ...attempt, status: 'declined', reference: null, failure: charge.reason });
      return charge.reason;
    }
    reference = charge.reference;
    await insertPayment(tx, { ...attempt, status: 'succeeded', reference, failure: null });
  }

  if (!(await markBasketPaid(tx, basket.id))) throw new Conflict('This basket is already paid; a basket is paid once');
  for (const item of items) {
    const confirmed = await changeStatus(tx, item.booking_id, ['on_hold'], { status: 'confirmed', hold_expires_at: null });
    // Only a concurrent cancellation of the hold gets here; the whole payment rolls back with it.
    if (!confirmed) throw new Conflict(`Booking ${item.reference} was cancelled meanwhile; nothing was charged`);
    await publishBookingChange(tx, { id: item.booking_id, operator_id: basket.operator_id }, 'confirmed', now);
  }
  await setPaymentReference(tx, basket.id, reference);
  await publishBasketPaid(tx, basket);
  await recordUsage(tx, basket.operator_id, {
    meter: 'order-completed',
    micros: 1_000_000n,
    extraInfo: JSON.stringify({ BasketID: basket.id }),
    occurredAt: now,
  });
  await recordOrderCompleted(tx, basket, now);
  return undefined;
}

/**
 * order.completed (webhooks): the paid basket as the shop shows it, with its ID (as in order-completed) and
 * without its token, which is the customer's key to it and no business of the operator's systems.
 */
async function recordOrderCompleted(tx: Tx, basket: BasketRow, now: number): Promise<void> {
  if (!(await operatorListens(tx, basket.operator_id))) return;
  const { BasketToken: _token, ...order } = await basketView(tx, (await findBasket(tx, basket.operator_id, basket.token))!, now);
  await recordEvents(tx, basket.operator_id, [
    { type: 'order.completed', resource: `order:${basket.id}`, audience: 'operator', data: JSON.stringify({ BasketID: basket.id, ...order }) },
  ]);
}
