// Payment providers. Checkout talks to a provider only through this interface; the built-in `test`
// provider is local and synchronous and decides by card number, like a payment provider's test mode.
import { randomBytes } from 'node:crypto';
import { DomainError } from '../http/errors.js';

export interface ChargeRequest {
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  cardNumber: string;
  description: string;
}

export type ChargeResult = { status: 'succeeded'; reference: string } | { status: 'declined'; reason: string };

export interface PaymentProvider {
  readonly name: string;
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
  async charge(request) {
    const outcome = TEST_CARDS[request.cardNumber];
    if (outcome === 'succeeded') return { status: 'succeeded', reference: `test_${randomBytes(12).toString('hex')}` };
    return { status: 'declined', reason: outcome ?? 'Only test cards are accepted in test mode (e.g. 4242424242424242).' };
  },
};

const PROVIDERS: Record<string, PaymentProvider> = { test: testProvider };

export function paymentProvider(name: string): PaymentProvider {
  const provider = PROVIDERS[name];
  if (!provider) throw new Error(`No payment provider "${name}"`);
  return provider;
}

/** A declined card is the customer's to fix: 422 on the card field, and nothing is confirmed. */
export class PaymentDeclined extends DomainError {
  constructor(readonly reason: string) {
    super('validation', `The payment was declined: ${reason}`, [{ field: 'Payment.CardNumber', message: `The payment was declined: ${reason}` }]);
  }
}
