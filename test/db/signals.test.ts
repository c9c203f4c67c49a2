// Signals between processes (src/db/signals.ts), here two Db handles on one database as two processes:
// heard by the others and not by the sender; on PostgreSQL the listening connection comes back after it
// is lost and says "anything may have changed" when it does; on SQLite another process's commit is heard.
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db, type Signal } from '../../src/db/connection.js';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/database.js';
import { migrate } from '../../src/db/migrate.js';

let database: TestDatabase;
let a: Db;
let b: Db;
const heardByA: (Signal | undefined)[] = [];
const heardByB: (Signal | undefined)[] = [];

async function until(check: () => boolean, limit = 2000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > limit) throw new Error(`not within ${limit} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

beforeAll(async () => {
  database = await createTestDatabase();
  a = openDatabase(database.config);
  await migrate(a);
  b = openDatabase(database.config);
  a.signals.subscribe((signal) => heardByA.push(signal));
  b.signals.subscribe((signal) => heardByB.push(signal));
  if (a.dialect === 'postgres') await until(() => heardByA.length > 0 && heardByB.length > 0); // both listening
  heardByA.length = 0;
  heardByB.length = 0;
});
afterAll(async () => {
  await a.close();
  await b.close();
  await database.drop();
});

describe.runIf(testDialect() === 'postgres')('PostgreSQL signals', () => {
  it('are heard by the other processes, once per batch, and not by the sender', async () => {
    a.signals.publish('key-revoked', 7);
    a.signals.publish('key-revoked', 7);
    a.signals.publish('partner-reads', 3);
    await until(() => heardByB.length === 2);
    expect(heardByB).toEqual([
      { topic: 'key-revoked', id: 7 },
      { topic: 'partner-reads', id: 3 },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heardByA).toEqual([]);
    heardByB.length = 0;
  });

  it('the listening connection, lost, comes back: "anything may have changed", then signals again, and no crash', async () => {
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', record);
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      const { rowCount } = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'slotbook-signals' AND datname = current_database()",
      );
      expect(rowCount).toBe(2); // A's and B's
      await until(() => heardByB.includes(undefined));
      heardByB.length = 0;
      a.signals.publish('key-revoked', 8);
      await until(() => heardByB.length === 1);
      expect(heardByB).toEqual([{ topic: 'key-revoked', id: 8 }]);
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', record);
      await admin.end();
    }
  });
});

describe.runIf(testDialect() === 'sqlite')('SQLite signals', () => {
  it('another process\'s commit is heard as "anything may have changed", one\'s own is not', async () => {
    await sql`INSERT INTO operators (name, created_at) VALUES ('by A', 0)`.execute(a.kysely);
    await until(() => heardByB.length > 0, 1000);
    expect(heardByB[0]).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(heardByA).toEqual([]);
  });
});
