// Prepared statements of the SQLite connection, kept for reuse. Kysely's SQLite driver prepares every
// query it runs, and preparing (parsing and planning the SQL) took about a tenth of the service's CPU
// under the booking and webhook bursts of `npm run bench`; the same few hundred texts come back all the
// time. The least recently used statements are dropped beyond a bound, and long texts (statements with
// their values written in, such as the webhook outbox's insert) are never kept: they do not come back.
import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Distinct statements kept: well above the texts the service runs, so that its hot ones stay. */
export const CACHED_STATEMENTS = 1_000;
/** Longer texts are prepared each time. */
export const CACHED_SQL_LENGTH = 8_192;

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
      if (kept || sqlText.length > CACHED_SQL_LENGTH) return statement;
      statements.set(sqlText, statement);
      if (statements.size > size) statements.delete(statements.keys().next().value!);
      return statement;
    },
  };
}
