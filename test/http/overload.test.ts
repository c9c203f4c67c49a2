// Overload, against a real `slotbook serve` process whose event loop a test module stalls on SIGUSR2
// (test/helpers/event-loop-staller.ts): while the loop lags beyond OVERLOAD_EVENT_LOOP_DELAY_MS, requests
// are answered at once with a 503 `unavailable` problem and Retry-After instead of waiting; /healthz
// still answers (the process is alive); once the loop keeps up again, requests are served again.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

const STALLER = fileURLToPath(new URL('../helpers/event-loop-staller.ts', import.meta.url));
let database: TestDatabase;
let server: ServerProcess;

beforeAll(async () => {
  database = await createTestDatabase();
  server = await startServerProcess(database.url, { OVERLOAD_EVENT_LOOP_DELAY_MS: '50' }, [STALLER]);
}, 180_000);
afterAll(async () => {
  await server?.stop();
  await database.drop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('an event loop that lags behind', () => {
  it('answers 503 with Retry-After while it lags, and serves again once it keeps up', async () => {
    // Starting (compiling the sources through tsx) keeps the loop busy for a moment too.
    const calm = Date.now() + 30_000;
    while ((await fetch(`${server.url}/readyz`)).status !== 200 && Date.now() < calm) await sleep(250);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    server.child.kill('SIGUSR2');
    // The lag is measured over a second: within two or so the requests are refused.
    let refused = await fetch(`${server.url}/readyz`);
    let started = Date.now();
    for (const until = Date.now() + 3_000; refused.status === 200 && Date.now() < until; ) {
      await sleep(100);
      started = Date.now();
      refused = await fetch(`${server.url}/readyz`);
    }
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = await refused.json();
    expect(problem).toMatchObject({ type: expect.stringMatching(/\/problems\/unavailable$/), status: 503, instance: '/readyz' });
    expect(problem.detail).toMatch(/overloaded/);
    expect(problem.requestId).toBe(refused.headers.get('x-request-id'));
    // Answered between two slices of the stall, not after it.
    expect(Date.now() - started).toBeLessThan(1_000);
    // The process is alive: a liveness probe must not have it restarted for being busy.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

    await sleep(4_500);
    const served = await fetch(`${server.url}/readyz`);
    expect(served.status).toBe(200);
    expect(server.output()).not.toMatch(/"level":50/); // no error logged for any of it
  }, 60_000);
});
