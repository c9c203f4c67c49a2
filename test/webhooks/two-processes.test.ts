// Two `slotbook serve` processes (each with its webhook worker) on one database and a real receiver: every
// event is delivered once, never by both at the same time. A process killed (SIGKILL) in the middle of a
// delivery leaves a claim that lapses; the event is delivered later, never lost. On PostgreSQL, also two
// workers racing over one backlog in one process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/database.js';
import { runCli, startServerProcess, TEST_SECRET_KEY, type ServerProcess } from '../helpers/server-process.js';
import { openDatabase, type Db } from '../../src/db/connection.js';
import { loadInstanceKeys } from '../../src/secrets/keys.js';
import { createTransport } from '../../src/webhooks/deliveries/transport.js';
import { addressPolicies } from '../../src/webhooks/runtime.js';
import { loadConfig } from '../../src/config.js';
import { LOOPBACK_NETWORKS } from '../helpers/app.js';
import { systemResolver } from '../../src/webhooks/endpoints/address.js';
import { CLAIM_SECONDS, runDueDeliveries, type DeliveryDeps } from '../../src/webhooks/deliveries/deliver.js';
import { startReceiver, type Receiver } from './receiver.js';
import { addSeconds, unixNow } from '../../src/lib/clock.js';

let database: TestDatabase;
let db: Db;
let receiver: Receiver;
let servers: ServerProcess[] = [];
let admin: string;
let activityId: string;
let deps: DeliveryDeps;
const date = new Date(Date.now() + 8 * 86_400_000).toISOString().slice(0, 10);
const nowSeconds = () => unixNow();

async function json(url: string, method = 'GET', body?: unknown) {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${admin}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json().catch(() => null) };
}

const book = (server: ServerProcess, i: number) =>
  json(`${server.url}/api/v2/admin/bookings`, 'POST', {
    ActivityID: activityId,
    Date: date,
    Time: '10:00',
    Participants: 1,
    Customer: { FirstName: `Guest${i}`, LastName: 'Race', Email: `guest${i}@example.com`, Phone: '+4915112345678' },
  });

async function countDeliveries(status: 'pending' | 'sending' | 'delivered' | 'failed'): Promise<number> {
  const row = await db.kysely
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', status)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function until(condition: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  receiver = await startReceiver();
  database = await createTestDatabase();
  const env = { DATABASE_URL: database.url, LOG_LEVEL: 'silent' };
  admin = JSON.parse((await runCli(['operator', 'create', '--name', 'Twin Hooks'], env)).stdout).AdminKey;
  db = openDatabase(database.config);
  // Not production: the receiver listens on 127.0.0.1 over http, a network the instance must allow. (An
  // operator exists, so no demo data.)
  const serverEnv = { LOG_LEVEL: 'warn', NODE_ENV: 'development', WEBHOOK_ALLOWED_NETWORKS: LOOPBACK_NETWORKS };
  servers = await Promise.all([0, 1].map(() => startServerProcess(database.url, serverEnv)));
  const [a] = servers as [ServerProcess];
  activityId = (
    await json(`${a.url}/api/v2/admin/activities`, 'POST', {
      Name: 'Twin Tour',
      DurationMinutes: 60,
      Timezone: 'Europe/Berlin',
      Currency: 'EUR',
      UnitPrice: 100,
    })
  ).body.data.ActivityID;
  expect((await json(`${a.url}/api/v2/admin/activities/${activityId}/timeslots`, 'POST', { Date: date, Time: '10:00', Capacity: 500 })).status).toBe(
    201,
  );
  const endpoint = await json(`${a.url}/api/v2/admin/webhooks`, 'POST', { URL: receiver.url, EventTypes: ['booking.created', 'booking.confirmed'] });
  expect(endpoint.status).toBe(201);
  receiver.secrets = [endpoint.body.data.Secret];
  deps = {
    transport: createTransport({ policies: addressPolicies(loadConfig(serverEnv)), resolve: systemResolver }),
    keys: await loadInstanceKeys(db.kysely, TEST_SECRET_KEY),
    workerId: 'test-process',
  };
}, 90_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  deps?.transport.close();
  await db?.close();
  await database?.drop();
  await receiver?.close();
});

