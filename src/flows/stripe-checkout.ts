// Checkout through the operator's Stripe account: the guest pays on Stripe's Checkout page, and Stripe's
// webhook confirms the basket (flows/complete-payment.ts). Here, in order:
//   1. in one transaction: lock the basket, which must be open in a shop that Stripe charges, with every
//      hold live; hold the seats until the session expires and a few minutes more (Stripe's sessions last
//      at least 30 minutes; never beyond HOLD_MAX_LIFETIME_MINUTES: 409 when that is too short), mark the
//      checkout begun (no more items), and record a pending payment. A pending payment whose session is
//      still open is answered again instead: a retry (or the guest back from Stripe's cancel page) pays the
//      same session;
//   2. outside any transaction, create the Checkout Session with an idempotency key of that payment, so a
//      retry after a lost answer gets the same session from Stripe;
//   3. record the session's id and address on the payment, and answer the basket awaiting payment.
import type { Kysely } from 'kysely';
import type { Db } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { bookingTicketsOf } from '../catalog/index.js';
import { Conflict, ValidationFailed } from '../http/errors.js';
import { addSeconds, unixNow } from '../lib/clock.js';
import { holdCeiling } from '../bookings/index.js';
import { holdUntil } from '../bookings/index.js';
import type { InstanceKeys } from '../secrets/keys.js';
import { requireShopProfile } from '../settings/profile.js';
import { bookingPagesUrl } from '../settings/links.js';
import { PaymentProviderUnavailable, type PaymentConfig } from '../payments/providers/provider.js';
import { refuseBelowCardMinimum } from '../payments/providers/stripe/minimum.js';
import {
  changePaymentStatus,
  findStripeAccount,
  insertPayment,
  latestBasketPayment,
  recordCheckoutSession,
  type PaymentRow,
} from '../payments/index.js';
import { accountClient, createCheckoutSession, paymentStartFailure, type StripeSettings } from '../payments/providers/stripe/gateway.js';
import {
  HOLD_MARGIN_SECONDS,
  RETRY_SAME_KEY_SECONDS,
  SESSION_REUSE_MARGIN_SECONDS,
  SESSION_SECONDS,
  sessionIdempotencyKey,
  sessionRequest,
} from '../payments/providers/stripe/checkout.js';
import { basketView, requireBasket, requireHeldItems, type HoldSettings } from '../shop/baskets.js';
import { shopState } from '../shop/settings.js';
import { basketAmount, lockBasket, markCheckoutStarted, type BasketItemRecord } from '../shop/index.js';
import { completeOrder } from './complete-payment.js';
import type { Basket } from '../shop/schemas.js';

export type StripeCheckoutConfig = PaymentConfig & HoldSettings & StripeSettings & { publicUrl: string };

type Prepared = { kind: 'reuse' } | { kind: 'paid' } | { kind: 'create'; payment: PaymentRow; items: PricedItem[] };

