// Two `slotbook serve` processes on one database act as one: a key revoked through A is refused by B at
// once (not after B's 5 s key cache), a write through A drops B's cached partner answers at once (not
// after their second), and the rate limit holds for both together (not once per process). PostgreSQL
// carries the news by LISTEN/NOTIFY, SQLite by the file's data_version (src/db/signals.ts); the rate
// limit's counts live in the database (src/http/shared-limiter.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { runCli, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { dateFromToday } from '../availability/fixtures.js';

const RATE_LIMIT = 40;
// Well under the caches' own time limits (5 s for keys, 1 s for answers), with room for a busy machine.
const PROMPTLY_MS = 500;

let database: TestDatabase;
let a: ServerProcess;
let b: ServerProcess;
let admin: string;

async function send(server: ServerProcess, key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(server.url + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, headers: response.headers, body: await response.json().catch(() => null) };
}

async function newOtaKey(name: string): Promise<{ id: number; key: string }> {
  const created = await send(a, admin, 'POST', '/api/v2/admin/keys', { Name: name, Scopes: ['ota'], Partner: 'viator' });
  expect(created.status).toBe(201);
  return { id: created.body.data.ID, key: created.body.data.Key };
}

/** Milliseconds until `check` holds, polling every 10 ms; fails after `limit`. */
async function millisecondsUntil(check: () => Promise<boolean>, limit: number): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > limit) throw new Error(`not within ${limit} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return performance.now() - started;
}

beforeAll(async () => {
  database = await createTestDatabase();
  admin = JSON.parse((await runCli(['operator', 'create', '--name', 'One Co'], { DATABASE_URL: database.url, LOG_LEVEL: 'silent' })).stdout).AdminKey;
  const env = { RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT), LOG_LEVEL: 'warn' };
  [a, b] = await Promise.all([startServerProcess(database.url, env), startServerProcess(database.url, env)]);
}, 60_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await database.drop();
});

describe('two processes on one database', () => {
  it('a key revoked through A is refused by B within milliseconds', async () => {
    const { id, key } = await newOtaKey('to revoke');
    expect((await send(b, key, 'GET', '/api/v2/ota/viator/products')).status).toBe(200); // B now holds the key
    expect((await send(a, admin, 'DELETE', `/api/v2/admin/keys/${id}`)).status).toBe(204);
    const after = await millisecondsUntil(async () => (await send(b, key, 'GET', '/api/v2/ota/viator/products')).status === 401, PROMPTLY_MS);
    expect(after).toBeLessThan(PROMPTLY_MS);
  });

  it("a write through A drops B's cached partner answers within milliseconds", async () => {
    const { key } = await newOtaKey('reader');
    const activity = await send(a, admin, 'POST', '/api/v2/admin/activities', {
      Name: 'Shared Kayak',
      DurationMinutes: 60,
      Timezone: 'UTC',
      Currency: 'EUR',
      UnitPrice: 100,
    });
    const date = dateFromToday(4);
    const slot = await send(a, admin, 'POST', `/api/v2/admin/activities/${activity.body.data.ActivityID}/timeslots`, {
      Date: date,
      Time: '10:00',
      Capacity: 5,
    });
    const path = `/api/v2/ota/viator/availability/${activity.body.data.ActivityID}/timeslots?Date=${date}`;
    const capacityAtB = async () => (await send(b, key, 'GET', path)).body.data[0].Capacity as number;
    expect(await capacityAtB()).toBe(5); // cached in B for up to a second from now
    expect((await send(a, admin, 'PATCH', `/api/v2/admin/timeslots/${slot.body.data.ID}`, { Capacity: 9 })).status).toBe(200);
    const after = await millisecondsUntil(async () => (await capacityAtB()) === 9, PROMPTLY_MS);
    expect(after).toBeLessThan(PROMPTLY_MS);
  });

  it('the rate limit holds for both processes together', async () => {
    const { key } = await newOtaKey('busy');
    const statuses: number[] = [];
    for (let i = 0; i < 2 * RATE_LIMIT; i++) statuses.push((await send(i % 2 === 0 ? a : b, key, 'GET', '/api/v2/ota/viator/products')).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(RATE_LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(RATE_LIMIT);
    const refused = await send(b, key, 'GET', '/api/v2/ota/viator/products');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
