// Which database failures mean "the database cannot serve us right now" rather than "this request is
// wrong" or "our code is wrong". The API answers them 503 `unavailable` with Retry-After: the request
// wrote nothing (its transaction was rolled back or never began), so a retry is safe. The one failure
// that does not qualify although its cause does is a COMMIT whose answer was lost (CommitOutcomeUnknown,
// 500 `outcome-unknown`): that write may be stored.
import SQLite from 'better-sqlite3';
import pg from 'pg';

/** A statement that was never sent, because its connection had already been lost. */
export class ConnectionLost extends Error {
  constructor(message = 'The database connection was lost before the statement was sent') {
    super(message);
    this.name = 'ConnectionLost';
  }
}

// PostgreSQL SQLSTATEs: class 08 connection exception; 53 insufficient resources (disk full, out of
// memory, too many connections); 57P01-57P03 the server is shutting down, crashed or is starting up
// (57P01 is also what pg_terminate_backend sends); 57014 a statement cancelled (statement_timeout,
// pg_cancel_backend: its transaction is rolled back); 25006 a write in a read-only transaction (a standby
// after a fail-over, default_transaction_read_only); 58030 an I/O error on the server.
const POSTGRES_CLASSES = ['08', '53'];
const POSTGRES_CODES = new Set(['57P01', '57P02', '57P03', '57014', '25006', '58030']);

// Errors of the socket under a pg connection: refused (the server is down), reset or broken (a
// restart, a fail-over, a network blip), unreachable, timed out, or its name not resolvable right now.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// pg's own words for a connection that ended or could not be made in time (it gives these no code).
const PG_CONNECTION_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
  'timeout expired',
];

// SQLite result codes (extended codes start with the primary one): BUSY (another process held the write
// lock past the busy timeout), LOCKED, READONLY (the file, its directory or the connection cannot be
// written), FULL (disk full), IOERR (the disk failed a read or write), CANTOPEN (a journal or WAL file
// cannot be opened). Each leaves the transaction rolled back. CORRUPT and NOTADB are not here: they do
// not pass with time, and a 500 logged with its stack is what should wake someone.
const SQLITE_PREFIXES = ['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_READONLY', 'SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_CANTOPEN'];

/** True when `error` says the database cannot serve requests for now (see the lists above). */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof ConnectionLost) return true;
  if (error instanceof SQLite.SqliteError) return SQLITE_PREFIXES.some((prefix) => error.code.startsWith(prefix));
  if (error instanceof pg.DatabaseError) {
    const code = error.code ?? '';
    return POSTGRES_CODES.has(code) || POSTGRES_CLASSES.some((prefix) => code.startsWith(prefix));
  }
  return isConnectionFailure(error);
}

/** A failure of the connection itself, not an answer of the server. */
export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof ConnectionLost) return true;
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
  return PG_CONNECTION_MESSAGES.some((message) => error.message.startsWith(message));
}
