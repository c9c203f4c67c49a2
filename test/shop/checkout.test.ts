// The online shop: baskets that hold seats, the test payment provider, and checkout writing exactly one
// order-completed entry per paid basket, in the same transaction.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday, getTimeslot } from '../availability/fixtures.js';
import { customer, meterEntries, summaryOf } from '../emails/fixtures.js';
import { DECLINED_CARD, GOOD_CARD, openShop } from './fixtures.js';
import { addSeconds, unixNow } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;
let kayak: string;
let slotId: number;
const date = dateFromToday(12);
const shop = () => `/api/v2/shop/${op.operatorId}`;

interface Basket {
  BasketToken: string;
  Status: string;
  Currency: string | null;
  Total: number;
  Items: { BookingReference: string; Status: string; Participants: number; Amount: number; HoldExpiresAt: string | null }[];
  PaymentReference: string | null;
  ConfirmationEmailed: boolean;
}

async function openBasket(): Promise<Basket> {
  const response = await call(t.app, undefined, 'POST', `${shop()}/baskets`, { Customer: customer() });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

async function addItem(token: string, Participants: number, Time = '10:00', ActivityID = kayak) {
  return call(t.app, undefined, 'POST', `${shop()}/baskets/${token}/items`, { ActivityID, Date: date, Time, Participants });
}

async function basketId(token: string): Promise<number> {
  return (await t.db.kysely.selectFrom('baskets').select('id').where('token', '=', token).executeTakeFirstOrThrow()).id;
}

const pay = (token: string, Payment: object | undefined = GOOD_CARD, headers: Record<string, string> = {}) =>
  call(t.app, undefined, 'POST', `${shop()}/baskets/${token}/checkout`, Payment === undefined ? {} : { Payment }, headers);

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  other = await t.newOperator();
  await openShop(t, op.adminKey);
  await openShop(t, other.adminKey);
  kayak = (await createActivity(t, op.adminKey, { Name: 'Kayak', UnitPrice: 4500, Currency: 'EUR' })).ActivityID;
  slotId = (await createTimeslot(t, op.adminKey, kayak, { Date: date, Time: '10:00', Capacity: 20 })).ID;
  await createTimeslot(t, op.adminKey, kayak, { Date: date, Time: '14:00', Capacity: 20 });
});
afterAll(() => t.close());

describe('baskets', () => {
  it('holds the seats of each item for the choosing minutes (BASKET_HOLD_MINUTES, 10) and shows the total', async () => {
    const basket = await openBasket();
    expect(basket.BasketToken).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(basket).toMatchObject({ Status: 'open', Total: 0, Items: [], Currency: null });
    const added = await addItem(basket.BasketToken, 2);
    expect(added.statusCode, added.body).toBe(201);
    const filled: Basket = added.json().data;
    expect(filled).toMatchObject({ Currency: 'EUR', Total: 9000, Items: [{ Status: 'on_hold', Participants: 2, Amount: 9000 }] });
    const holdMinutes = (Date.parse(filled.Items[0]!.HoldExpiresAt!) - Date.now()) / 60_000;
    expect(holdMinutes).toBeGreaterThan(9);
    expect(holdMinutes).toBeLessThanOrEqual(10);
    expect((await getTimeslot(t, op.adminKey, slotId)).Booked).toBe(2);
    const read = await call(t.app, undefined, 'GET', `${shop()}/baskets/${basket.BasketToken}`);
    expect(read.json().data).toEqual(filled);
  });

  it("answers 404 for an unknown token, another operator's shop or an unknown shop; 400 for a malformed token", async () => {
    const basket = await openBasket();
    problemOf(await call(t.app, undefined, 'GET', `${shop()}/baskets/AAAAAAAAAAAAAAAAAAAAAA`), 404, 'not-found');
    problemOf(await call(t.app, undefined, 'GET', `/api/v2/shop/${other.operatorId}/baskets/${basket.BasketToken}`), 404, 'not-found');
    problemOf(await call(t.app, undefined, 'POST', '/api/v2/shop/999999/baskets', { Customer: customer() }), 404, 'not-found');
    problemOf(await call(t.app, undefined, 'GET', `${shop()}/baskets/short`), 400, 'bad-request');
  });

  it('refuses items that do not fit: sold out (409), another currency (422), bad fields (422)', async () => {
    const basket = await openBasket();
    problemOf(await addItem(basket.BasketToken, 25, '10:00'), 422, 'validation'); // above MaxParticipantsPerBooking
    const dollars = (await createActivity(t, op.adminKey, { Name: 'Harbour Cruise', Currency: 'USD', Timezone: 'America/New_York' })).ActivityID;
    await createTimeslot(t, op.adminKey, dollars, { Date: date, Time: '10:00', Capacity: 5 });
    expect((await addItem(basket.BasketToken, 1, '14:00')).statusCode).toBe(201);
    const mixed = problemOf(await addItem(basket.BasketToken, 1, '10:00', dollars), 422, 'validation');
    expect(mixed.errors?.[0]?.field).toBe('ActivityID');
    const full = await createTimeslot(t, op.adminKey, kayak, { Date: date, Time: '18:00', Capacity: 1 });
    expect(full.Booked).toBe(0);
    problemOf(await addItem(basket.BasketToken, 2, '18:00'), 409, 'insufficient-capacity');
  });
});

