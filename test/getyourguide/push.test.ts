// Pushing availability to GetYourGuide: a booking on another channel reaches a local receiver standing in
// for GYG's API as notify-availability-update with the right body and GYG's credentials, coalesced per
// timeslot, sell-outs first, and a 429 is retried when Retry-After says.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { dispatchEvents } from '../../src/webhooks/deliveries/dispatch.js';
import { sendDuePushes } from '../../src/marketplace-push/queue.js';
import { GYG_CHANNEL, gygPushChannel } from '../../src/getyourguide/push.js';
import { pushQueueStats } from '../../src/marketplace-push/store.js';
import { installTallies, type QueueName, type QueueOutcome } from '../../src/hooks/tallies.js';
import { PushBody } from '../../src/getyourguide/schemas.js';
import { admin, berlin, connect, customer, day, mappedActivity, reserveBody, type Gyg } from './fixtures.js';
import { addMillis, nowMillis, toSeconds, type UnixMillis } from '../../src/lib/clock.js';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: { data: { productId: string; availabilities: Record<string, unknown>[] } };
}

let t: TestApp;
let op: TestOperator;
let gyg: Gyg;
let receiver: Server;
let received: Received[] = [];
let answers: { status: number; headers?: Record<string, string> }[] = [];
const validPush = new Ajv({ strict: false }).compile(PushBody);
const silent = { warn: () => undefined };

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: JSON.parse(text) });
      const answer = answers.shift() ?? { status: 202 };
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      response.end(JSON.stringify({ data: { message: 'Availability Update Accepted' } }));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  t = await createTestApp({ GYG_API_URL: `http://127.0.0.1:${port}/gyg-api` });
  op = await t.newOperator();
  gyg = await connect(t, op);
  await admin(t, op, 'PUT', '/api/v2/admin/getyourguide/outbound', { Username: 'gyg-issued', Password: 'issued secret' });
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => receiver.close(resolve));
});
beforeEach(() => {
  received = [];
  answers = [];
});

/** GetYourGuide's sender, one pass at `nowMs`: the requests made. */
const send = (nowMs: UnixMillis) => sendDuePushes(t.db, gygPushChannel(t.app.instanceKeys, t.app.config), silent, nowMs);

/** The passes' clock: each pass is later than the dispatcher's coalescing window after the one before. */
let clock = nowMillis();
/** The webhooks' dispatcher coalesces the seat notes (the worker's pass), then the sender pushes (its pass). */
async function pass(): Promise<number> {
  clock = addMillis(clock, 10_000);
  await dispatchEvents(t.db, toSeconds(clock));
  return send(clock);
}

const partnerBooking = (activityId: string, offset: number, Participants: number) =>
  call(t.app, op.otaKey, 'POST', `/api/v2/ota/${op.partner}/booking`, {
    ActivityID: activityId,
    Date: day(offset),
    Time: '10:00',
    Participants,
    Customer: customer,
  });

