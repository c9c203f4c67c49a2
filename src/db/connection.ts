// Opens the database named by the configuration and hides the dialect from the domain code: stores see a
// Kysely<Database>, and run their writes through `db.write(...)`, which is a serialised write transaction
// on both dialects, or `db.writeGrouped(...)`, which may share one transaction and one commit with other
// writes that queue up at the same time. The dialects live in sqlite.ts and postgres.ts, the transaction
// machinery they share in transactions.ts, the signals between processes in signals.ts.
import type { Kysely } from 'kysely';
import type { DatabaseConfig } from '../config.js';
import type { Database } from './schema.js';
import type { Dialect, Tx, WriteOptions } from './transactions.js';
import type { Signals } from './signals.js';
import { openSqlite } from './sqlite.js';
import { openPostgres } from './postgres.js';

export type { Dialect, FinalStatement, Tx, WriteOptions } from './transactions.js';
export type { Signal, SignalListener, Signals } from './signals.js';
export { atCommitValue, CommitOutcomeUnknown, dialectOf, firstInTransaction, readOncePerTransaction, runAtCommit } from './transactions.js';

export interface Db {
  readonly dialect: Dialect;
  readonly kysely: Kysely<Database>;
  /** Runs fn in one write transaction: committed when fn resolves, rolled back when it throws. */
  write<T>(fn: (tx: Tx) => Promise<T>, options?: WriteOptions): Promise<T>;
  /**
   * Runs fn like `write`, but in a transaction it may share with the grouped writes of the same `key` that
   * queue up meanwhile (on SQLite, whatever their key: every write there takes the one write lock). Each
   * answers after the shared COMMIT. One that throws having only read rejects alone; if one throws after
   * writing, or the shared transaction fails, nothing of the group is stored and each runs again, alone,
   * for its own answer (unless the connection was lost during COMMIT: then each rejects with
   * CommitOutcomeUnknown). So fn must keep all of its effects in the transaction, and may run twice. Meant
   * for writes that would queue for the same row lock anyway (the bookings of one timeslot): they then pay
   * one commit, one fsync, per group instead of one each.
   */
  writeGrouped<T>(key: string, fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Runs raw multi-statement SQL (migrations). */
  execScript(tx: Tx, script: string): Promise<void>;
  /** Signals to and from the other processes on this database, for their caches (db/signals.ts). */
  readonly signals: Signals;
  close(): Promise<void>;
}

export function openDatabase(config: DatabaseConfig): Db {
  return config.dialect === 'sqlite' ? openSqlite(config.file) : openPostgres(config.url);
}
