// Opens the database named by the configuration and hides the dialect from the domain code: stores see a
// Kysely<Database>, and run their writes through `db.write(...)`, which is a serialised write transaction
// on both dialects.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type { DatabaseConfig } from '../config.js';
import type { Database } from './schema.js';
import { addDecimalStrings } from '../usage/decimal.js';

/** A query handle that is inside a write transaction. Store functions that must not run outside one take this. */
export type Tx = Kysely<Database> & { readonly __transaction: true };

export interface Db {
  readonly dialect: 'sqlite' | 'postgres';
  readonly kysely: Kysely<Database>;
  /** Runs fn in one write transaction: committed when fn resolves, rolled back when it throws. */
  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Runs raw multi-statement SQL (migrations). */
  execScript(tx: Tx, script: string): Promise<void>;
  close(): Promise<void>;
}

export function openDatabase(config: DatabaseConfig): Db {
  return config.dialect === 'sqlite' ? openSqlite(config.file) : openPostgres(config.url);
}

function openSqlite(file: string): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const raw = new SQLite(file, { timeout: 15_000 });
  raw.pragma('journal_mode = WAL');
  // FULL: an acknowledged write is on disk before the response, even if the machine loses power.
  raw.pragma('synchronous = FULL');
  raw.pragma('foreign_keys = ON');
  registerDecimalFunctions(raw);
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }) });
  return {
    dialect: 'sqlite',
    kysely,
    // Kysely's SQLite driver hands out its one connection under a mutex, so within a process these
    // transactions are already serial; BEGIN IMMEDIATE takes the database's write lock up front, so that
    // another process never makes us fail half-way by upgrading a read lock (SQLITE_BUSY_SNAPSHOT).
    write: (fn) =>
      kysely.connection().execute(async (conn) => {
        await sql`BEGIN IMMEDIATE`.execute(conn);
        try {
          const result = await fn(conn as Tx);
          await sql`COMMIT`.execute(conn);
          return result;
        } catch (error) {
          if (raw.inTransaction) await sql`ROLLBACK`.execute(conn);
          throw error;
        }
      }),
    execScript: async (_tx, script) => {
      raw.exec(script);
    },
    close: () => kysely.destroy(),
  };
}

/** Exact decimal arithmetic on integer strings, the same contract as the PostgreSQL functions in the migration. */
function registerDecimalFunctions(raw: SQLite.Database): void {
  raw.function('decimal_add', { deterministic: true }, (a: unknown, b: unknown) =>
    addDecimalStrings(String(a ?? '0'), String(b ?? '0')),
  );
  raw.aggregate('decimal_sum', {
    start: () => 0n,
    step: (total: bigint, value: unknown) => (value === null ? total : total + BigInt(String(value))),
    result: (total: bigint) => total.toString(),
  });
}

function openPostgres(url: string): Db {
  // int8 (counts, millisecond timestamps) fits a JS number exactly in this schema; NUMERIC stays a string.
  pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection that the server closes (restart, failover, DROP DATABASE) is dropped from the pool
  // and replaced on next use; without a listener, its 'error' event would crash the process.
  pool.on('error', (error) => process.emitWarning(`PostgreSQL connection lost: ${error.message}`));
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    dialect: 'postgres',
    kysely,
    write: (fn) => kysely.transaction().execute((trx) => fn(trx as unknown as Tx)),
    execScript: async (tx, script) => {
      await sql.raw(script).execute(tx);
    },
    close: () => kysely.destroy(),
  };
}
