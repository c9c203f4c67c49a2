// Issue 23, finding 2: in production the public test card paid for seats (4242 4242 4242 4242 confirmed
// 80 seats for nothing, each e-mailing any address). The test provider moves no money, so in production
// it charges only in a shop its operator runs in test mode (TestMode), which the shop API and the booking
// pages announce; a shop without a payment provider does not open, and one opened before the upgrade
// answers as closed and takes no payment. Outside production the test provider charges as before.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday, getTimeslot } from '../availability/fixtures.js';
import { customer, meterEntries } from '../emails/fixtures.js';
import { setShopOpen } from '../../src/shop/settings.js';
import { GOOD_CARD } from './fixtures.js';

// Production with a SECRET_KEY (production may require one); the non-production app on the same database
// shares it, so that both hash a client address and an idempotency fingerprint alike.
const SECRET_KEY = 'test-mode-suite-secret-0123456789abcdef';
const PRODUCTION = { NODE_ENV: 'production', SECRET_KEY };
const date = dateFromToday(9);
const shopOf = (operatorId: number) => `/api/v2/shop/${operatorId}`;

interface Shop {
  operator: TestOperator;
  activity: string;
  slotId: number;
}

/** An operator with a priced activity and a timeslot; its starter confirmation workflow queues an e-mail per confirmation. */
async function newShop(t: TestApp, name: string): Promise<Shop> {
  const operator = await t.newOperator(name);
  const activity = (await createActivity(t, operator.adminKey, { Name: 'Kayak', UnitPrice: 4500, Currency: 'EUR' })).ActivityID;
  const slotId = (await createTimeslot(t, operator.adminKey, activity, { Date: date, Time: '10:00', Capacity: 100 })).ID;
  return { operator, activity, slotId };
}

/** A basket holding `seats` of the shop's timeslot, checkout begun, through `app`. */
async function heldBasket(app: FastifyInstance, shop: Shop, seats: number): Promise<string> {
  const base = shopOf(shop.operator.operatorId);
  const created = await call(app, undefined, 'POST', `${base}/baskets`, { Customer: customer('Mallory', 'victim@example.com') });
  expect(created.statusCode, created.body).toBe(201);
  const token: string = created.json().data.BasketToken;
  const added = await call(app, undefined, 'POST', `${base}/baskets/${token}/items`, {
    ActivityID: shop.activity,
    Date: date,
    Time: '10:00',
    Participants: seats,
  });
  expect(added.statusCode, added.body).toBe(201);
  expect((await call(app, undefined, 'POST', `${base}/baskets/${token}/begin-checkout`)).statusCode).toBe(200);
  return token;
}

const pay = (app: FastifyInstance, shop: Shop, token: string) =>
  call(
    app,
    undefined,
    'POST',
    `${shopOf(shop.operator.operatorId)}/baskets/${token}/checkout`,
    { Payment: GOOD_CARD },
    { 'Idempotency-Key': `pay-${token}` },
  );

async function queuedEmails(t: TestApp, operatorId: number): Promise<number> {
  const rows = await t.db.kysely.selectFrom('emails').select('id').where('operator_id', '=', operatorId).execute();
  return rows.length;
}

async function payments(t: TestApp, operatorId: number) {
  return t.db.kysely.selectFrom('payments').select(['status', 'provider']).where('operator_id', '=', operatorId).execute();
}

