// Payment providers. Checkout talks to a provider only through this interface; the built-in `test`
// provider is local and synchronous and decides by card number, like a payment provider's test mode.
// Which provider charges a shop is decided here, once (shopPaymentProvider): the shop's settings (whether
// it opens) and checkout both ask it, so that no route can let the test provider take a payment.
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import { DomainError } from '../http/errors.js';
import type { PaymentProviderName } from './schemas.js';

export interface ChargeRequest {
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  cardNumber: string;
  description: string;
}

export type ChargeResult = { status: 'succeeded'; reference: string } | { status: 'declined'; reason: string };

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** Whether it moves real money. A shop charged by one that does not is in test mode, and its pages say so. */
  readonly live: boolean;
  charge(request: ChargeRequest): Promise<ChargeResult>;
}

/** The test cards (Stripe's numbers, so a developer recognises them). Any other number is declined. */
export const TEST_CARDS: Record<string, ChargeResult['status'] | string> = {
  '4242424242424242': 'succeeded',
  '4000000000000002': 'Your card was declined.',
  '4000000000009995': 'Your card has insufficient funds.',
};

export const testProvider: PaymentProvider = {
  name: 'test',
  live: false,
  async charge(request) {
    const outcome = TEST_CARDS[request.cardNumber];
    if (outcome === 'succeeded') return { status: 'succeeded', reference: `test_${randomBytes(12).toString('hex')}` };
    return { status: 'declined', reason: outcome ?? 'Only test cards are accepted in test mode (e.g. 4242424242424242).' };
  },
};

/** What of the configuration decides the providers (a real provider's credentials will join it). */
export type PaymentConfig = Pick<Config, 'production'>;

/**
 * The provider that charges a shop's checkouts, or undefined: the shop has none, so it cannot sell (it does
 * not open, and checkout refuses). The test provider accepts a public card number and moves no money: in
 * production it charges only in a shop its operator explicitly runs in test mode (else anyone confirmed
 * seats for nothing, issue 23); outside production, where no real money moves, it charges every shop. No
 * real provider exists yet, so in production only a test-mode shop can sell.
 */
export function shopPaymentProvider(config: PaymentConfig, shop: { testMode: boolean }): PaymentProvider | undefined {
  return shop.testMode || !config.production ? testProvider : undefined;
}

/** A declined card is the customer's to fix: 422 on the card field, and nothing is confirmed. */
export class PaymentDeclined extends DomainError {
  constructor(readonly reason: string) {
    super('validation', `The payment was declined: ${reason}`, [{ field: 'Payment.CardNumber', message: `The payment was declined: ${reason}` }]);
  }
}
