// Inventory hoarding through the public shop (issue 11, finding 2): what one client address and one basket
// may hold at once is bounded, baskets per address per hour too; holds are short while the guest chooses
// and longer, once, when checkout begins, never beyond the hold's ceiling; addresses are kept as HMACs.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday, getTimeslot } from '../availability/fixtures.js';
import { customer } from '../emails/fixtures.js';
import { fromAddress, GOOD_CARD, openShop } from './fixtures.js';
import { addMillis, addSeconds, nowMillis, unixNow } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;
let kayak: string;
const date = dateFromToday(15);
let nextHour = 6;
const shop = () => `/api/v2/shop/${op.operatorId}`;
const minutesUntil = (iso: string | null) => (Date.parse(iso!) - Date.now()) / 60_000;

interface Basket {
  BasketToken: string;
  CheckoutStartedAt: string | null;
  Items: { BookingReference: string; Status: string; HoldExpiresAt: string | null }[];
}

async function newSlot(Capacity = 40): Promise<{ ID: number; Time: string }> {
  const Time = `${String(nextHour++).padStart(2, '0')}:00`;
  return { ID: (await createTimeslot(t, op.adminKey, kayak, { Date: date, Time, Capacity })).ID, Time };
}

async function openBasket(ip: string): Promise<string> {
  const response = await fromAddress(t.app, ip, 'POST', `${shop()}/baskets`, { Customer: customer() });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.BasketToken;
}

const addItem = (ip: string, token: string, Time: string, Participants: number) =>
  fromAddress(t.app, ip, 'POST', `${shop()}/baskets/${token}/items`, { ActivityID: kayak, Date: date, Time, Participants });
const beginCheckout = (token: string) => fromAddress(t.app, '127.0.0.1', 'POST', `${shop()}/baskets/${token}/begin-checkout`);

beforeAll(async () => {
  t = await createTestApp({ SHOP_MAX_SEATS_PER_BASKET: '6', SHOP_MAX_HELD_SEATS_PER_CLIENT: '10', SHOP_MAX_BASKETS_PER_CLIENT_HOUR: '8' });
  op = await t.newOperator();
  await openShop(t, op.adminKey);
  kayak = (await createActivity(t, op.adminKey, { Name: 'Kayak', MaxParticipantsPerBooking: 8 })).ActivityID;
});
afterAll(() => t.close());