export async function stripeCheckout(
  db: Db,
  keys: InstanceKeys,
  config: StripeCheckoutConfig,
  operatorId: number,
  token: string,
  clientHmac: string,
): Promise<Basket> {
  const basket = await requireBasket(db.kysely, operatorId, token);
  const now = unixNow();
  const prepared = await db.write(async (tx): Promise<Prepared> => {
    await lockBasket(tx, basket.id);
    const current = await requireBasket(tx, operatorId, token);
    if (current.status !== 'open') throw new Conflict('This basket is already paid; a basket is paid once');
    const { provider } = await shopState(tx, operatorId, config);
    if (!provider) throw new Conflict('This shop takes no payments at the moment; nothing was charged or booked');
    if (provider.name !== 'stripe') throw ValidationFailed.field('Payment.Provider', `This shop takes payments through ${provider.name}`);

    const items = await requireHeldItems(tx, basket.id, now);

    const latest = await latestBasketPayment(tx, basket.id, 'stripe');
    if (latest?.status === 'pending') {
      const expiresAt = Number(latest.session_expires_at);
      if (latest.checkout_session_id !== null && expiresAt - now > SESSION_REUSE_MARGIN_SECONDS) return { kind: 'reuse' };
      if (latest.checkout_session_id === null && now - Math.floor(Number(latest.created_at) / 1000) < RETRY_SAME_KEY_SECONDS)
        return { kind: 'create', payment: latest, items: await priced(tx, items) };
      // Too close to its end to pay, or never made: a new session, under a new payment (and key).
      await changePaymentStatus(tx, latest.id, ['pending'], 'expired');
    }

    const amount = await basketAmount(tx, basket.id);
    // Nothing to pay (every ticket free): Stripe makes no session for 0, and none is needed.
    if (amount === 0) {
      await completeOrder(tx, current, items, null, now);
      return { kind: 'paid' };
    }

    refuseBelowCardMinimum(amount, current.currency ?? '', 'Payment');
    const expiresAt = addSeconds(now, SESSION_SECONDS);
    const heldUntil = addSeconds(expiresAt, HOLD_MARGIN_SECONDS);
    for (const item of items) {
      const ceiling = holdCeiling(item.booking_created_at, config.holdMaxLifetimeMinutes);
      if (heldUntil > ceiling) {
        throw new Conflict(
          `The seats of ${item.reference} cannot be held long enough for a payment on Stripe's page (${Math.ceil((heldUntil - now) / 60)} minutes; ` +
            `a hold lasts at most ${config.holdMaxLifetimeMinutes} minutes from when it was made). Nothing was charged: start a new basket.`,
        );
      }
      if (Number(item.hold_expires_at) < heldUntil) await holdUntil(tx, item.booking_id, heldUntil, now);
    }
    await markCheckoutStarted(tx, basket.id, now);
    const payment = await insertPayment(tx, {
      operatorId,
      basketId: basket.id,
      provider: 'stripe',
      status: 'pending',
      amount,
      currency: current.currency ?? '',
      reference: null,
      failure: null,
      clientHmac,
      // Kept with the payment, so that a retry sends Stripe the very same request.
      sessionExpiresAt: expiresAt,
    });
    return { kind: 'create', payment, items: await priced(tx, items) };
  });

  if (prepared.kind === 'create') {
    const account = await findStripeAccount(db.kysely, operatorId);
    if (!account) throw new Conflict('This shop takes no payments at the moment; nothing was charged or booked');
    const profile = await requireShopProfile(db.kysely, operatorId, config.publicUrl);
    const pages = bookingPagesUrl(config.publicUrl, profile.slug);
    const request = sessionRequest(prepared.payment, prepared.items, basket, pages, profile.name);
    let session: Awaited<ReturnType<typeof createCheckoutSession>>;
    try {
      session = await createCheckoutSession(accountClient(config, keys, account), request, sessionIdempotencyKey(prepared.payment));
    } catch (error) {
      throw paymentStartFailure(error, ', and your seats stay held');
    }
    if (session.url === null) throw new PaymentProviderUnavailable('Stripe answered no payment page; nothing was charged. Try again in a moment.');
    await db.write((tx) => recordCheckoutSession(tx, prepared.payment.id, { id: session.id, url: session.url!, expiresAt: session.expires_at }));
  }
  return basketView(db.kysely, await requireBasket(db.kysely, operatorId, token));
}

type PricedItem = BasketItemRecord & { amount: number };

/** Each item with what it charges now (minor units): its deposit, or its tickets together, as basketAmount counts them. */
async function priced(db: Kysely<Database>, items: BasketItemRecord[]): Promise<PricedItem[]> {
  const tickets = await bookingTicketsOf(
    db,
    items.map((item) => item.booking_id),
  );
  return items.map((item) => ({
    ...item,
    amount:
      item.deposit === null
        ? (tickets.get(item.booking_id) ?? []).reduce((sum, ticket) => sum + Number(ticket.quantity) * Number(ticket.unit_price), 0)
        : Number(item.deposit),
  }));
}