describe('checkout', () => {
  it('confirms the bookings with Source online and writes one order-completed entry with the BasketID', async () => {
    const basket = await openBasket();
    await addItem(basket.BasketToken, 1);
    await addItem(basket.BasketToken, 2, '14:00');
    const before = (await summaryOf(t, op.usageKey)).Meters.find((m) => m.Meter === 'order-completed')?.EventCount ?? 0;
    const paid = await pay(basket.BasketToken);
    expect(paid.statusCode, paid.body).toBe(200);
    const body: Basket = paid.json().data;
    expect(body).toMatchObject({ Status: 'paid', Total: 13500 });
    expect(body.PaymentReference).toMatch(/^test_/);
    expect(body.Items.map((i) => i.Status)).toEqual(['confirmed', 'confirmed']);

    for (const item of body.Items) {
      const booking = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${item.BookingReference}`)).json().data;
      expect(booking).toMatchObject({ Status: 'confirmed', Source: 'online', HoldExpiresAt: null });
    }
    const id = await basketId(basket.BasketToken);
    const entries = (await meterEntries(t.db, op.operatorId, 'order-completed')).filter((e) => JSON.parse(e.extra_info!).BasketID === id);
    expect(entries).toHaveLength(1);
    expect(JSON.parse(entries[0]!.extra_info!)).toEqual({ BasketID: id });
    expect(Number(entries[0]!.usage_micros)).toBe(1_000_000);
    const after = (await summaryOf(t, op.usageKey)).Meters.find((m) => m.Meter === 'order-completed')!;
    expect(after.EventCount).toBe(before + 1);
  });

  it('says whether a confirmation e-mail went to the guest: only while a booking-confirmed workflow sends one', async () => {
    // A new operator's starter "Booking confirmation" e-mails every guest (workflows/starter.ts)...
    const basket = await openBasket();
    expect(basket.ConfirmationEmailed).toBe(false); // nothing is booked yet
    await addItem(basket.BasketToken, 1);
    expect((await pay(basket.BasketToken)).json().data).toMatchObject({ Status: 'paid', ConfirmationEmailed: true });
    expect((await call(t.app, undefined, 'GET', `${shop()}/baskets/${basket.BasketToken}`)).json().data.ConfirmationEmailed).toBe(true);
    // ... until the operator pauses it: then the page must not claim an e-mail.
    const confirmations = ((await call(t.app, op.adminKey, 'GET', '/api/v2/admin/workflows')).json().data as { ID: number; Event: string }[]).filter(
      (w) => w.Event === 'booking-confirmed',
    );
    for (const w of confirmations) await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/workflows/${w.ID}`, { Enabled: false });
    try {
      const silent = await openBasket();
      await addItem(silent.BasketToken, 1);
      expect((await pay(silent.BasketToken)).json().data).toMatchObject({ Status: 'paid', ConfirmationEmailed: false });
    } finally {
      for (const w of confirmations) await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/workflows/${w.ID}`, { Enabled: true });
    }
  });

  it('a declined card confirms nothing and writes no entry; the basket can then be paid', async () => {
    const basket = await openBasket();
    await addItem(basket.BasketToken, 1);
    const id = await basketId(basket.BasketToken);
    const declined = problemOf(await pay(basket.BasketToken, DECLINED_CARD), 422, 'validation');
    expect(declined.errors).toEqual([{ field: 'Payment.CardNumber', message: expect.stringContaining('declined') }]);
    const read: Basket = (await call(t.app, undefined, 'GET', `${shop()}/baskets/${basket.BasketToken}`)).json().data;
    expect(read).toMatchObject({ Status: 'open', PaymentReference: null, Items: [{ Status: 'on_hold' }] });
    const entries = async () => (await meterEntries(t.db, op.operatorId, 'order-completed')).filter((e) => JSON.parse(e.extra_info!).BasketID === id);
    expect(await entries()).toHaveLength(0);
    const attempts = await t.db.kysely.selectFrom('payments').select(['status', 'failure']).where('basket_id', '=', id).execute();
    expect(attempts).toEqual([{ status: 'declined', failure: 'Your card was declined.' }]);

    problemOf(await call(t.app, undefined, 'POST', `${shop()}/baskets/${basket.BasketToken}/checkout`, {}), 422, 'validation'); // no Payment for a total above 0
    expect((await pay(basket.BasketToken)).statusCode).toBe(200);
    expect(await entries()).toHaveLength(1);
  });

  it('is paid once: a second payment is 409 and writes no second entry; an Idempotency-Key retry replays', async () => {
    const basket = await openBasket();
    await addItem(basket.BasketToken, 1);
    const id = await basketId(basket.BasketToken);
    const first = await pay(basket.BasketToken, GOOD_CARD, { 'idempotency-key': 'pay-1' });
    expect(first.statusCode).toBe(200);
    const replay = await pay(basket.BasketToken, GOOD_CARD, { 'idempotency-key': 'pay-1' });
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
    problemOf(await pay(basket.BasketToken), 409, 'conflict');
    problemOf(await addItem(basket.BasketToken, 1), 409, 'conflict');
    const entries = (await meterEntries(t.db, op.operatorId, 'order-completed')).filter((e) => JSON.parse(e.extra_info!).BasketID === id);
    expect(entries).toHaveLength(1);
    const charges = await t.db.kysely.selectFrom('payments').select('status').where('basket_id', '=', id).execute();
    expect(charges).toEqual([{ status: 'succeeded' }]);
  });

  it('two payments at once: one succeeds, the other is 409, one entry', async () => {
    const basket = await openBasket();
    await addItem(basket.BasketToken, 1);
    const results = await Promise.all([pay(basket.BasketToken), pay(basket.BasketToken), pay(basket.BasketToken)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    const id = await basketId(basket.BasketToken);
    expect((await meterEntries(t.db, op.operatorId, 'order-completed')).filter((e) => JSON.parse(e.extra_info!).BasketID === id)).toHaveLength(1);
  });

  it('an expired hold at checkout is 409: nothing is charged or confirmed, no entry', async () => {
    const basket = await openBasket();
    expect((await addItem(basket.BasketToken, 1)).statusCode).toBe(201);
    const second = await addItem(basket.BasketToken, 1, '14:00');
    expect(second.statusCode, second.body).toBe(201);
    const id = await basketId(basket.BasketToken);
    const [first] = (await call(t.app, undefined, 'GET', `${shop()}/baskets/${basket.BasketToken}`)).json().data.Items as Basket['Items'];
    // Drive time: the first item's hold ran out a second ago.
    await t.db.write((tx) =>
      tx
        .updateTable('bookings')
        .set({ hold_expires_at: addSeconds(unixNow(), -1) })
        .where('reference', '=', first!.BookingReference)
        .execute(),
    );
    const expired = problemOf(await pay(basket.BasketToken), 409, 'conflict');
    expect(expired.detail).toContain(first!.BookingReference);
    const read: Basket = (await call(t.app, undefined, 'GET', `${shop()}/baskets/${basket.BasketToken}`)).json().data;
    expect(read.Status).toBe('open');
    expect(read.Items.map((i) => i.Status)).toEqual(['expired', 'on_hold']);
    expect(read.Total).toBe(4500);
    expect(await t.db.kysely.selectFrom('payments').select('id').where('basket_id', '=', id).execute()).toEqual([]);
    expect((await meterEntries(t.db, op.operatorId, 'order-completed')).filter((e) => JSON.parse(e.extra_info!).BasketID === id)).toHaveLength(0);
  });

  it('an empty basket cannot be paid (409); bad payment fields are 422', async () => {
    const basket = await openBasket();
    problemOf(await pay(basket.BasketToken), 409, 'conflict');
    const bad = problemOf(await pay(basket.BasketToken, { Provider: 'test', CardNumber: '4242-4242' }), 422, 'validation');
    expect(bad.errors?.[0]?.field).toBe('Payment.CardNumber');
    problemOf(await pay(basket.BasketToken, { Provider: 'paypal', CardNumber: '4242424242424242' }), 422, 'validation');
  });

  it("shows the shop's timeslots without a key", async () => {
    const response = await call(t.app, undefined, 'GET', `${shop()}/activities/${kayak}/timeslots?Date=${date}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.map((s: { Time: string }) => s.Time)).toEqual(['10:00', '14:00', '18:00']);
    problemOf(await call(t.app, undefined, 'GET', `/api/v2/shop/${other.operatorId}/activities/${kayak}/timeslots?Date=${date}`), 404, 'not-found');
  });
});
