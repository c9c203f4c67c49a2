// Tenant enumeration and volume leaks (issue 11, finding 11): a shop answers only once its operator opened
// it (a closed shop is a 404 exactly like one that does not exist), and no keyless answer carries a global
// sequence number.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer, posBooking } from '../emails/fixtures.js';
import { seedDemoOnFirstStart } from '../../src/demo/seed.js';
import { fromAddress, GOOD_CARD, openShop } from './fixtures.js';
import { PDF, uploadToBasket } from '../questions/files.js';

let t: TestApp;
let op: TestOperator;
let kayak: string;
const date = dateFromToday(14);
const shopOf = (operatorId: number) => `/api/v2/shop/${operatorId}`;

/** Every public request of a shop, from listing timeslots to joining a waitlist. */
const publicCalls = (operatorId: number) => ({
  timeslots: () => call(t.app, undefined, 'GET', `${shopOf(operatorId)}/activities/${kayak}/timeslots?Date=${date}`),
  basket: () => call(t.app, undefined, 'POST', `${shopOf(operatorId)}/baskets`, { Customer: customer() }),
  waitlist: () =>
    call(t.app, undefined, 'POST', `${shopOf(operatorId)}/waitlists`, {
      ActivityID: kayak,
      Date: date,
      Time: '18:00',
      Participants: 1,
      Customer: customer(),
    }),
});

/** Integer-valued fields named like identifiers, anywhere in a JSON value. */
function numericIds(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => numericIds(item, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => [
    ...(/I[Dd]$/.test(key) && typeof inner === 'number' ? [`${path}.${key}`] : []),
    ...numericIds(inner, `${path}.${key}`),
  ]);
}

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  kayak = (await createActivity(t, op.adminKey, { Name: 'Kayak' })).ActivityID;
  await createTimeslot(t, op.adminKey, kayak, { Date: date, Time: '10:00', Capacity: 10 });
  await createTimeslot(t, op.adminKey, kayak, { Date: date, Time: '18:00', Capacity: 1 });
  await posBooking(t, op.adminKey, { ActivityID: kayak, Date: date, Time: '18:00' }, 1);
});
afterAll(() => t.close());

