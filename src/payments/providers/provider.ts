// Payment providers, and which one charges a shop. The built-in `test` provider is local and synchronous
// and decides by card number, like a payment provider's test mode; Stripe is the operator's own account,
// paid on Stripe's Checkout page and confirmed by Stripe's webhook (docs/payments.md). Which provider
// charges a shop is decided here, once (shopPaymentProvider): the shop's settings (whether it opens) and
// checkout both ask it, so that no route can let the test provider take a payment.
import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import { DomainError } from '../../http/errors.js';
import type { PaymentProviderName } from '../schemas.js';

export interface ChargeRequest {
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  cardNumber: string;
  description: string;
}

export type ChargeResult = { status: 'succeeded'; reference: string } | { status: 'declined'; reason: string };

interface Provider {
  readonly name: PaymentProviderName;
  /** Whether it moves real money. A shop charged by one that does not is in test mode, and its pages say so. */
  readonly live: boolean;
}

/** Charges at once, inside the checkout's transaction (it calls nothing outside the process). */
export interface TestProvider extends Provider {
  readonly name: 'test';
  charge(request: ChargeRequest): Promise<ChargeResult>;
}

/** The guest pays on Stripe's Checkout page; Stripe's webhook confirms the basket. */
export interface StripeProvider extends Provider {
  readonly name: 'stripe';
}

export type PaymentProvider = TestProvider | StripeProvider;

/** The test cards (Stripe's numbers, so a developer recognises them). Any other number is declined. */
export const TEST_CARDS: Record<string, ChargeResult['status'] | string> = {
  '4242424242424242': 'succeeded',
  '4000000000000002': 'Your card was declined.',
  '4000000000009995': 'Your card has insufficient funds.',
};

export const testProvider: TestProvider = {
  name: 'test',
  live: false,
  async charge(request) {
    const outcome = TEST_CARDS[request.cardNumber];
    if (outcome === 'succeeded') return { status: 'succeeded', reference: `test_${randomBytes(12).toString('hex')}` };
    return { status: 'declined', reason: outcome ?? 'Only test cards are accepted in test mode (e.g. 4242424242424242).' };
  },
};

const stripeLive: StripeProvider = { name: 'stripe', live: true };
/** A test-mode key (sk_test_/rk_test_): Stripe moves no money, so the shop's pages say it is a test shop. */
const stripeTestMode: StripeProvider = { name: 'stripe', live: false };

/** What of the configuration decides the providers. */
export type PaymentConfig = Pick<Config, 'production'>;

/** What of a shop decides its provider: its test mode, and the Stripe account its operator connected. */
export interface ShopPaymentSetup {
  testMode: boolean;
  /** The connected account's key mode; undefined: no account connected. */
  stripe?: { liveMode: boolean };
}

/**
 * The provider that charges a shop's checkouts, or undefined: the shop has none, so it cannot sell (it does
 * not open, and checkout refuses). A shop its operator runs in test mode is charged by the test provider,
 * which accepts a public card number and moves no money; otherwise the operator's Stripe account, once
 * connected. Without either, outside production (no real money moves) the test provider charges every
 * shop; in production nothing does (else anyone confirmed seats for nothing).
 */
export function shopPaymentProvider(config: PaymentConfig, shop: ShopPaymentSetup): PaymentProvider | undefined {
  if (shop.testMode) return testProvider;
  if (shop.stripe) return shop.stripe.liveMode ? stripeLive : stripeTestMode;
  return config.production ? undefined : testProvider;
}

/** A declined card is the customer's to fix: 422 on the card field, and nothing is confirmed. */
export class PaymentDeclined extends DomainError {
  constructor(readonly reason: string) {
    super('validation', `The payment was declined: ${reason}`, [{ field: 'Payment.CardNumber', message: `The payment was declined: ${reason}` }]);
  }
}

/** Stripe could not be reached, or failed: nothing was charged, and the guest may try again. */
export class PaymentProviderUnavailable extends DomainError {
  constructor(message: string) {
    super('payment-provider-unavailable', message);
  }
}

/**
 * Stripe refused the request itself (a 4xx: the key, the account's settings, a parameter): retrying the same
 * request cannot help, so the guest is told so, and the server log keeps Stripe's reason for the operator.
 */
export class PaymentProviderRefused extends DomainError {
  constructor(message: string, providerReason: Record<string, unknown>) {
    super('payment-provider-refused', message);
    this.logContext = providerReason;
  }
}
