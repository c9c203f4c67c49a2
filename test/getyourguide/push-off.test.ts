// Pushes to GetYourGuide are off until configured: the demo's connection, and any connection without the
// credentials GYG issued for its API, send nothing (not even a request GYG would refuse), note and queue
// nothing, and say so in the connection's answer; storing the credentials turns them on. GYG's API is a
// local receiver here.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { dispatchEvents } from '../../src/webhooks/deliveries/dispatch.js';
import { sendDuePushes } from '../../src/marketplace-push/queue.js';
import { GYG_CHANNEL, gygPushChannel } from '../../src/getyourguide/push.js';
import { seedDemoOnFirstStart, type DemoSeed } from '../../src/demo/seed.js';
import { admin, connect, customer, day, mappedActivity } from './fixtures.js';
import { addMillis, nowMillis, toSeconds } from '../../src/lib/clock.js';

let t: TestApp;
let demo: DemoSeed;
let receiver: Server;
let received: { headers: IncomingHttpHeaders; body: string }[] = [];
const silent = { warn: () => undefined };

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(request.headers.authorization ? 202 : 401, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  t = await createTestApp({ GYG_API_URL: `http://127.0.0.1:${port}/gyg-api` });
  demo = (await seedDemoOnFirstStart(t.db))!;
}, 120_000); // the demo's 60 days of timeslots, on a busy machine
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => receiver.close(resolve));
});
beforeEach(() => {
  received = [];
});

let clock = nowMillis();
/** The dispatcher's pass (it coalesces the seat notes), then the sender's: the requests sent. */
async function pass(): Promise<number> {
  clock = addMillis(clock, 10_000);
  await dispatchEvents(t.db, toSeconds(clock));
  return sendDuePushes(t.db, gygPushChannel(t.app.instanceKeys, t.app.config), silent, clock);
}

const notesAndPushes = async (operatorId: number) => ({
  notes: (await t.db.kysely.selectFrom('webhook_timeslot_changes').select('timeslot_id').where('operator_id', '=', operatorId).execute()).length,
  pushes: (
    await t.db.kysely
      .selectFrom('marketplace_pushes')
      .select('timeslot_id')
      .where('channel', '=', GYG_CHANNEL)
      .where('operator_id', '=', operatorId)
      .execute()
  ).length,
});

const book = (key: string, partner: string, ActivityID: string, date: string, Time: string) =>
  call(t.app, key, 'POST', `/api/v2/ota/${partner}/booking`, { ActivityID, Date: date, Time, Participants: 1, Customer: customer });

describe('pushes to GetYourGuide are off until configured', () => {
  it("sends nothing for the demo's connection, whose activities are offered but which has no GYG credentials", async () => {
    const connection = (await call(t.app, demo.keys.admin, 'GET', '/api/v2/admin/getyourguide')).json().data;
    expect(connection).toMatchObject({ Enabled: true, OutboundPasswordSet: false, PushesAvailability: false });
    await pass(); // whatever the seeding noted
    const slot = (await call(t.app, demo.keys.ota, 'GET', `/api/v2/ota/demo/availability/${demo.activityIds[1]}/timeslots?Date=${day(4)}`)).json()
      .data[0];
    expect((await book(demo.keys.ota, 'demo', demo.activityIds[1]!, day(4), slot.Time)).statusCode).toBe(201);
    expect(await pass()).toBe(0);
    expect(received).toEqual([]);
    expect(await notesAndPushes(demo.operatorId)).toEqual({ notes: 0, pushes: 0 });
  });

  it('sends nothing for a connection without GYG credentials; storing them turns pushes on, forgetting them off', async () => {
    const op: TestOperator = await t.newOperator();
    await connect(t, op);
    const product = await mappedActivity(t, op, 8, 6);
    expect(await pass()).toBe(0);
    expect((await book(op.otaKey, op.partner, product.activityId, day(6), '10:00')).statusCode).toBe(201);
    expect(await pass()).toBe(0);
    expect(received).toEqual([]);

    const on = await admin(t, op, 'PUT', '/api/v2/admin/getyourguide/outbound', { Username: 'gyg-issued', Password: 'issued secret' });
    expect(on).toMatchObject({ OutboundPasswordSet: true, PushesAvailability: true });
    expect((await book(op.otaKey, op.partner, product.activityId, day(6), '10:00')).statusCode).toBe(201);
    expect(await pass()).toBe(1);
    expect(received.map((r) => r.headers.authorization)).toEqual([`Basic ${Buffer.from('gyg-issued:issued secret').toString('base64')}`]);

    received = [];
    const off = await admin(t, op, 'DELETE', '/api/v2/admin/getyourguide/outbound');
    expect(off).toMatchObject({ PushesAvailability: false });
    expect((await book(op.otaKey, op.partner, product.activityId, day(6), '10:00')).statusCode).toBe(201);
    expect(await pass()).toBe(0);
    expect(received).toEqual([]);
  });
});
