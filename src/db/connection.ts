// Opens the database named by the configuration and hides the dialect from the domain code: stores see a
// Kysely<Database>, and run their writes through `db.write(...)`, which is a serialised write transaction
// on both dialects, or `db.writeGrouped(...)`, which may share one transaction and one commit with other
// writes that queue up at the same time. The dialects live in sqlite.ts and postgres.ts, the transaction
// machinery they share in transactions.ts, the signals between processes in signals.ts.
import type { DatabaseConfig } from '../config.js';
import type { Db } from './db.js';
import { openSqlite } from './sqlite.js';
import { openPostgres } from './postgres.js';
import type { QueryObserver } from './observed.js';

export type { Db } from './db.js';
export type { Dialect, FinalStatement, Tx, WriteOptions, Writers } from './transactions.js';
export type { Signal, SignalListener, Signals } from './signals.js';
export type { QueryObserver, StatementKind } from './observed.js';
export {
  afterCommit,
  atCommitValue,
  CommitOutcomeUnknown,
  dialectOf,
  firstInTransaction,
  readOncePerTransaction,
  runAtCommit,
  signalAtCommit,
} from './transactions.js';

/** `observer` sees every statement (metrics, traces); without one a statement costs nothing more. */
export function openDatabase(config: DatabaseConfig, observer?: QueryObserver): Db {
  return config.dialect === 'sqlite' ? openSqlite(config.file, observer) : openPostgres(config.url, observer);
}
