// Checkout: paying a basket, once. Everything happens in ONE write transaction, so that either the
// payment succeeded and the order is complete (bookings confirmed, basket paid, order-completed entry
// written), or nothing of it exists but, for a declined card, the record of the declined attempt:
//   1. lock the payer's address (one payment per address at a time) and the basket's row, which must be
//      open (a concurrent second payment waits, then finds it paid -> 409; it is never charged twice), in
//      a shop with a payment provider (payments/: in production the test provider charges only a shop
//      in test mode; without one nothing is confirmed, free baskets included -> 409);
//   2. every item must still hold its seats (a lapsed hold: 409, nothing confirmed);
//   3. after repeated declines, wait (payments/declines.ts: 429 with a growing Retry-After);
//   4. charge through the payment provider; declined: the attempt alone is recorded, then 422;
//   5. record the payment and complete the order (complete-payment.ts, the same as Stripe's webhook does: confirm
//      the bookings, mark the basket paid, claim its waitlist offer, write the order-completed entry).
// Calling a provider inside a transaction suits the local `test` provider only. Stripe is paid on Stripe's
// page and confirmed by its webhook: a checkout naming it goes to stripe-checkout.ts (docs/payments.md).
import type { Db, Tx } from '../db/connection.js';
import { tryLockForTransaction } from '../db/advisory-lock.js';
import { Conflict, ValidationFailed } from '../http/errors.js';
import { nowMillis, unixNow, type UnixSeconds } from '../lib/clock.js';
import { runIdempotently, type WriteResult } from '../idempotency/service.js';
import type { InstanceKeys } from '../secrets/keys.js';
import { insertPayment } from '../payments/index.js';
import { PaymentDeclined } from '../payments/providers/provider.js';
import type { StripeSettings } from '../payments/providers/stripe/gateway.js';
import type { PaymentConfig } from '../payments/providers/provider.js';
import { basketView, requireBasket, requireHeldItems, type HoldSettings } from '../shop/baskets.js';
import { refuseWhileDeclining } from '../payments/declines.js';
import { shopState } from '../shop/settings.js';
import { basketAllocations, basketAmount, lockBasket, type BasketRow } from '../shop/index.js';
import { completeOrder } from './complete-payment.js';
import { stripeCheckout } from './stripe-checkout.js';
import { acceptShopTerms } from '../shop/terms.js';
import type { CheckoutBody } from '../shop/schemas.js';

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

/** What checkout needs of the configuration: who charges, how long seats may be held, where Stripe is. */
export type CheckoutConfig = PaymentConfig & HoldSettings & StripeSettings & { publicUrl: string };

export async function checkout(
  db: Db,
  keys: InstanceKeys,
  config: CheckoutConfig,
  operatorId: number,
  token: string,
  body: CheckoutBody,
  payer: Payer,
): Promise<CheckoutResult> {
  // The shop's terms first: nothing is charged for a guest who has not accepted them.
  await acceptShopTerms(db, operatorId, token, body.AcceptTerms);
  // Stripe's checkout answers a session to pay on Stripe's page, made outside any transaction; a retry
  // answers the same session (stripe-checkout.ts), so it needs no idempotency record of its own.
  if (body.Payment?.Provider === 'stripe') {
    return {
      result: { statusCode: 200, body: { data: await stripeCheckout(db, keys, config, operatorId, token, payer.clientHmac) } },
      replayed: false,
    };
  }
  // The test provider's card is part of the request's shape, refused before anything is looked at, as when
  // the schema required it (only Stripe's checkout goes without one).
  if (body.Payment !== undefined && body.Payment.CardNumber === undefined)
    throw ValidationFailed.field('Payment.CardNumber', 'CardNumber is required with the test provider');
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
  // The declined attempt is committed (it counts towards the waits of payments/declines.ts); the answer is a 422.
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
  now: UnixSeconds,
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

  const items = await requireHeldItems(tx, basket.id, now);

  const amount = await basketAmount(tx, basket.id);
  const currency = current.currency ?? '';
  let reference: string | null = null;
  if (amount > 0) {
    if (!body.Payment)
      throw ValidationFailed.field('Payment', `Payment is required: the basket costs ${amount} (minor units of ${current.currency})`);
    if (body.Payment.Provider !== provider.name || provider.name !== 'test')
      throw ValidationFailed.field('Payment.Provider', `This shop takes payments through ${provider.name}`);
    await refuseWhileDeclining(tx, { basketId: basket.id }, clientHmac, nowMillis());
    const charge = await provider.charge({ amount, currency, cardNumber: body.Payment.CardNumber ?? '', description: `Basket ${basket.id}` });
    const attempt = { operatorId: basket.operator_id, basketId: basket.id, provider: provider.name, amount, currency, clientHmac };
    if (charge.status === 'declined') {
      await insertPayment(tx, { ...attempt, status: 'declined', reference: null, failure: charge.reason });
      return charge.reason;
    }
    reference = charge.reference;
    await insertPayment(tx, { ...attempt, status: 'succeeded', reference, failure: null, allocations: await basketAllocations(tx, basket.id) });
  }

  await completeOrder(tx, basket, items, reference, now);
  return undefined;
}
