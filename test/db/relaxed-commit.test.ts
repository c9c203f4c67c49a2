// Db.write with `durable: false` (the webhook worker's bookkeeping): the commit does not wait for the disk
// (SQLite: synchronous = NORMAL; PostgreSQL: synchronous_commit off), only for that transaction. The
// connection is put back for the next write, whether the relaxed one committed or failed, and its rows are
// stored and read like any other.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tx } from '../../src/db/connection.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDialect } from '../helpers/database.js';

describe('a write that need not wait for the disk', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await sql`CREATE TABLE scratch (name TEXT NOT NULL UNIQUE)`.execute(t.db.kysely);
  });
  afterAll(() => t.close());

  /** Whether the connection's commits now wait for the disk. */
  const waitsForDisk = async (tx: Tx): Promise<boolean> => {
    if (testDialect() === 'postgres')
      return (await sql<{ synchronous_commit: string }>`SHOW synchronous_commit`.execute(tx)).rows[0]!.synchronous_commit === 'on';
    return (await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(tx)).rows[0]!.synchronous === 2; // FULL
  };
  const names = async () => (await sql<{ name: string }>`SELECT name FROM scratch ORDER BY name`.execute(t.db.kysely)).rows.map((r) => r.name);

  it('commits without waiting inside, and the next write waits again', async () => {
    const relaxed = await t.db.write(
      async (tx) => {
        await sql`INSERT INTO scratch VALUES ('relaxed')`.execute(tx);
        return waitsForDisk(tx);
      },
      { durable: false },
    );
    expect(relaxed).toBe(false);
    expect(await t.db.write((tx) => waitsForDisk(tx))).toBe(true);
    expect(await names()).toEqual(['relaxed']);
  });

  it('rolls back on failure, and the connection waits for the disk again', async () => {
    await expect(
      t.db.write(
        async (tx) => {
          await sql`INSERT INTO scratch VALUES ('lost')`.execute(tx);
          await sql`INSERT INTO scratch VALUES ('relaxed')`.execute(tx); // a duplicate
        },
        { durable: false },
      ),
    ).rejects.toThrow();
    expect(await names()).toEqual(['relaxed']);
    // Every connection of the pool (PostgreSQL) or the one connection (SQLite) is back to durable commits.
    const checks = await Promise.all(Array.from({ length: 12 }, () => t.db.write((tx) => waitsForDisk(tx))));
    expect(checks.every(Boolean)).toBe(true);
  });
});
