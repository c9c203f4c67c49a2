// Stripe's webhook under a flood of junk: nothing that fails verification can make Stripe's signed events
// wait. The signature is checked before any limit; only failures count, per client address.
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestOperator } from '../helpers/app.js';
import type { StripeTestAccount } from '../helpers/stripe-server.js';
import { connectStripe, stripeWorld, webhookUrl, type StripeWorld } from './fixtures.js';
import { unixNow } from '../../src/lib/clock.js';

let world: StripeWorld;
let op: TestOperator;
let account: StripeTestAccount;

const JUNK = '203.0.113.9';
const STRIPE = '198.51.100.20';
const LIMIT = 5;

/** A POST to the operator's webhook address from `address`, signed with `secret` or carrying `signature`. */
function post(address: string, event: object, signing: { secret: string } | { signature: string }) {
  const payload = JSON.stringify(event);
  const signature = 'secret' in signing ? Stripe.webhooks.generateTestHeaderString({ payload, secret: signing.secret }) : signing.signature;
  return world.t.app.inject({
    method: 'POST',
    url: new URL(webhookUrl(op.operatorId)).pathname,
    remoteAddress: address,
    payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
  });
}

beforeAll(async () => {
  // Tiny limits, so that the old per-operator bucket (the instance's request limit) ran out at once.
  world = await stripeWorld({ RATE_LIMIT_PER_MINUTE: String(LIMIT), AUTH_FAILURE_LIMIT_PER_MINUTE: String(LIMIT) });
  op = await world.t.newOperator();
  account = await connectStripe(world, op.operatorId, op.adminKey);
});
afterAll(() => world.close());

describe("Stripe's webhook and requests that fail verification", () => {
  it('answers signed events while junk floods the address, and limits the junk per client address', async () => {
    const junk = world.stripe.event('checkout.session.completed', { id: 'cs_test_forged', object: 'checkout.session' });
    const answers = [];
    for (let i = 0; i < LIMIT * 3; i++) answers.push(await post(JUNK, junk, { signature: `t=${unixNow()},v1=${'0'.repeat(64)}` }));
    // Stripe's own deliveries, many more than the instance's limit, all handled: verified before any limit.
    for (let i = 0; i < LIMIT * 2; i++) {
      const event = world.stripe.event('customer.created', { id: `cus_test_${i}`, object: 'customer' });
      const delivered = await post(STRIPE, event, { secret: account.webhookSecret });
      expect(delivered.statusCode, delivered.body).toBe(200);
      expect(delivered.json().data).toEqual({ EventID: event.id, Outcome: 'ignored' });
    }
    expect(answers.slice(0, LIMIT).map((a) => a.statusCode)).toEqual(Array(LIMIT).fill(400));
    const refused = answers.slice(LIMIT);
    expect(refused.map((a) => a.statusCode)).toEqual(Array(refused.length).fill(429));
    expect(refused[0]!.json()).toMatchObject({
      type: expect.stringMatching(/\/rate-limited$/),
      detail: expect.stringMatching(/failed verification/),
    });
    expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThan(0);

    // Even from the address that is past its limit: a signed event is verified first.
    const fromJunkAddress = await post(JUNK, world.stripe.event('customer.created', { id: 'cus_test_x', object: 'customer' }), {
      secret: account.webhookSecret,
    });
    expect(fromJunkAddress.statusCode, fromJunkAddress.body).toBe(200);
    // Another address's failures are its own: 400, not 429.
    expect((await post('192.0.2.77', junk, { signature: 't=1,v1=00' })).statusCode).toBe(400);
  });

  it('counts an operator without Stripe, and an unknown operator, as failures of the address', async () => {
    const address = '192.0.2.88';
    const unknown = (path: string) =>
      world.t.app.inject({ method: 'POST', url: path, remoteAddress: address, payload: '{}', headers: { 'content-type': 'application/json' } });
    const other = await world.t.newOperator();
    const statuses = [];
    for (let i = 0; i < LIMIT + 1; i++)
      statuses.push((await unknown(`/api/v2/payments/stripe/${i % 2 ? other.operatorId : 999999}/webhook`)).statusCode);
    expect(statuses).toEqual([...Array(LIMIT).fill(400), 429]);
  });
});
