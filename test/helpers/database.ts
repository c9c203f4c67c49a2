// A fresh, migrated database for each test file: a new SQLite file, or (in the postgres project) a new
// PostgreSQL database created on the server named by TEST_POSTGRES_URL and dropped afterwards.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/config.js';
import type { Db } from '../../src/db/connection.js';

export const testDialect = (): 'sqlite' | 'postgres' => (process.env.TEST_DIALECT === 'postgres' ? 'postgres' : 'sqlite');

export interface TestDatabase {
  config: DatabaseConfig;
  /** The DATABASE_URL a child server process would use. */
  url: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  if (testDialect() === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'slotbook-test-'));
    const file = join(dir, 'test.db');
    return { config: { dialect: 'sqlite', file }, url: `sqlite:${file}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const base = new URL(process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const name = `slotbook_test_${randomBytes(6).toString('hex')}`;
  await withAdminClient(base, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    config: { dialect: 'postgres', url: url.toString() },
    url: url.toString(),
    drop: () => withAdminClient(base, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

async function withAdminClient<T>(url: URL, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * The schema as it was before migration `before` (e.g. '008'), applied the way migrate() applies it, so a
 * test can write data as an older version did and then run migrate() over it.
 */
export async function migrateBefore(db: Db, before: string): Promise<void> {
  const folder = fileURLToPath(new URL(`../../src/db/migrations/${db.dialect}/`, import.meta.url));
  await db.write(async (tx) => {
    await sql`CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)`.execute(tx);
    for (const name of readdirSync(folder)
      .filter((file) => file.endsWith('.sql') && file < before)
      .sort()) {
      await db.execScript(tx, readFileSync(folder + name, 'utf8'));
      await sql`INSERT INTO schema_migrations (name, applied_at) VALUES (${name}, ${Date.now()})`.execute(tx);
    }
  });
}

/**
 * Inserts rows into a table of an older schema, by name: the typed query layer knows only today's
 * columns, and a migration test writes what the version before it wrote.
 */
export async function insertRawRows(db: Db, table: string, rows: Record<string, unknown>[]): Promise<void> {
  for (const row of rows) {
    const columns = Object.keys(row);
    await sql`INSERT INTO ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) VALUES (${sql.join(columns.map((c) => row[c]))})`.execute(
      db.kysely,
    );
  }
}
