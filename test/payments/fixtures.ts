// Shared set-up for the Stripe tests: the local Stripe-compatible server, an app that talks to it
// (STRIPE_API_BASE) and whose webhook receives its events through app.inject, and connecting accounts.
import { expect } from 'vitest';
import { call, createTestApp, PUBLIC_URL, type TestApp } from '../helpers/app.js';
import { startStripeServer, type StripeTestAccount, type StripeTestServer } from '../helpers/stripe-server.js';

export interface StripeWorld {
  t: TestApp;
  stripe: StripeTestServer;
  close(): Promise<void>;
}

export async function stripeWorld(env: Record<string, string> = {}): Promise<StripeWorld> {
  const stripe = await startStripeServer();
  const t = await createTestApp({ STRIPE_API_BASE: stripe.base, ...env });
  // The app is not listening: the server's events go in through inject, as Stripe's would over HTTP.
  stripe.deliver = async (url, payload, headers) => {
    const response = await t.app.inject({ method: 'POST', url: new URL(url).pathname, payload, headers });
    return { status: response.statusCode, body: response.body };
  };
  return {
    t,
    stripe,
    async close() {
      await t.close();
      await stripe.stop();
    },
  };
}

export const webhookUrl = (operatorId: number) => `${PUBLIC_URL}/api/v2/payments/stripe/${operatorId}/webhook`;

/** A new account on the local server, connected to the operator through the admin API. */
export async function connectStripe(world: StripeWorld, operatorId: number, adminKey: string, options: Partial<StripeTestAccount> = {}) {
  const account = world.stripe.addAccount({ webhookUrl: webhookUrl(operatorId), ...options });
  const response = await call(world.t.app, adminKey, 'PUT', '/api/v2/admin/settings/stripe', {
    SecretKey: account.secretKey,
    WebhookSecret: account.webhookSecret,
  });
  expect(response.statusCode, response.body).toBe(200);
  return account;
}
