// The SQLite side of Db: one better-sqlite3 connection in WAL mode, BEGIN IMMEDIATE write transactions,
// its prepared statements kept for reuse (statement-cache.ts), and the decimal functions the schema's
// queries use.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import type { Db } from './db.js';
import type { Database } from './schema.js';
import { writers } from './transactions.js';
import { SqliteSignals } from './signals.js';
import { withStatementCache } from './statement-cache.js';
import { addDecimalStrings } from '../lib/decimal.js';
import { observeDialect, type QueryObserver } from './observed.js';

export function openSqlite(file: string, observer?: QueryObserver): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const raw = new SQLite(file, { timeout: 15_000 });
  raw.pragma('journal_mode = WAL');
  // FULL: an acknowledged write is on disk before the response, even if the machine loses power.
  raw.pragma('synchronous = FULL');
  raw.pragma('foreign_keys = ON');
  registerDecimalFunctions(raw);
  const dialect = new SqliteDialect({ database: withStatementCache(raw) });
  const kysely = new Kysely<Database>({ dialect: observer ? observeDialect(dialect, observer) : dialect });
  const signals = new SqliteSignals(raw);
  return {
    dialect: 'sqlite',
    kysely,
    // Kysely's SQLite driver hands out its one connection under a mutex, so within a process these
    // transactions are already serial; BEGIN IMMEDIATE takes the database's write lock up front, so that
    // another process never makes us fail half-way by upgrading a read lock (SQLITE_BUSY_SNAPSHOT).
    ...writers({
      connection: (body) => kysely.connection().execute(body),
      signals,
      dialect: 'sqlite',
      begin: 'BEGIN IMMEDIATE',
      // NORMAL for that one commit: the WAL is not synced, and the next FULL commit syncs it with this one.
      relaxed: { begin: ['PRAGMA synchronous = NORMAL', 'BEGIN IMMEDIATE'], after: ['PRAGMA synchronous = FULL'] },
      groupsAtOnce: 1,
      // Enough for the bookings of a busy server to share a commit, few enough that the first of a group
      // does not wait long for its answer.
      maxGroup: 64,
      commit: async (conn, statements) => {
        for (const statement of statements) await conn.executeQuery(statement.query);
        await sql`COMMIT`.execute(conn);
      },
      rollback: async (conn) => {
        // Some errors (a full disk, an I/O error) roll SQLite's transaction back by themselves.
        if (raw.inTransaction) await sql`ROLLBACK`.execute(conn);
      },
    }),
    execScript: async (_tx, script) => {
      raw.exec(script);
    },
    signals,
    // One connection, never waited for by another process's pool: SQLite's "pool" is this.
    pool: () => ({ total: 1, idle: raw.inTransaction ? 0 : 1, waiting: 0 }),
    close: async () => {
      await signals.close();
      await kysely.destroy();
    },
  };
}

/** Exact decimal arithmetic on integer strings, the same contract as the PostgreSQL functions in the migration. */
function registerDecimalFunctions(raw: SQLite.Database): void {
  raw.function('decimal_add', { deterministic: true }, (a: unknown, b: unknown) => addDecimalStrings(String(a ?? '0'), String(b ?? '0')));
  raw.aggregate('decimal_sum', {
    start: () => 0n,
    step: (total: bigint, value: unknown) => (value === null ? total : total + BigInt(String(value))),
    result: (total: bigint) => total.toString(),
  });
}
