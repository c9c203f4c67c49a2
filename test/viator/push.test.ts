// Viator's event notifications: a change of seats on another channel reaches a local receiver standing in
// for Viator's API as /v2/notification/events with the right body and Viator's key, through the shared
// push queue; sell-outs first as AVAILABILITY; a price change as PRICING; a 429 is retried when Retry-After says; nothing without
// Viator's key, nothing for an option Viator never asked the calendar of, and an option Viator refuses
// stops being notified until its calendar is asked again.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { dispatchEvents } from '../../src/webhooks/deliveries/dispatch.js';
import { sendDuePushes } from '../../src/marketplace-push/queue.js';
import { viatorPushChannel } from '../../src/viator/push.js';
import { EventNotificationRequest } from '../../src/viator/schemas.js';
import { admin, connect, customer, day, mappedActivity, SUPPLIER_ID, type Viator } from './fixtures.js';
import { addMillis, nowMillis, toSeconds } from '../../src/lib/clock.js';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: { supplierId: number; updateType: string[]; productOptionIds: string[]; startDate: string; endDate: string };
}

let t: TestApp;
let op: TestOperator;
let viator: Viator;
let receiver: Server;
let received: Received[] = [];
let answers: { status: number; headers?: Record<string, string>; body?: unknown }[] = [];
const ajv = new Ajv({ strict: false });
addFormats.default(ajv, ['date']);
const validNotification = ajv.compile(EventNotificationRequest);
const silent = { warn: () => undefined };

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: JSON.parse(text) });
      const answer = answers.shift() ?? { status: 204 };
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      response.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  t = await createTestApp({ VIATOR_API_URL: `http://127.0.0.1:${port}/viator-api` });
  op = await t.newOperator();
  viator = await connect(t, op);
  await admin(t, op, 'PUT', '/api/v2/admin/viator/outbound', { Key: 'viator-issued-key' });
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => receiver.close(resolve));
});
beforeEach(() => {
  received = [];
  answers = [];
});

let clock = nowMillis();
/** The webhooks' dispatcher coalesces the seat notes (the worker's pass), then Viator's sender pushes (its pass). */
async function pass(): Promise<number> {
  clock = addMillis(clock, 10_000);
  await dispatchEvents(t.db, toSeconds(clock));
  return sendDuePushes(t.db, viatorPushChannel(t.db, t.app.instanceKeys, t.app.config), silent, clock);
}

const partnerBooking = (activityId: string, offset: number, Participants: number) =>
  call(t.app, op.otaKey, 'POST', `/api/v2/ota/${op.partner}/booking`, {
    ActivityID: activityId,
    Date: day(offset),
    Time: '10:00',
    Participants,
    Customer: customer,
  });

/** Viator asks the option's calendar: from then on it is notified (Viator's rule). */
const askCalendar = (optionId: string) =>
  viator('calendar', { supplierId: SUPPLIER_ID, productOptionIds: [optionId], startDate: day(0), endDate: day(30) });