describe('what one client holds', () => {
  it("the review's attack: one address filling basket after basket holds SHOP_MAX_HELD_SEATS_PER_CLIENT seats, no more", async () => {
    const slot = await newSlot(40);
    const ip = '198.51.100.1';
    const statuses: number[] = [];
    let refused;
    for (let i = 0; i < 5; i++) {
      const response = await addItem(ip, await openBasket(ip), slot.Time, 4);
      statuses.push(response.statusCode);
      if (response.statusCode !== 201) refused = response;
    }
    expect(statuses).toEqual([201, 201, 429, 429, 429]);
    const problem = problemOf(refused!, 429, 'quota-exceeded');
    expect(problem.detail).toContain('8 seats');
    const retryAfter = Number(refused!.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(9 * 60); // until the first of its holds lapses: 10 minutes after it was made
    expect(retryAfter).toBeLessThanOrEqual(10 * 60);
    expect((await addItem(ip, await openBasket(ip), slot.Time, 2)).statusCode).toBe(201); // exactly up to the limit
    expect((await getTimeslot(t, op.adminKey, slot.ID)).Booked).toBe(10);
    // Everyone else can still buy the rest.
    const partner = await call(t.app, op.otaKey, 'POST', `/api/v2/ota/${op.partner}/booking`, {
      ActivityID: kayak,
      Date: date,
      Time: slot.Time,
      Participants: 8,
      Customer: customer(),
    });
    expect(partner.statusCode, partner.body).toBe(201);
  });

  it('a basket holds at most SHOP_MAX_SEATS_PER_BASKET seats (422 on Participants, saying how many more fit)', async () => {
    const slot = await newSlot();
    const basket = await openBasket('198.51.100.2');
    expect((await addItem('198.51.100.2', basket, slot.Time, 4)).statusCode).toBe(201);
    const refused = problemOf(await addItem('198.51.100.2', basket, slot.Time, 3), 422, 'validation');
    expect(refused.errors).toEqual([{ field: 'Participants', message: expect.stringContaining('at most 2 more') }]);
    expect((await addItem('198.51.100.2', basket, slot.Time, 2)).statusCode).toBe(201);
  });

  it('counts per address: IPv6 per /64, an IPv4 written as IPv6 as the IPv4; another address has its own allowance', async () => {
    const slot = await newSlot();
    const fill = async (ip: string, seats: number) => addItem(ip, await openBasket(ip), slot.Time, seats);
    expect((await fill('2001:db8:1:2::1', 6)).statusCode).toBe(201);
    expect((await fill('2001:db8:1:2:aaaa:bbbb:cccc:dddd', 4)).statusCode).toBe(201);
    problemOf(await fill('2001:db8:1:2::ffff', 1), 429, 'quota-exceeded'); // the same /64
    expect((await fill('2001:db8:1:3::1', 6)).statusCode).toBe(201); // another /64

    expect((await fill('::ffff:203.0.113.9', 6)).statusCode).toBe(201);
    expect((await fill('203.0.113.9', 4)).statusCode).toBe(201);
    problemOf(await fill('203.0.113.9', 1), 429, 'quota-exceeded');
    expect((await fill('203.0.113.10', 1)).statusCode).toBe(201);
  });

  it('counts only live holds: seats paid for, lapsed or released no longer count', async () => {
    const slot = await newSlot();
    const ip = '198.51.100.3';
    const paid = await openBasket(ip);
    await addItem(ip, paid, slot.Time, 6);
    const lapsing = await openBasket(ip);
    const lapse = (await addItem(ip, lapsing, slot.Time, 4)).json().data as Basket;
    problemOf(await addItem(ip, await openBasket(ip), slot.Time, 1), 429, 'quota-exceeded');
    expect((await fromAddress(t.app, ip, 'POST', `${shop()}/baskets/${paid}/checkout`, { Payment: GOOD_CARD })).statusCode).toBe(200);
    await t.db.kysely
      .updateTable('bookings')
      .set({ hold_expires_at: addSeconds(unixNow(), -1) })
      .where('reference', '=', lapse.Items[0]!.BookingReference)
      .execute();
    expect((await addItem(ip, await openBasket(ip), slot.Time, 6)).statusCode).toBe(201);
  });

  it('one address opens at most SHOP_MAX_BASKETS_PER_CLIENT_HOUR baskets an hour (429, Retry-After)', async () => {
    const ip = '198.51.100.4';
    for (let i = 0; i < 8; i++) await openBasket(ip);
    const refused = await fromAddress(t.app, ip, 'POST', `${shop()}/baskets`, { Customer: customer() });
    problemOf(refused, 429, 'quota-exceeded');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3600);
    await openBasket('198.51.100.5');
  });
});