describe('notify-availability-update', () => {
  it("pushes a mapped product's timeslot after a booking on another channel, coalesced, with GYG's credentials", async () => {
    const product = await mappedActivity(t, op, 6, 9);
    await pass(); // the timeslot's creation
    received = [];
    expect((await partnerBooking(product.activityId, 9, 1)).statusCode).toBe(201);
    expect((await partnerBooking(product.activityId, 9, 2)).statusCode).toBe(201);
    expect(await pass()).toBe(1);
    expect(received).toHaveLength(1);
    const [push] = received;
    expect(push!.path).toBe('/gyg-api/1/notify-availability-update');
    expect(push!.headers.authorization).toBe(`Basic ${Buffer.from('gyg-issued:issued secret').toString('base64')}`);
    expect(validPush(push!.body), JSON.stringify(validPush.errors)).toBe(true);
    expect(push!.body).toEqual({
      data: {
        productId: product.productId,
        availabilities: [
          {
            dateTime: berlin(day(9)),
            vacancies: 3,
            currency: 'EUR',
            pricesByCategory: {
              retailPrices: [
                { category: 'ADULT', price: 2500 },
                { category: 'CHILD', price: 1500 },
              ],
            },
          },
        ],
      },
    });
    // Nothing changed since: nothing more is sent.
    expect(await pass()).toBe(0);
  });

  it('pushes a sell-out first, and retries a 429 after its Retry-After', async () => {
    const roomy = await mappedActivity(t, op, 10, 10);
    const small = await mappedActivity(t, op, 2, 11);
    await pass();
    received = [];
    expect((await partnerBooking(roomy.activityId, 10, 1)).statusCode).toBe(201);
    const reserved = await gyg('POST', 'reserve', 'reserve/', reserveBody(small.productId, berlin(day(11)), 'GYGPUSH1'));
    expect(reserved.data).toBeTruthy();
    answers = [{ status: 202 }, { status: 429, headers: { 'retry-after': '30' } }];
    expect(await pass()).toBe(2);
    const now = clock;
    expect(received.map((r) => r.body.data.productId)).toEqual([small.productId, roomy.productId]);
    expect(received[0]!.body.data.availabilities[0]!.vacancies).toBe(0);

    // The refused push waits for its Retry-After, then goes out.
    received = [];
    expect(await send(addMillis(now, 20_000))).toBe(0);
    expect(await send(addMillis(now, 31_000))).toBe(1);
    expect(received.map((r) => r.body.data.productId)).toEqual([roomy.productId]);
    expect(await t.db.kysely.selectFrom('marketplace_pushes').selectAll().where('channel', '=', GYG_CHANNEL).execute()).toEqual([]);
  });

  it('pushes nothing for an activity that is not offered, or while the connection is off', async () => {
    const unmapped = await admin(t, op, 'POST', '/api/v2/admin/activities', {
      Name: 'Not on GYG',
      DurationMinutes: 60,
      Timezone: 'Europe/Berlin',
      Currency: 'EUR',
      UnitPrice: 100,
    });
    await admin(t, op, 'POST', `/api/v2/admin/activities/${unmapped.ActivityID}/timeslots`, { Date: day(12), Time: '10:00', Capacity: 5 });
    await pass();
    expect(received).toEqual([]);
    const product = await mappedActivity(t, op, 5, 13);
    await pass();
    received = [];
    await admin(t, op, 'PATCH', '/api/v2/admin/getyourguide', { Enabled: false });
    expect((await partnerBooking(product.activityId, 13, 1)).statusCode).toBe(201);
    expect(await pass()).toBe(0);
    expect(received).toEqual([]);
    await admin(t, op, 'PATCH', '/api/v2/admin/getyourguide', { Enabled: true });
  });

  it("counts its outcomes and its queue's depth and age for the metrics (queue gyg_push)", async () => {
    const outcomes: string[] = [];
    installTallies({
      booking: () => undefined,
      holdsLapsed: () => undefined,
      queue: (queue: QueueName, outcome: QueueOutcome, count: number) => outcomes.push(`${queue} ${outcome} ${count}`),
    });
    try {
      const product = await mappedActivity(t, op, 8, 14);
      await pass();
      outcomes.length = 0;
      received = [];
      expect((await partnerBooking(product.activityId, 14, 1)).statusCode).toBe(201);
      clock = addMillis(clock, 10_000);
      await dispatchEvents(t.db, toSeconds(clock));
      expect(await pushQueueStats(t.db.kysely, GYG_CHANNEL, addMillis(clock, 5_000))).toEqual({ due: 1, oldestDueAt: toSeconds(clock) * 1000 });
      answers = [{ status: 500 }];
      expect(await send(clock)).toBe(1);
      expect(outcomes).toEqual(['gyg_push retrying 1']);
      // Postponed by the back-off (10 s): not due now, due then.
      expect(await pushQueueStats(t.db.kysely, GYG_CHANNEL, clock)).toEqual({ due: 0, oldestDueAt: null });
      expect((await pushQueueStats(t.db.kysely, GYG_CHANNEL, addMillis(clock, 10_000))).due).toBe(1);
      expect(await send(addMillis(clock, 10_000))).toBe(1);
      expect(outcomes).toEqual(['gyg_push retrying 1', 'gyg_push sent 1']);
      expect(await pushQueueStats(t.db.kysely, GYG_CHANNEL, addMillis(clock, 10_000))).toEqual({ due: 0, oldestDueAt: null });
      expect(received.map((r) => r.body.data.productId)).toEqual([product.productId, product.productId]);
      clock = addMillis(clock, 10_000);
    } finally {
      installTallies(undefined);
    }
  });
});
