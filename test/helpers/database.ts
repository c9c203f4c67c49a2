// A fresh, migrated database for each test file: a new SQLite file, or (in the postgres project) a new
// PostgreSQL database created on the server named by TEST_POSTGRES_URL and dropped afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/config.js';

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
