// A fresh database per benchmark run: an SQLite file under a new temp dir, or a new PostgreSQL database
// on the local server, dropped afterwards. Nothing of a run survives it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { DatabaseConfig } from '../src/config.js';
import { postgresReachable as isReachable } from '../test/helpers/local.js';

export type Dialect = 'sqlite' | 'postgres';

export interface BenchDatabase {
  dialect: Dialect;
  config: DatabaseConfig;
  /** DATABASE_URL for the server child. */
  url: string;
  /** The directory for scratch files of this run (SQLite: the database lives here too). */
  dir: string;
  drop(): Promise<void>;
}

export const POSTGRES_ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export const postgresReachable = (): Promise<boolean> => isReachable(POSTGRES_ADMIN_URL);

export async function postgresVersion(): Promise<string> {
  return withAdmin(async (client) => String((await client.query('SHOW server_version')).rows[0].server_version));
}

export async function createBenchDatabase(dialect: Dialect): Promise<BenchDatabase> {
  const dir = mkdtempSync(join(tmpdir(), `slotbook-bench-${dialect}-`));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  if (dialect === 'sqlite') {
    const file = join(dir, 'slotbook.db');
    return { dialect, config: { dialect, file }, url: `sqlite:${file}`, dir, drop: async () => removeDir() };
  }
  const name = `slotbook_bench_${randomBytes(5).toString('hex')}`;
  await withAdmin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    dialect,
    config: { dialect, url: url.toString() },
    url: url.toString(),
    dir,
    drop: async () => {
      await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      removeDir();
    },
  };
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
