// The operator's own Stripe account (issue 25, item 2): connected with a key that Stripe accepts (checked
// with one harmless read), both secrets sealed at rest and never answered again, owners and admin keys
// only; once connected, Stripe charges the shop (in production too), unless it is in test mode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, problemOf, type TestOperator } from '../helpers/app.js';
import { addUser, as, signIn } from '../staff/fixtures.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { connectStripe, stripeWorld, webhookUrl, type StripeWorld } from './fixtures.js';

const STRIPE = '/api/v2/admin/settings/stripe';
let world: StripeWorld;
let op: TestOperator;

beforeAll(async () => {
  world = await stripeWorld();
  op = await world.t.newOperator();
});
afterAll(() => world.close());

const put = (body: unknown, key = op.adminKey) => call(world.t.app, key, 'PUT', STRIPE, body);

describe('the Stripe account', () => {
  it('is not connected at first, and says where Stripe must send events', async () => {
    const response = await call(world.t.app, op.adminKey, 'GET', STRIPE);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toEqual({
      Connected: false,
      AccountID: null,
      KeyLast4: null,
      Mode: null,
      WebhookURL: webhookUrl(op.operatorId),
      UpdatedAt: null,
    });
  });

  it('connects with a key Stripe accepts, seals both secrets, and never answers them again', async () => {
    const account = world.stripe.addAccount();
    const reads = world.stripe.requests.length;
    const response = await put({ SecretKey: account.secretKey, WebhookSecret: account.webhookSecret });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({
      Connected: true,
      AccountID: account.accountId,
      KeyLast4: account.secretKey.slice(-4),
      Mode: 'test',
    });
    // One harmless read, with the key being saved.
    expect(world.stripe.requests.slice(reads)).toEqual([{ method: 'GET', path: '/v1/account', key: account.secretKey, idempotencyKey: undefined }]);
    const read = await call(world.t.app, op.adminKey, 'GET', STRIPE);
    for (const text of [response.body, read.body]) {
      expect(text).not.toContain(account.secretKey);
      expect(text).not.toContain(account.webhookSecret);
    }
    const row = await world.t.db.kysely.selectFrom('stripe_accounts').selectAll().where('operator_id', '=', op.operatorId).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(account.secretKey.slice(8));
    expect(JSON.stringify(row)).not.toContain(account.webhookSecret.slice(6));
    const audit = await call(world.t.app, op.adminKey, 'GET', '/api/v2/admin/audit?Action=stripe.connect');
    expect(audit.json().data).toHaveLength(1);
    expect(audit.body).not.toContain(account.secretKey);
    expect(audit.body).not.toContain(account.webhookSecret);
    // The shop is now charged through Stripe.
    expect((await call(world.t.app, op.adminKey, 'GET', '/api/v2/admin/shop')).json().data.PaymentProvider).toBe('stripe');
  });

  it('refuses a key Stripe refuses: 422 on SecretKey, nothing saved', async () => {
    const other = await world.t.newOperator();
    const response = await put({ SecretKey: `sk_test_${'x'.repeat(24)}`, WebhookSecret: `whsec_${'y'.repeat(24)}` }, other.adminKey);
    const problem = problemOf(response, 422, 'validation');
    expect(problem.errors?.[0]?.field).toBe('SecretKey');
    expect(response.body).not.toContain('x'.repeat(24));
    expect((await call(world.t.app, other.adminKey, 'GET', STRIPE)).json().data.Connected).toBe(false);
  });

  it('refuses what is no key or no signing secret (422 naming the field)', async () => {
    expect(
      problemOf(await put({ SecretKey: 'pk_test_abcdefghijkl', WebhookSecret: 'whsec_abcdefghijkl' }), 422, 'validation').errors?.[0]?.field,
    ).toMatch(/SecretKey/);
    expect(problemOf(await put({ SecretKey: 'sk_test_abcdefghijkl', WebhookSecret: 'secret' }), 422, 'validation').errors?.[0]?.field).toMatch(
      /WebhookSecret/,
    );
  });

  it('takes a restricted key that may read the balance only; live keys say live', async () => {
    const other = await world.t.newOperator();
    const restricted = world.stripe.addAccount({ secretKey: `rk_test_${'r'.repeat(24)}`, restricted: true });
    const response = await put({ SecretKey: restricted.secretKey, WebhookSecret: restricted.webhookSecret }, other.adminKey);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ Connected: true, AccountID: null, KeyLast4: 'rrrr', Mode: 'test' });
    const live = world.stripe.addAccount({ secretKey: `sk_live_${'l'.repeat(24)}` });
    const replaced = await put({ SecretKey: live.secretKey, WebhookSecret: live.webhookSecret }, other.adminKey);
    expect(replaced.json().data).toMatchObject({ Mode: 'live', AccountID: live.accountId });
  });

  it('is for owners and admin keys: a manager and the front desk are refused (403)', async () => {
    const manager = await signIn(world.t, (await addUser(world.t, op.operatorId, 'manager')).email);
    const desk = await signIn(world.t, (await addUser(world.t, op.operatorId, 'front-desk')).email);
    for (const session of [manager, desk]) {
      problemOf(await as(world.t, session, 'GET', STRIPE), 403, 'forbidden');
      problemOf(
        await as(world.t, session, 'PUT', STRIPE, { SecretKey: 'sk_test_abcdefghijkl', WebhookSecret: 'whsec_abcdefghijkl' }),
        403,
        'forbidden',
      );
      problemOf(await as(world.t, session, 'DELETE', STRIPE), 403, 'forbidden');
    }
    problemOf(await call(world.t.app, op.otaKey, 'GET', STRIPE), 403, 'forbidden');
    const owner = await signIn(world.t, (await addUser(world.t, op.operatorId, 'owner')).email);
    expect((await as(world.t, owner, 'GET', STRIPE)).json().data.Connected).toBe(true);
  });

  it('disconnects (404 when none is connected); the shop falls back to the test provider outside production', async () => {
    const other = await world.t.newOperator();
    await connectStripe(world, other.operatorId, other.adminKey);
    const removed = await call(world.t.app, other.adminKey, 'DELETE', STRIPE);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().data.Connected).toBe(false);
    problemOf(await call(world.t.app, other.adminKey, 'DELETE', STRIPE), 404, 'not-found');
    expect((await call(world.t.app, other.adminKey, 'GET', '/api/v2/admin/shop')).json().data.PaymentProvider).toBe('test');
  });

  it('in production, a shop opens with a Stripe account (not without); in test mode the test provider charges it', async () => {
    const production = await buildTestApp(world.t.db, { NODE_ENV: 'production', STRIPE_API_BASE: world.stripe.base });
    await production.ready();
    try {
      const other = await world.t.newOperator();
      const open = () => call(production, other.adminKey, 'PATCH', '/api/v2/admin/shop', { Open: true });
      problemOf(await open(), 409, 'conflict');
      await connectStripe(world, other.operatorId, other.adminKey);
      const opened = await open();
      expect(opened.statusCode, opened.body).toBe(200);
      expect(opened.json().data).toMatchObject({ Open: true, TestMode: false, PaymentProvider: 'stripe' });
      const testMode = await call(production, other.adminKey, 'PATCH', '/api/v2/admin/shop', { TestMode: true });
      expect(testMode.json().data).toMatchObject({ Open: true, TestMode: true, PaymentProvider: 'test' });
    } finally {
      await production.close();
    }
  });
});

describe('STRIPE_API_BASE', () => {
  it("is Stripe's own API by default, an origin when set, and refused with a path or another scheme", () => {
    expect(loadConfig({}).stripeApiBase).toBe('https://api.stripe.com');
    expect(loadConfig({ STRIPE_API_BASE: 'http://127.0.0.1:12111/' }).stripeApiBase).toBe('http://127.0.0.1:12111');
    expect(() => loadConfig({ STRIPE_API_BASE: 'http://127.0.0.1:12111/v1' })).toThrow(ConfigError);
    expect(() => loadConfig({ STRIPE_API_BASE: 'ftp://stripe.example' })).toThrow(/STRIPE_API_BASE/);
  });
});
