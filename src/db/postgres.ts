// The PostgreSQL side of Db: a pool of connections that prepare their statements, READ COMMITTED write
// transactions whose final statements travel with the COMMIT, and what a lost connection means for them.
import pg from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type { Db } from './db.js';
import type { Database } from './schema.js';
import { CommitOutcomeUnknown, writers } from './transactions.js';
import { ConnectionLost } from './unavailable.js';
import { PostgresSignals } from './signals.js';
import { observeDialect, type QueryObserver } from './observed.js';

/** An error that ends the connection: no answer from the server, or a server error that closes it. */
function endsConnection(error: unknown): boolean {
  if (!(error instanceof pg.DatabaseError)) return true;
  // Class 08: connection exception; 57: operator intervention (shutdown, terminated backend).
  return error.code === undefined || error.code.startsWith('08') || error.code.startsWith('57');
}

// How long a new connection may take before the request that wanted it fails (503): a server that does
// not answer at all (a fail-over in progress, a black-holed network) must not hold requests for the
// operating system's two minutes. Keep-alive probes find a connection whose peer vanished without a word.
const CONNECT_TIMEOUT_MS = 5_000;
const KEEP_ALIVE_DELAY_MS = 10_000;

// Kysely sends every query unnamed, so PostgreSQL parses and plans it anew each time; for the short
// statements of a booking that was most of the server's work. Named, a statement is parsed once per
// connection, and after five runs PostgreSQL may keep a generic plan when it costs no more than the custom
// ones (its default plan_cache_mode). Only statements with parameters: one without is either a constant
// command (BEGIN) or has its values inlined (runAtCommit) and would never be run twice. The number of
// names is bounded, as a statement's text can vary with the length of a list.
const MAX_STATEMENT_NAMES = 1000;
const statementNames = new Map<string, string>();

class PreparingClient extends pg.Client {
  /** Set once a table changed under a prepared statement; this connection then names nothing more. */
  #plain = false;
  /** Set once the connection is known to be gone: its next statements are refused without being sent. */
  #lost = false;

  constructor(config?: string | pg.ClientConfig) {
    super(config);
    // pg reports a connection that dies while no query runs on it (the server's "terminating connection"
    // between two statements of a transaction, a reset socket) as an 'error' event. The pool listens
    // only while the client is idle in it; a checked-out client without a listener of its own would turn
    // the event into an uncaught exception, which ends the process. The failure reaches the request
    // through its next statement instead (ConnectionLost), and the pool drops the client on release.
    this.on('error', () => {
      this.#lost = true;
    });
  }

  // pg's query() has many overloads; this only adds a name to the (text, values) promise form Kysely uses.
  // biome-ignore lint/suspicious/noExplicitAny: pg's own signature for query(), whose overloads this passes through
  override query(config: any, values?: any, callback?: any): any {
    // Refused before it is sent, so that a COMMIT on a dead connection is known not to have happened.
    if (this.#lost && callback === undefined) return Promise.reject(new ConnectionLost());
    const result = this.#send(config, values, callback);
    if (result instanceof Promise) {
      result.catch((error: unknown) => {
        // The server ended this connection (a terminated backend, a restart): end the client too, so the
        // pool discards it on release instead of lending it, before its 'end' event, to the next request.
        if (endsConnection(error)) {
          this.#lost = true;
          this.end().catch(() => undefined);
        }
      });
    }
    return result;
  }

  // biome-ignore lint/suspicious/noExplicitAny: the same overloads as query()
  #send(config: any, values?: any, callback?: any): any {
    if (this.#plain || typeof config !== 'string' || !Array.isArray(values) || values.length === 0 || callback !== undefined) {
      return super.query(config, values, callback);
    }
    let name = statementNames.get(config);
    if (name === undefined && statementNames.size < MAX_STATEMENT_NAMES) statementNames.set(config, (name = `slotbook_${statementNames.size}`));
    if (name === undefined) return super.query(config, values);
    return (super.query({ name, text: config, values }) as Promise<pg.QueryResult>).catch((error: { code?: string }) => {
      // "cached plan must not change result type": a migration (of another process) changed the columns
      // of a table a prepared `SELECT *` reads. That query fails; this connection's next ones are unnamed.
      if (error.code === '0A000') this.#plain = true;
      throw error;
    });
  }
}

export function openPostgres(url: string, observer?: QueryObserver): Db {
  // int8 (counts, millisecond timestamps) fits a JS number exactly in this schema; NUMERIC stays a string.
  pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    Client: PreparingClient,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEP_ALIVE_DELAY_MS,
  });
  // An idle connection that the server closes (restart, failover, DROP DATABASE) is dropped from the pool
  // and replaced on next use; without a listener, its 'error' event would crash the process.
  pool.on('error', (error) => process.emitWarning(`PostgreSQL connection lost: ${error.message}`));
  const dialect = new PostgresDialect({ pool });
  const kysely = new Kysely<Database>({ dialect: observer ? observeDialect(dialect, observer) : dialect });
  const signals = new PostgresSignals(url, kysely);
  return {
    dialect: 'postgres',
    kysely,
    ...writers({
      connection: (body) => kysely.connection().execute(body),
      signals,
      dialect: 'postgres',
      begin: 'BEGIN',
      // One round trip; SET LOCAL ends with the transaction.
      relaxed: { begin: ['BEGIN; SET LOCAL synchronous_commit = off'], after: [] },
      // Groups of one key (bookings of one timeslot) overlap except for their final statements and COMMIT,
      // which queue for the timeslot's row lock; 4 leaves most of the pool of 10 to everything else.
      groupsAtOnce: 4,
      maxGroup: 32,
      // One simple-protocol query: PostgreSQL runs the statements and the COMMIT back to back, and stops
      // at the first error with the transaction aborted, for the rollback.
      commit: async (conn, statements) => {
        try {
          await sql.raw([...statements.map((statement) => statement.query.sql), 'COMMIT'].join(';\n')).execute(conn);
        } catch (error) {
          // A COMMIT refused unsent (ConnectionLost) did not happen: the server rolled the transaction
          // back when the connection died, so that write is unavailable, not of unknown outcome.
          throw endsConnection(error) && !(error instanceof ConnectionLost) ? new CommitOutcomeUnknown(error) : error;
        }
      },
      rollback: async (conn) => {
        await sql`ROLLBACK`.execute(conn);
      },
    }),
    execScript: async (tx, script) => {
      await sql.raw(script).execute(tx);
    },
    signals,
    pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: async () => {
      await signals.close();
      await kysely.destroy();
    },
  };
}