describe('webhooks with two server processes', () => {
  it('each event is delivered once, never by both at the same time', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    // Slow answers: a second, concurrent send of one event would overlap the first one at the receiver.
    receiver.answer = () => ({ status: 204, delayMs: 30 });
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => book(i % 2 === 0 ? a : b, i)));
    expect(results.every((r) => r.status === 201)).toBe(true);
    await until(async () => (await countDeliveries('delivered')) >= 60, 40_000);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // a double send, if there were one, would arrive by now
    expect(await countDeliveries('delivered')).toBe(60);
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
    expect(receiver.overlaps).toEqual([]);
    expect(receiver.received.every((r) => r.verifiedWith.length === 1)).toBe(true);
  }, 60_000);

  it.runIf(testDialect() === 'postgres')(
    'two workers racing over one backlog in one process deliver each event once',
    async () => {
      const other = openDatabase(database.config);
      try {
        const [a] = servers as [ServerProcess];
        receiver.clear();
        const before = await countDeliveries('delivered');
        receiver.answer = () => ({ status: 204, delayMs: 10 });
        const results = await Promise.all(Array.from({ length: 20 }, (_, i) => book(a, 100 + i)));
        expect(results.every((r) => r.status === 201)).toBe(true);
        // Wait until the events are fanned out, then race two more workers against the processes' own.
        await until(
          async () =>
            Number(
              (
                await db.kysely
                  .selectFrom('webhook_outbox')
                  .select((eb) => eb.fn.countAll().as('n'))
                  .executeTakeFirstOrThrow()
              ).n,
            ) === 0,
          20_000,
        );
        await Promise.all([runDueDeliveries(db, { ...deps, workerId: 'race-1' }), runDueDeliveries(other, { ...deps, workerId: 'race-2' })]);
        await until(async () => (await countDeliveries('delivered')) >= before + 40, 20_000);
        await new Promise((resolve) => setTimeout(resolve, 1500));
        const ids = receiver.received.map((r) => r.headers['webhook-id']);
        expect(ids).toHaveLength(40);
        expect(new Set(ids).size).toBe(40);
        expect(receiver.overlaps).toEqual([]);
      } finally {
        await other.close();
      }
    },
    60_000,
  );

  it('a process killed in the middle of a delivery: its claim lapses and the event is delivered later, not lost', async () => {
    receiver.clear();
    let hangFirst = true;
    receiver.answer = () => {
      if (!hangFirst) return 204;
      hangFirst = false;
      return 'hang';
    };
    const [a] = servers as [ServerProcess];
    expect((await book(a, 500)).status).toBe(201);
    await receiver.waitFor(1, 20_000);
    const id = receiver.received[0]!.headers['webhook-id'];
    const deliveryOf = (eventId: string) =>
      db.kysely
        .selectFrom('webhook_deliveries')
        .innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
        .select(['webhook_deliveries.status', 'webhook_deliveries.claimed_by', 'webhook_deliveries.attempts'])
        .where('webhook_events.public_id', '=', eventId)
        .executeTakeFirstOrThrow();
    // The delivery being sent belongs to the process that claimed it: kill that one.
    const claimed = await deliveryOf(id!);
    expect(claimed.status).toBe('sending');
    const owner = servers.find((server) => claimed.claimed_by!.includes(`:${server.child.pid}:`))!;
    await owner.stop('SIGKILL');
    servers = servers.filter((server) => server !== owner);

    // Until the claim lapses nobody sends it again; then it is delivered once more, with the same webhook-id.
    expect(await runDueDeliveries(db, deps, nowSeconds())).toMatchObject({ delivered: 0 });
    await runDueDeliveries(db, deps, addSeconds(nowSeconds(), CLAIM_SECONDS + 1));
    await until(async () => receiver.received.some((r, index) => index > 0 && r.headers['webhook-id'] === id), 20_000);
    expect(await deliveryOf(id!)).toMatchObject({ status: 'delivered', attempts: 2 });
  }, 60_000);
});