describe('a shop answers once its operator opened it', () => {
  it("a new operator's shop is closed: every public call is the 404 of a shop that does not exist", async () => {
    expect((await call(t.app, op.adminKey, 'GET', '/api/v2/admin/shop')).json().data).toEqual({
      Open: false,
      TestMode: false,
      PaymentProvider: 'test',
      URL: `http://slotbook.test/api/v2/shop/${op.operatorId}`,
      UpdatedAt: null,
    });
    const closed = publicCalls(op.operatorId);
    const missing = publicCalls(2_000_000);
    for (const name of ['timeslots', 'basket', 'waitlist'] as const) {
      const a = problemOf(await closed[name](), 404, 'not-found');
      const b = problemOf(await missing[name](), 404, 'not-found');
      expect(a.detail.replace(String(op.operatorId), 'N')).toBe(b.detail.replace('2000000', 'N'));
    }
  });

  it('opens and closes through the admin API; closing stops new baskets, while a basket holding seats can still be paid', async () => {
    const opened = await call(t.app, op.adminKey, 'PATCH', '/api/v2/admin/shop', { Open: true });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json().data).toMatchObject({ Open: true, UpdatedAt: expect.any(String) });
    const shop = publicCalls(op.operatorId);
    expect((await shop.timeslots()).statusCode).toBe(200);
    const token = (await shop.basket()).json().data.BasketToken;
    expect(
      (
        await call(t.app, undefined, 'POST', `${shopOf(op.operatorId)}/baskets/${token}/items`, {
          ActivityID: kayak,
          Date: date,
          Time: '10:00',
          Participants: 1,
        })
      ).statusCode,
    ).toBe(201);

    await openShop(t, op.adminKey, false);
    problemOf(await shop.basket(), 404, 'not-found');
    problemOf(await shop.timeslots(), 404, 'not-found');
    problemOf(
      await call(t.app, undefined, 'POST', `${shopOf(op.operatorId)}/baskets/${token}/items`, {
        ActivityID: kayak,
        Date: date,
        Time: '10:00',
        Participants: 1,
      }),
      404,
      'not-found',
    );
    expect((await call(t.app, undefined, 'GET', `${shopOf(op.operatorId)}/baskets/${token}`)).statusCode).toBe(200);
    expect((await call(t.app, undefined, 'POST', `${shopOf(op.operatorId)}/baskets/${token}/checkout`, { Payment: GOOD_CARD })).statusCode).toBe(200);
    await openShop(t, op.adminKey);
  });

  it('every shop route is 404 in a closed shop but reading, checking out and paying a basket opened before', async () => {
    const shop = shopOf(op.operatorId);
    const token = (await publicCalls(op.operatorId).basket()).json().data.BasketToken;
    await openShop(t, op.adminKey, false);
    try {
      const refused = [
        await call(t.app, undefined, 'GET', `${shop}/activities`),
        await call(t.app, undefined, 'GET', `${shop}/activities/${kayak}`),
        await call(t.app, undefined, 'GET', `${shop}/activities/${kayak}/dates?StartDate=${date}&EndDate=${date}`),
        await call(t.app, undefined, 'GET', `${shop}/activities/${kayak}/questions`),
        await call(t.app, undefined, 'GET', `${shop}/activities/${kayak}/timeslots?Date=${date}`),
        await call(t.app, undefined, 'POST', `${shop}/baskets`, { Customer: customer() }),
        await call(t.app, undefined, 'POST', `${shop}/baskets/${token}/items`, { ActivityID: kayak, Date: date, Time: '10:00', Participants: 1 }),
        await uploadToBasket(t, op.operatorId, token, PDF),
        await call(t.app, undefined, 'POST', `${shop}/waitlists`, {
          ActivityID: kayak,
          Date: date,
          Time: '18:00',
          Participants: 1,
          Customer: customer(),
        }),
      ];
      for (const response of refused) expect(problemOf(response, 404, 'not-found').detail).toBe(`No shop ${op.operatorId}`);
      // The basket's own routes answer: it is read, and checkout is refused for its emptiness, not the shop.
      expect((await call(t.app, undefined, 'GET', `${shop}/baskets/${token}`)).statusCode).toBe(200);
      problemOf(await call(t.app, undefined, 'POST', `${shop}/baskets/${token}/begin-checkout`), 409, 'conflict');
    } finally {
      await openShop(t, op.adminKey);
    }
  });

  it("only the operator's admin key may open it; the body is checked", async () => {
    problemOf(await call(t.app, undefined, 'PATCH', '/api/v2/admin/shop', { Open: true }), 401, 'unauthenticated');
    problemOf(await call(t.app, op.otaKey, 'PATCH', '/api/v2/admin/shop', { Open: true }), 403, 'forbidden');
    const bad = problemOf(await call(t.app, op.adminKey, 'PATCH', '/api/v2/admin/shop', { Open: 'yes' }), 422, 'validation');
    expect(bad.errors?.[0]?.field).toBe('Open');
    problemOf(await call(t.app, op.adminKey, 'PATCH', '/api/v2/admin/shop', {}), 422, 'validation');
    problemOf(await call(t.app, op.adminKey, 'PATCH', '/api/v2/admin/shop', { Open: true, Colour: 'red' }), 422, 'validation');
    expect(problemOf(await call(t.app, op.adminKey, 'PATCH', '/api/v2/admin/shop', { TestMode: 1 }), 422, 'validation').errors?.[0]?.field).toBe(
      'TestMode',
    );
  });

  it("the demo operator's shop is open from the first start", async () => {
    const fresh = await createTestApp();
    try {
      const demo = (await seedDemoOnFirstStart(fresh.db))!;
      const response = await call(fresh.app, demo.keys.admin, 'GET', '/api/v2/admin/shop');
      expect(response.json().data.Open).toBe(true);
      expect((await call(fresh.app, undefined, 'POST', `/api/v2/shop/${demo.operatorId}/baskets`, { Customer: customer() })).statusCode).toBe(201);
    } finally {
      await fresh.close();
    }
  }, 60_000);
});

describe('public answers', () => {
  it('carry no global sequence number: baskets, items, checkout, timeslots, waitlist places', async () => {
    const shop = publicCalls(op.operatorId);
    const basket = await shop.basket();
    const token = basket.json().data.BasketToken;
    const base = `${shopOf(op.operatorId)}/baskets/${token}`;
    const answers = [
      await shop.timeslots(),
      basket,
      await call(t.app, undefined, 'POST', `${base}/items`, { ActivityID: kayak, Date: date, Time: '10:00', Participants: 1 }),
      await call(t.app, undefined, 'GET', base),
      await fromAddress(t.app, '127.0.0.1', 'POST', `${base}/begin-checkout`),
      await call(t.app, undefined, 'POST', `${base}/checkout`, { Payment: GOOD_CARD }),
      await shop.waitlist(),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([200, 201, 201, 200, 200, 200, 202]);
    for (const answer of answers) expect(numericIds(answer.json()), answer.body).toEqual([]);
  });
});