describe('holds cost time: short while choosing, longer once checkout begins', () => {
  it('an item holds 10 minutes; begin-checkout holds every live item 20 minutes from now, once, and closes the basket', async () => {
    const slot = await newSlot();
    const token = await openBasket('127.0.0.1');
    const added = (await addItem('127.0.0.1', token, slot.Time, 2)).json().data as Basket;
    expect(minutesUntil(added.Items[0]!.HoldExpiresAt)).toBeLessThanOrEqual(10);
    expect(minutesUntil(added.Items[0]!.HoldExpiresAt)).toBeGreaterThan(9);

    const started = await beginCheckout(token);
    expect(started.statusCode, started.body).toBe(200);
    const basket: Basket = started.json().data;
    expect(basket.CheckoutStartedAt).not.toBeNull();
    expect(minutesUntil(basket.Items[0]!.HoldExpiresAt)).toBeGreaterThan(19);
    expect(minutesUntil(basket.Items[0]!.HoldExpiresAt)).toBeLessThanOrEqual(20);

    // Granted once: a second call changes nothing, even later on.
    await t.db.kysely
      .updateTable('bookings')
      .set({ hold_expires_at: addSeconds(unixNow(), 60) })
      .where('reference', '=', basket.Items[0]!.BookingReference)
      .execute();
    const again: Basket = (await beginCheckout(token)).json().data;
    expect(again.CheckoutStartedAt).toBe(basket.CheckoutStartedAt);
    expect(minutesUntil(again.Items[0]!.HoldExpiresAt)).toBeLessThanOrEqual(1);
    const more = problemOf(await addItem('127.0.0.1', token, slot.Time, 1), 409, 'conflict');
    expect(more.detail).toContain('Checkout has begun');
    expect((await fromAddress(t.app, '127.0.0.1', 'POST', `${shop()}/baskets/${token}/checkout`, { Payment: GOOD_CARD })).statusCode).toBe(200);
    problemOf(await beginCheckout(token), 409, 'conflict');
  });

  it('never holds beyond HOLD_MAX_LIFETIME_MINUTES (60) after the item was added; a basket without live seats cannot begin', async () => {
    const slot = await newSlot();
    const token = await openBasket('127.0.0.1');
    const item = ((await addItem('127.0.0.1', token, slot.Time, 1)).json().data as Basket).Items[0]!;
    // Drive time: the item was added 50 minutes ago.
    await t.db.kysely
      .updateTable('bookings')
      .set({ created_at: addMillis(nowMillis(), -50 * 60_000) })
      .where('reference', '=', item.BookingReference)
      .execute();
    const capped: Basket = (await beginCheckout(token)).json().data;
    expect(minutesUntil(capped.Items[0]!.HoldExpiresAt)).toBeLessThanOrEqual(10);
    expect(minutesUntil(capped.Items[0]!.HoldExpiresAt)).toBeGreaterThan(9);

    const empty = await openBasket('127.0.0.1');
    problemOf(await beginCheckout(empty), 409, 'conflict');
    problemOf(await fromAddress(t.app, '127.0.0.1', 'POST', `${shop()}/baskets/AAAAAAAAAAAAAAAAAAAAAA/begin-checkout`), 404, 'not-found');
  });
});

describe('client addresses', () => {
  it('are stored only as keyed HMACs, never in clear nor as a plain hash', async () => {
    const slot = await newSlot();
    const ip = '192.0.2.123';
    const token = await openBasket(ip);
    await addItem(ip, token, slot.Time, 1);
    await fromAddress(t.app, ip, 'POST', `${shop()}/baskets/${token}/checkout`, { Payment: { Provider: 'test', CardNumber: '4000000000000002' } });
    const basket = await t.db.kysely.selectFrom('baskets').selectAll().where('token', '=', token).executeTakeFirstOrThrow();
    const item = await t.db.kysely.selectFrom('basket_items').selectAll().where('basket_id', '=', basket.id).executeTakeFirstOrThrow();
    const payment = await t.db.kysely.selectFrom('payments').selectAll().where('basket_id', '=', basket.id).executeTakeFirstOrThrow();
    const stored = JSON.stringify([basket, item, payment]);
    expect(stored).not.toContain(ip);
    expect(basket.client_hmac).toMatch(/^[0-9a-f]{64}$/);
    expect(item.client_hmac).toBe(basket.client_hmac);
    expect(payment.client_hmac).toBe(basket.client_hmac);
    expect(basket.client_hmac).not.toBe(createHash('sha256').update(ip).digest('hex'));
  });
});
