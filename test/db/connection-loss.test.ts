// PostgreSQL: a lost connection (a terminated backend, a restart, a fail-over, a dropped TCP connection)
// costs the requests that were using it a 503 `unavailable` (retry safe), never the process, and the
// pool goes on with new connections. The shared server is never restarted: a TCP proxy in front of it
// (test/helpers/tcp-proxy.ts) plays the network and the server going away.
import pg from 'pg';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommitOutcomeUnknown, openDatabase, type Db } from '../../src/db/connection.js';
import { isDatabaseUnavailable } from '../../src/db/unavailable.js';
import { buildTestApp, call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { testDialect } from '../helpers/database.js';
import { startTcpProxy, throughProxy, type TcpProxy } from '../helpers/tcp-proxy.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Errors that reached the process's top level while `body` ran: before the fix, Node's exit. */
async function uncaughtDuring(body: () => Promise<void>): Promise<unknown[]> {
  const uncaught: unknown[] = [];
  const record = (error: unknown) => uncaught.push(error);
  process.on('uncaughtException', record);
  try {
    await body();
  } finally {
    process.off('uncaughtException', record);
  }
  return uncaught;
}

describe.runIf(testDialect() === 'postgres')('a lost PostgreSQL connection', () => {
  let t: TestApp;
  let op: TestOperator;
  let admin: pg.Client;
  let proxy: TcpProxy;
  let proxied: { db: Db; app: FastifyInstance };
  const usage = (meter: string) => ({ Meter: meter, Usage: 1 });

  beforeAll(async () => {
    t = await createTestApp();
    op = await t.newOperator();
    admin = new pg.Client({ connectionString: t.databaseUrl });
    await admin.connect();
    await sql`CREATE FUNCTION end_my_backend() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); RETURN NEW; END $$`.execute(t.db.kysely);
    await sql`CREATE TRIGGER lose_connection BEFORE INSERT ON usage_entries
      FOR EACH ROW WHEN (NEW.meter = 'lose-connection') EXECUTE FUNCTION end_my_backend()`.execute(t.db.kysely);
    proxy = await startTcpProxy(Number(new URL(t.databaseUrl).port || 5432));
    const db = openDatabase({ dialect: 'postgres', url: throughProxy(t.databaseUrl, proxy) });
    const app = await buildTestApp(db);
    proxied = { db, app };
  });
  afterAll(async () => {
    await proxied.app.close();
    await proxied.db.close();
    await proxy.close();
    await admin.end();
    await t.close();
  });

  const meterTotal = async (meter: string) =>
    Number((await sql<{ n: string }>`SELECT count(*) AS n FROM usage_entries WHERE meter = ${meter}`.execute(t.db.kysely)).rows[0]!.n);

  it('a backend terminated while its connection is checked out between statements: no crash, the write is unavailable, the pool goes on', async () => {
    // Next on that connection: another statement, or the COMMIT (which, never sent, did not happen: not
    // CommitOutcomeUnknown).
    for (const next of ['statement', 'commit'] as const) {
      let failure: unknown;
      const uncaught = await uncaughtDuring(async () => {
        failure = await t.db
          .write(async (tx) => {
            const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(tx);
            await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
            await sleep(200); // the server's message and the closed socket arrive while no query is running
            if (next === 'statement') await sql`SELECT 1`.execute(tx);
          })
          .then(
            () => 'committed',
            (error: unknown) => error,
          );
      });
      expect(uncaught).toEqual([]);
      expect(failure).not.toBeInstanceOf(CommitOutcomeUnknown);
      expect(isDatabaseUnavailable(failure)).toBe(true);
      const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(t.db.kysely);
      expect(rows).toEqual([{ one: 1 }]);
    }
  });

  it('a statement whose backend is terminated answers 503 unavailable with Retry-After, stores nothing, and the next request succeeds', async () => {
    for (const headers of [{}, { 'idempotency-key': 'lost-1' }] as Record<string, string>[]) {
      const response = await call(t.app, op.usageKey, 'POST', '/api/v2/usage/meters', usage('lose-connection'), headers);
      expect(problemOf(response, 503, 'unavailable').detail).toMatch(/retry/i);
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(await meterTotal('lose-connection')).toBe(0);
    expect((await call(t.app, op.usageKey, 'POST', '/api/v2/usage/meters', usage('after-loss'), { 'idempotency-key': 'lost-1' })).statusCode).toBe(
      201,
    );
  });

  it('connections dropped under load (a network blip): requests fail 503 or outcome-unknown, never the process, and the service answers again', async () => {
    const statuses = new Map<string, number>();
    let stop = false;
    let storedSinceCut = 0;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const response = await call(proxied.app, op.usageKey, 'POST', '/api/v2/usage/meters', usage('blip'), { 'idempotency-key': `blip-${w}-${i}` });
        const kind = response.statusCode === 201 ? '201' : `${response.statusCode} ${response.json().type?.split('/').pop()}`;
        statuses.set(kind, (statuses.get(kind) ?? 0) + 1);
        if (response.statusCode === 201) storedSinceCut += 1;
      }
    };
    // Each blip comes once the service has stored something since the last one (or after 3 s), so that on a
    // busy machine, where a request may take longer than a fixed pause, the test still sees it recover.
    const recovered = async () => {
      const deadline = Date.now() + 3_000;
      while (storedSinceCut === 0 && Date.now() < deadline) await sleep(20);
    };
    const uncaught = await uncaughtDuring(async () => {
      const workers = Array.from({ length: 8 }, (_, w) => worker(w));
      for (let cut = 0; cut < 5; cut++) {
        await sleep(150);
        await recovered();
        storedSinceCut = 0;
        proxy.cut();
      }
      await sleep(150);
      await recovered();
      stop = true;
      await Promise.all(workers);
    });
    expect(uncaught).toEqual([]);
    expect([...statuses.keys()].filter((kind) => !['201', '503 unavailable', '500 outcome-unknown'].includes(kind))).toEqual([]);
    expect(statuses.get('201')).toBeGreaterThan(0);
    expect(statuses.get('503 unavailable')).toBeGreaterThan(0);
    expect((await call(proxied.app, op.usageKey, 'POST', '/api/v2/usage/meters', usage('blip'))).statusCode).toBe(201);
  });

  it('the database down: 503 unavailable with Retry-After, /readyz 503; back up: served and ready again', async () => {
    await proxy.down();
    try {
      const write = await call(proxied.app, op.usageKey, 'POST', '/api/v2/usage/meters', usage('down'));
      problemOf(write, 503, 'unavailable');
      expect(Number(write.headers['retry-after'])).toBeGreaterThan(0);
      problemOf(await call(proxied.app, op.adminKey, 'GET', '/api/v2/admin/activities'), 503, 'unavailable');
      const ready = await call(proxied.app, undefined, 'GET', '/readyz');
      problemOf(ready, 503, 'unavailable');
      expect(Number(ready.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await proxy.up();
    }
    expect((await call(proxied.app, op.usageKey, 'POST', '/api/v2/usage/meters', usage('down'))).statusCode).toBe(201);
    expect((await call(proxied.app, undefined, 'GET', '/readyz')).json()).toEqual({ status: 'ready' });
  });
});
