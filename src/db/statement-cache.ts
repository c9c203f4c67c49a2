// Prepared statements of the SQLite connection, kept for reuse. Kysely's SQLite driver prepares every
// query it runs, and preparing (parsing and planning the SQL) took about a tenth of the service's CPU
// under the booking and webhook bursts of `npm run bench`; the same few hundred texts come back all the
// time. Only statements with parameters are kept, as on PostgreSQL (postgres.ts): one without is a cheap
// constant command (BEGIN, COMMIT) or has its values written in (the webhook worker's claims, the outbox's
// insert) and does not come back; kept, such texts pushed the hot ones out. Beyond a bound the least
// recently used statement is dropped, and long texts are never kept.
import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Distinct statements kept: above the few hundred texts with parameters that the service runs. */
export const CACHED_STATEMENTS = 500;
/** Longer texts are prepared each time. */
export const CACHED_SQL_LENGTH = 8_192;
/** Texts without parameters this short are commands (`PRAGMA synchronous = NORMAL` is 27), never values written in. */
const COMMAND_LENGTH = 32;

export function withStatementCache(raw: SQLite.Database, size = CACHED_STATEMENTS): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => raw.close(),
    prepare(sqlText: string): SqliteStatement {
      const kept = statements.get(sqlText);
      // A statement still being iterated (a streamed query) cannot run again until it is done.
      if (kept && !kept.busy) {
        // Map order is insertion order: moved to the end, it is the most recently used.
        statements.delete(sqlText);
        statements.set(sqlText, kept);
        return kept;
      }
      const statement = raw.prepare(sqlText);
      // Kysely writes each parameter as `?`; a `?` inside a literal only keeps a statement that need not be.
      const reused = sqlText.includes('?') || sqlText.length <= COMMAND_LENGTH;
      if (kept || !reused || sqlText.length > CACHED_SQL_LENGTH) return statement;
      statements.set(sqlText, statement);
      if (statements.size > size) statements.delete(statements.keys().next().value!);
      return statement;
    },
  };
}