describe('event notifications', () => {
  it('notifies a change of seats on another channel, coalesced, with Viator’s key; a sell-out as AVAILABILITY', async () => {
    const product = await mappedActivity(t, op, 3, 9);
    await pass();
    expect(received).toEqual([]); // Viator has not asked this option's calendar yet.
    await askCalendar(product.optionId);
    expect((await partnerBooking(product.activityId, 9, 1)).statusCode).toBe(201);
    expect((await partnerBooking(product.activityId, 9, 1)).statusCode).toBe(201);
    expect(await pass()).toBe(1);
    expect(received).toHaveLength(1);
    const [push] = received;
    expect(push!.path).toBe('/viator-api/v2/notification/events');
    expect(push!.headers['x-api-key']).toBe('viator-issued-key');
    expect(validNotification(push!.body), JSON.stringify(validNotification.errors)).toBe(true);
    expect(push!.body).toEqual({
      supplierId: SUPPLIER_ID,
      updateType: ['CAPACITY'],
      productOptionIds: [product.optionId],
      startDate: day(9),
      endDate: day(9),
    });
    expect(await pass()).toBe(0);

    // The last seat goes: Viator must stop selling, so AVAILABILITY.
    expect((await partnerBooking(product.activityId, 9, 1)).statusCode).toBe(201);
    await pass();
    expect(received[1]!.body.updateType).toEqual(['AVAILABILITY']);
  });

  it('tells a price change as PRICING for every date still to come, on its own channel, once', async () => {
    const product = await mappedActivity(t, op, 3, 12);
    await admin(t, op, 'POST', `/api/v2/admin/activities/${product.activityId}/timeslots`, { Date: day(15), Time: '10:00', Capacity: 3 });
    await askCalendar(product.optionId);
    await pass();
    received = [];
    const pricing = () => sendDuePushes(t.db, viatorPushChannel(t.db, t.app.instanceKeys, t.app.config, undefined, 'pricing'), silent, clock);
    expect(await pricing()).toBe(0);

    await admin(t, op, 'PATCH', `/api/v2/admin/activities/${product.activityId}`, { UnitPrice: 2700 });
    expect(await pricing()).toBe(1);
    expect(received).toHaveLength(1);
    expect(validNotification(received[0]!.body), JSON.stringify(validNotification.errors)).toBe(true);
    expect(received[0]!.body).toEqual({
      supplierId: SUPPLIER_ID,
      updateType: ['PRICING'],
      productOptionIds: [product.optionId],
      startDate: day(12),
      endDate: day(15),
    });
    expect(await pricing()).toBe(0);
    // The seats' channel has nothing of it: a price is not a change of seats.
    expect(await pass()).toBe(0);
  });

  it('sends sell-outs first and waits for Retry-After after a 429', async () => {
    const calm = await mappedActivity(t, op, 5, 10);
    const busy = await mappedActivity(t, op, 1, 11);
    await askCalendar(calm.optionId);
    await askCalendar(busy.optionId);
    await pass();
    received = [];
    expect((await partnerBooking(calm.activityId, 10, 1)).statusCode).toBe(201);
    expect((await partnerBooking(busy.activityId, 11, 1)).statusCode).toBe(201);
    answers = [{ status: 429, headers: { 'retry-after': '60' } }];
    await pass();
    expect(received.map((r) => r.body.productOptionIds[0])).toEqual([busy.optionId, calm.optionId]);
    received = [];
    // 10 s later (the next pass): the 429'd one waits for its minute.
    await pass();
    expect(received).toEqual([]);
    clock = addMillis(clock, 60_000);
    await pass();
    expect(received.map((r) => r.body.productOptionIds[0])).toEqual([busy.optionId]);
  });

  it('stops notifying an option Viator refuses, until Viator asks its calendar again', async () => {
    const product = await mappedActivity(t, op, 5, 12);
    await askCalendar(product.optionId);
    await pass();
    received = [];
    expect((await partnerBooking(product.activityId, 12, 1)).statusCode).toBe(201);
    answers = [{ status: 207, body: { results: [{ productOptionId: product.optionId, status: 422, error: 'INVALID_PRODUCT_OPTION' }] } }];
    await pass();
    expect(received).toHaveLength(1);
    const listed = (await admin(t, op, 'GET', '/api/v2/admin/viator/products')).find(
      (p: { ActivityID: string }) => p.ActivityID === product.activityId,
    );
    expect(listed.Notifying).toBe(false);
    expect((await partnerBooking(product.activityId, 12, 1)).statusCode).toBe(201);
    await pass();
    expect(received).toHaveLength(1);
    await askCalendar(product.optionId);
    expect((await partnerBooking(product.activityId, 12, 1)).statusCode).toBe(201);
    await pass();
    expect(received).toHaveLength(2);
  });

  it("pushes nothing without Viator's key, and nothing while the connection is off", async () => {
    const product = await mappedActivity(t, op, 5, 13);
    await askCalendar(product.optionId);
    await pass();
    received = [];
    await admin(t, op, 'DELETE', '/api/v2/admin/viator/outbound');
    expect((await partnerBooking(product.activityId, 13, 1)).statusCode).toBe(201);
    await pass();
    expect(received).toEqual([]);
    await admin(t, op, 'PUT', '/api/v2/admin/viator/outbound', { Key: 'viator-issued-key' });
    await admin(t, op, 'PATCH', '/api/v2/admin/viator', { Enabled: false });
    expect((await partnerBooking(product.activityId, 13, 1)).statusCode).toBe(201);
    await pass();
    expect(received).toEqual([]);
    await admin(t, op, 'PATCH', '/api/v2/admin/viator', { Enabled: true });
  });
});
