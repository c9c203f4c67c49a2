// The one handle on the database that the rest of the code holds, whichever the dialect: queries through
// `kysely`, writes through the transactions of `Writers` (transactions.ts). connection.ts opens one.
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { Signals } from './signals.js';
import type { Dialect, Tx, Writers } from './transactions.js';

export interface Db extends Writers {
  readonly dialect: Dialect;
  readonly kysely: Kysely<Database>;
  /** Runs raw multi-statement SQL (migrations). */
  execScript(tx: Tx, script: string): Promise<void>;
  /** Signals to and from the other processes on this database, for their caches (db/signals.ts). */
  readonly signals: Signals;
  /** The connections of the pool now (metrics): open, idle, and requests waiting for one. */
  pool(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}
