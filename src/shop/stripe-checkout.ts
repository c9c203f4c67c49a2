// Checkout through the operator's Stripe account: the guest pays on Stripe's Checkout page, and Stripe's
// webhook confirms the basket (stripe-settlement.ts). Here, in order:
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
import { extendHoldUntil } from '../bookings/lifecycle/transitions.js';
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
import {
  accountClient,
  createCheckoutSession,
  paymentStartFailure,
  type CheckoutSessionRequest,
  type StripeSettings,
} from '../payments/providers/stripe/gateway.js';
import { basketView, requireBasket, requireHeldItems, type HoldSettings } from './baskets.js';
import { shopState } from './settings.js';
import { basketAmount, lockBasket, markCheckoutStarted, type BasketItemRecord } from './store.js';
import { completeOrder } from './completion.js';
import type { Basket } from './schemas.js';

/** Stripe refuses a Checkout Session that expires sooner than 30 minutes after it is made; a minute spare. */
export const SESSION_SECONDS = 31 * 60;
/** The seats stay held this long after the session expires: a payment made in its last second still finds them. */
export const HOLD_MARGIN_SECONDS = 5 * 60;
/** A pending payment whose session was never recorded (Stripe did not answer) is retried with its key this long. */
const RETRY_SAME_KEY_SECONDS = 5 * 60;
/** A session closer than this to its expiry is not handed out again: the guest could not finish paying. */
const SESSION_REUSE_MARGIN_SECONDS = 5 * 60;

export type StripeCheckoutConfig = PaymentConfig & HoldSettings & StripeSettings & { publicUrl: string };

/** The idempotency key of a payment's Checkout Session: the same payment always gets the same session. */
export const sessionIdempotencyKey = (payment: Pick<PaymentRow, 'operator_id' | 'id'>): string =>
  `slotbook-checkout-${payment.operator_id}-${payment.id}`;

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
    const holdUntil = addSeconds(expiresAt, HOLD_MARGIN_SECONDS);
    for (const item of items) {
      const ceiling = holdCeiling(item.booking_created_at, config.holdMaxLifetimeMinutes);
      if (holdUntil > ceiling) {
        throw new Conflict(
          `The seats of ${item.reference} cannot be held long enough for a payment on Stripe's page (${Math.ceil((holdUntil - now) / 60)} minutes; ` +
            `a hold lasts at most ${config.holdMaxLifetimeMinutes} minutes from when it was made). Nothing was charged: start a new basket.`,
        );
      }
      if (Number(item.hold_expires_at) < holdUntil) await extendHoldUntil(tx, item.booking_id, holdUntil, now);
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

/**
 * What Stripe is asked for: one line per booking (its tickets' total, in minor units as slotbook keeps
 * them: Stripe's minor units too, zero-decimal currencies such as JPY included), the basket's currency,
 * the guest's e-mail, the operator and basket in client_reference_id and metadata (the webhook checks
 * them), and the booking pages as the way back. Built only from stored values, so a retry sends the same.
 */
function sessionRequest(
  payment: PaymentRow,
  items: PricedItem[],
  basket: { id: number; token: string; customer_email: string },
  pages: string,
  shopName: string,
): CheckoutSessionRequest {
  const metadata = {
    slotbook_operator_id: String(payment.operator_id),
    slotbook_basket_id: String(basket.id),
    slotbook_payment_id: String(payment.id),
  };
  return {
    mode: 'payment',
    line_items: items.map((item) => ({
      quantity: 1,
      price_data: {
        currency: payment.currency.toLowerCase(),
        unit_amount: item.amount,
        product_data: {
          name: `${item.deposit === null ? '' : 'Deposit: '}${item.activity_name}, ${item.date} ${item.time}`,
          description: `${shopName}: booking ${item.reference}${item.deposit === null ? '' : ' (the balance is paid later)'}`,
        },
      },
    })),
    customer_email: basket.customer_email,
    client_reference_id: `${payment.operator_id}:${basket.id}`,
    metadata,
    payment_intent_data: { metadata, description: `${shopName}: basket ${basket.id}` },
    expires_at: Number(payment.session_expires_at),
    success_url: `${pages}/confirmation/${basket.token}?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${pages}/basket/${basket.token}`,
  };
}
