// A database that cannot serve (read-only, locked by another process past the busy timeout) is a 503
// `unavailable` with Retry-After, not a 500, and /readyz says so. (PostgreSQL down or its connections
// lost: test/db/connection-loss.test.ts.)
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/connection.js';
import { buildTestApp, call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { testDialect } from '../helpers/database.js';

let t: TestApp;
let op: TestOperator;
let octoUuid: string;
beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  // An OCTo hold to extend on the read-only view (a write there).
  const created = (await call(t.app, op.adminKey, 'POST', '/api/v2/admin/activities', activity)).json().data;
  const date = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
  await call(t.app, op.adminKey, 'POST', `/api/v2/admin/activities/${created.ActivityID}/timeslots`, { Date: date, Time: '10:00', Capacity: 5 });
  const availability = (
    await call(t.app, op.otaKey, 'POST', '/octo/availability', { productId: created.ActivityID, optionId: 'DEFAULT', localDate: date })
  ).json()[0];
  const held = await call(t.app, op.otaKey, 'POST', '/octo/bookings', {
    productId: created.ActivityID,
    optionId: 'DEFAULT',
    availabilityId: availability.id,
    unitItems: [{ unitId: 'adult' }],
    expirationMinutes: 30,
  });
  expect(held.statusCode, held.body).toBe(200);
  octoUuid = held.json().uuid;
});
afterAll(() => t.close());

const activity = { Name: 'Kayak', DurationMinutes: 60, Timezone: 'Europe/Berlin', Currency: 'EUR', UnitPrice: 1000 };

/** A second process's view of the test database, opened read-only (a standby, a read-only file). */
async function openReadOnly(): Promise<{ db: Db; app: FastifyInstance }> {
  let db: Db;
  if (t.db.dialect === 'postgres') {
    const url = new URL(t.databaseUrl);
    url.searchParams.set('options', '-c default_transaction_read_only=on');
    db = openDatabase({ dialect: 'postgres', url: url.toString() });
  } else {
    db = openDatabase({ dialect: 'sqlite', file: t.databaseUrl.slice('sqlite:'.length) });
    await sql`PRAGMA query_only = ON`.execute(db.kysely);
  }
  const app = await buildTestApp(db);
  return { db, app };
}

describe('a database that refuses writes', () => {
  it('answers writes 503 unavailable with Retry-After, still serves reads, and /readyz is 503', async () => {
    const { db, app } = await openReadOnly();
    try {
      const writes: [string, string, unknown, Record<string, string>][] = [
        [op.usageKey, '/api/v2/usage/meters', { Meter: 'read-only', Usage: 1 }, {}],
        [op.usageKey, '/api/v2/usage/meters', { Meter: 'read-only', Usage: 1 }, { 'idempotency-key': 'read-only-1' }],
        [op.adminKey, '/api/v2/admin/activities', activity, {}],
      ];
      for (const [key, path, body, headers] of writes) {
        const response = await call(app, key, 'POST', path, body, headers);
        problemOf(response, 503, 'unavailable');
        expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      }
      expect((await call(app, op.adminKey, 'GET', '/api/v2/admin/activities')).statusCode).toBe(200);
      // OCTo answers in its own format: INTERNAL_SERVER_ERROR, but 503 with Retry-After, and it says nothing was written.
      const octo = await call(app, op.otaKey, 'POST', '/octo/bookings', {
        productId: 's_doesNotMatter01',
        optionId: 'DEFAULT',
        availabilityId: '2030-01-01T10:00:00+00:00',
        unitItems: [{ unitId: 'adult' }],
      });
      expect([octo.statusCode, octo.json().error]).toEqual([400, 'INVALID_PRODUCT_ID']);
      const extended = await call(app, op.otaKey, 'POST', `/octo/bookings/${octoUuid}/extend`, { expirationMinutes: 5 });
      expect(extended.statusCode, extended.body).toBe(503);
      expect(extended.json()).toMatchObject({ error: 'INTERNAL_SERVER_ERROR', errorMessage: expect.stringMatching(/nothing was written/) });
      expect(Number(extended.headers['retry-after'])).toBeGreaterThan(0);
      const ready = await call(app, undefined, 'GET', '/readyz');
      expect(problemOf(ready, 503, 'unavailable').detail).toMatch(/read-only/);
      expect(Number(ready.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await app.close();
      await db.close();
    }
    expect((await call(t.app, undefined, 'GET', '/readyz')).json()).toEqual({ status: 'ready' });
  });
});

describe.runIf(testDialect() === 'sqlite')('SQLite: another process holds the write lock past the busy timeout', () => {
  it('answers 503 unavailable, then writes again once the lock is free', async () => {
    const other = new SQLite(t.databaseUrl.slice('sqlite:'.length));
    await sql`PRAGMA busy_timeout = 50`.execute(t.db.kysely);
    try {
      other.exec('BEGIN IMMEDIATE');
      const response = await call(t.app, op.usageKey, 'POST', '/api/v2/usage/meters', { Meter: 'busy', Usage: 1 }, { 'idempotency-key': 'busy-1' });
      problemOf(response, 503, 'unavailable');
      other.exec('ROLLBACK');
      expect(
        (await call(t.app, op.usageKey, 'POST', '/api/v2/usage/meters', { Meter: 'busy', Usage: 1 }, { 'idempotency-key': 'busy-1' })).statusCode,
      ).toBe(201);
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
      await sql`PRAGMA busy_timeout = 15000`.execute(t.db.kysely);
    }
  });
});

describe('the API reference', () => {
  it("says that every route (but OCTo's, GetYourGuide's and Viator's, which have their own errors) may answer 503", async () => {
    const doc = (await call(t.app, undefined, 'GET', '/openapi.json')).json() as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const missing = Object.entries(doc.paths)
      .filter(([path]) => !path.startsWith('/octo') && !path.startsWith('/gyg') && !path.startsWith('/viator'))
      .flatMap(([path, methods]) =>
        Object.entries(methods)
          .filter(([, operation]) => !operation.responses['503'])
          .map(([method]) => `${method} ${path}`),
      );
    expect(missing).toEqual([]);
  });
});