describe('in production', () => {
  let t: TestApp;
  /** The same database served outside production: how a basket came to exist before the upgrade. */
  let before: FastifyInstance;

  beforeAll(async () => {
    t = await createTestApp(PRODUCTION);
    expect(t.app.config.production).toBe(true);
    before = await buildTestApp(t.db, { SECRET_KEY });
    await before.ready();
  });
  afterAll(async () => {
    await before?.close();
    await t?.close();
  });

  it('a shop opened before the upgrade, without test mode, answers as closed: API, storefront and pages are 404', async () => {
    const shop = await newShop(t, 'Opened before');
    await setShopOpen(t.db.kysely, shop.operator.operatorId, true);
    const base = shopOf(shop.operator.operatorId);
    const refused = [
      await call(t.app, undefined, 'GET', `${base}/activities`),
      await call(t.app, undefined, 'GET', `${base}/storefront`),
      await call(t.app, undefined, 'GET', `${base}/activities/${shop.activity}/timeslots?Date=${date}`),
      await call(t.app, undefined, 'POST', `${base}/baskets`, { Customer: customer() }),
    ];
    for (const response of refused) expect(problemOf(response, 404, 'not-found').detail).toBe(`No shop ${shop.operator.operatorId}`);
    expect((await call(t.app, undefined, 'GET', `/book/${shop.operator.operatorId}`)).statusCode).toBe(404);
    // The operator sees why: the shop is not open, and nothing would take its payments.
    expect((await call(t.app, shop.operator.adminKey, 'GET', '/api/v2/admin/shop')).json().data).toMatchObject({
      Open: false,
      TestMode: false,
      PaymentProvider: null,
    });
  });

  it('the test card pays for nothing: checkout is refused, nothing confirmed, no payment, no e-mail, the seats still held', async () => {
    const shop = await newShop(t, 'Card tester target');
    await setShopOpen(t.db.kysely, shop.operator.operatorId, true);
    const token = await heldBasket(before, shop, 20);

    const refused = problemOf(await pay(t.app, shop, token), 409, 'conflict');
    expect(refused.detail).toMatch(/no payment|takes no payments|cannot take payments/i);
    // A retry under the same key is refused again: the refusal was not recorded as the request's answer.
    problemOf(await pay(t.app, shop, token), 409, 'conflict');

    const basket = (await call(t.app, undefined, 'GET', `${shopOf(shop.operator.operatorId)}/baskets/${token}`)).json().data;
    expect(basket).toMatchObject({ Status: 'open', PaymentReference: null, PaidAt: null, Items: [{ Status: 'on_hold', Participants: 20 }] });
    expect((await getTimeslot(t, shop.operator.adminKey, shop.slotId)).Booked).toBe(20);
    const bookings = await call(t.app, shop.operator.adminKey, 'GET', '/api/v2/admin/bookings');
    expect(bookings.json().data.filter((b: { Status: string }) => b.Status === 'confirmed')).toEqual([]);
    expect(await payments(t, shop.operator.operatorId)).toEqual([]);
    expect(await queuedEmails(t, shop.operator.operatorId)).toBe(0);
    expect(await meterEntries(t.db, shop.operator.operatorId, 'order-completed')).toEqual([]);

    // Once the operator chooses test mode, the same request (same key) pays: the refusal was not its answer.
    expect((await call(t.app, shop.operator.adminKey, 'PATCH', '/api/v2/admin/shop', { TestMode: true })).json().data).toMatchObject({
      Open: true,
      TestMode: true,
    });
    const paid = await pay(t.app, shop, token);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.headers['idempotent-replayed']).toBeUndefined();
  });

  it('opening the shop without test mode is refused (409 naming TestMode); it stays closed', async () => {
    const shop = await newShop(t, 'No provider');
    const refused = problemOf(await call(t.app, shop.operator.adminKey, 'PATCH', '/api/v2/admin/shop', { Open: true }), 409, 'conflict');
    expect(refused.errors?.map((e) => e.field)).toEqual(['TestMode']);
    expect(refused.errors?.[0]?.message).toMatch(/test mode/i);
    expect((await call(t.app, shop.operator.adminKey, 'GET', '/api/v2/admin/shop')).json().data).toMatchObject({
      Open: false,
      TestMode: false,
      PaymentProvider: null,
    });
    problemOf(await call(t.app, undefined, 'POST', `${shopOf(shop.operator.operatorId)}/baskets`, { Customer: customer() }), 404, 'not-found');
  });

  it('in test mode the shop opens, the shop API says test mode, and the test card pays', async () => {
    const shop = await newShop(t, 'Test shop');
    const opened = await call(t.app, shop.operator.adminKey, 'PATCH', '/api/v2/admin/shop', { Open: true, TestMode: true });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json().data).toMatchObject({ Open: true, TestMode: true, PaymentProvider: 'test' });
    const storefront = await call(t.app, undefined, 'GET', `${shopOf(shop.operator.operatorId)}/storefront`);
    expect(storefront.statusCode, storefront.body).toBe(200);
    expect(storefront.json().data.TestMode).toBe(true);

    const token = await heldBasket(t.app, shop, 2);
    const paid = await pay(t.app, shop, token);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().data).toMatchObject({ Status: 'paid', PaymentReference: expect.stringMatching(/^test_/), Items: [{ Status: 'confirmed' }] });
    expect(await payments(t, shop.operator.operatorId)).toEqual([{ status: 'succeeded', provider: 'test' }]);
    expect(await queuedEmails(t, shop.operator.operatorId)).toBe(1);
  });

  it('test mode cannot be turned off while the shop is open; closed, it can', async () => {
    const shop = await newShop(t, 'Leaving test mode');
    expect((await call(t.app, shop.operator.adminKey, 'PATCH', '/api/v2/admin/shop', { Open: true, TestMode: true })).statusCode).toBe(200);
    const refused = problemOf(await call(t.app, shop.operator.adminKey, 'PATCH', '/api/v2/admin/shop', { TestMode: false }), 409, 'conflict');
    expect(refused.errors?.map((e) => e.field)).toEqual(['TestMode']);
    expect((await call(t.app, shop.operator.adminKey, 'GET', '/api/v2/admin/shop')).json().data).toMatchObject({ Open: true, TestMode: true });

    const closed = await call(t.app, shop.operator.adminKey, 'PATCH', '/api/v2/admin/shop', { Open: false, TestMode: false });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().data).toMatchObject({ Open: false, TestMode: false, PaymentProvider: null });
  });
});

describe('outside production', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    expect(t.app.config.production).toBe(false);
  });
  afterAll(() => t?.close());

  it('the test provider charges as before, without test mode; the shop API says no real money moves', async () => {
    const shop = await newShop(t, 'Development');
    const opened = await call(t.app, shop.operator.adminKey, 'PATCH', '/api/v2/admin/shop', { Open: true });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json().data).toMatchObject({ Open: true, TestMode: false, PaymentProvider: 'test' });
    expect((await call(t.app, undefined, 'GET', `${shopOf(shop.operator.operatorId)}/storefront`)).json().data.TestMode).toBe(true);

    const token = await heldBasket(t.app, shop, 2);
    const paid = await pay(t.app, shop, token);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().data).toMatchObject({ Status: 'paid', Items: [{ Status: 'confirmed' }] });
    // Test mode can be switched outside production too (it is what production will honour).
    const testMode = await call(t.app, shop.operator.adminKey, 'PATCH', '/api/v2/admin/shop', { TestMode: true });
    expect(testMode.json().data).toMatchObject({ Open: true, TestMode: true, PaymentProvider: 'test' });
  });
});
