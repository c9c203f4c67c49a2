// Card numbers and card testing (issue 11, finding 7): the idempotency record of a payment keeps no
// fingerprint of the card number (an unsalted SHA-256 of the body could be brute-forced back to it), and
// repeated declines per basket and per paying address must wait, longer after each further decline.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer } from '../emails/fixtures.js';
import { DECLINED_CARD, fromAddress, GOOD_CARD, openShop } from './fixtures.js';
import { addMillis } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;
let kayak: string;
const date = dateFromToday(13);
const shop = () => `/api/v2/shop/${op.operatorId}`;

async function filledBasket(ip: string): Promise<string> {
  const token = (await fromAddress(t.app, ip, 'POST', `${shop()}/baskets`, { Customer: customer() })).json().data.BasketToken as string;
  const added = await fromAddress(t.app, ip, 'POST', `${shop()}/baskets/${token}/items`, {
    ActivityID: kayak,
    Date: date,
    Time: '10:00',
    Participants: 1,
  });
  expect(added.statusCode, added.body).toBe(201);
  return token;
}

const pay = (ip: string, token: string, Payment: object, headers: Record<string, string> = {}) =>
  fromAddress(t.app, ip, 'POST', `${shop()}/baskets/${token}/checkout`, { Payment }, headers);

/** Drive time: every declined attempt of `ip`'s baskets happened `seconds` earlier. */
async function declinesEarlierBy(seconds: number): Promise<void> {
  const rows = await t.db.kysely.selectFrom('payments').select(['id', 'created_at']).where('status', '=', 'declined').execute();
  for (const row of rows)
    await t.db.kysely
      .updateTable('payments')
      .set({ created_at: addMillis(row.created_at, -seconds * 1000) })
      .where('id', '=', row.id)
      .execute();
}

const payments = async () => (await t.db.kysely.selectFrom('payments').select('id').execute()).length;

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  await openShop(t, op.adminKey);
  kayak = (await createActivity(t, op.adminKey, { Name: 'Kayak' })).ActivityID;
  await createTimeslot(t, op.adminKey, kayak, { Date: date, Time: '10:00', Capacity: 100 });
});
afterAll(() => t.close());

describe('card testing', () => {
  it('three declines of a basket pass; then each attempt waits 30 s, 60 s, 120 s... (429 too-many-declines, Retry-After), charging nothing', async () => {
    const ip = '198.51.100.60';
    const token = await filledBasket(ip);
    for (let i = 0; i < 3; i++) problemOf(await pay(ip, token, DECLINED_CARD), 422, 'validation');
    const attempts = await payments();

    const waits: number[] = [];
    for (const wait of [30, 60, 120]) {
      const refused = await pay(ip, token, GOOD_CARD);
      problemOf(refused, 429, 'too-many-declines');
      waits.push(Number(refused.headers['retry-after']));
      expect(await payments()).toBe(attempts + waits.length - 1); // a refused attempt reaches no provider and records nothing
      await declinesEarlierBy(wait); // the wait passes
      problemOf(await pay(ip, token, DECLINED_CARD), 422, 'validation'); // and one more decline
    }
    expect(waits.map((w) => Math.round(w / 10) * 10)).toEqual([30, 60, 120]);
    await declinesEarlierBy(240);
    expect((await pay(ip, token, GOOD_CARD)).statusCode).toBe(200); // a good card, once the wait is over
  });

  it('counts the declines of one address over all its baskets; another address is not slowed', async () => {
    const ip = '198.51.100.61';
    for (let i = 0; i < 3; i++) problemOf(await pay(ip, await filledBasket(ip), DECLINED_CARD), 422, 'validation');
    const refused = await pay(ip, await filledBasket(ip), DECLINED_CARD);
    problemOf(refused, 429, 'too-many-declines');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(25);
    expect((await pay('198.51.100.62', await filledBasket('198.51.100.62'), GOOD_CARD)).statusCode).toBe(200);
  });

  it('one address pays one basket at a time: the others are refused at once (409), not queued', async () => {
    const ip = '198.51.100.63';
    const baskets = [await filledBasket(ip), await filledBasket(ip), await filledBasket(ip)];
    const results = await Promise.all(baskets.map((token) => pay(ip, token, GOOD_CARD)));
    // SQLite runs one write at a time anyway; PostgreSQL refuses the payments that overlap.
    expect(results.every((r) => r.statusCode === 200 || r.statusCode === 409)).toBe(true);
    expect(results.filter((r) => r.statusCode === 200).length).toBeGreaterThanOrEqual(1);
  });
});

describe('the idempotency record of a payment', () => {
  it('holds no fingerprint of the card number: a retry with the same key answers the first payment whatever the card', async () => {
    const ip = '198.51.100.64';
    const token = await filledBasket(ip);
    const headers = { 'idempotency-key': 'pay-once' };
    const first = await pay(ip, token, GOOD_CARD, headers);
    expect(first.statusCode, first.body).toBe(200);
    const retry = await pay(ip, token, { Provider: 'test', CardNumber: '5555555555554444' }, headers);
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());

    const record = await t.db.kysely.selectFrom('idempotency_keys').selectAll().where('idempotency_key', '=', 'pay-once').executeTakeFirstOrThrow();
    expect(JSON.stringify(record)).not.toContain('4242424242424242');
    // Not the old unsalted hash of the request, nor a plain hash of anything with the card in it.
    const body = { Payment: GOOD_CARD };
    for (const guess of [
      ['checkout', token, body],
      ['POST', '/api/v2/shop/:OperatorID/baskets/:BasketToken/checkout', { OperatorID: op.operatorId, BasketToken: token }, body],
      [body],
    ]) {
      expect(record.request_hash).not.toBe(createHash('sha256').update(JSON.stringify(guess)).digest('hex'));
    }
  });
});
