// Many rows' values as a table for one statement, passed as one JSON parameter (an array of rows, each an
// array of column values): a batch of deliveries is settled, and a batch of events inserted, in one
// statement instead of one per row. JSON because the driver's own encoding of arrays escapes every value in
// JavaScript, which for a thousand events' bodies cost more than the statement (bench/notes.md);
// JSON.stringify is native.
import { sql, type RawBuilder } from 'kysely';
import { dialectOf, type Tx } from '../../db/connection.js';

export interface Column {
  name: string;
  /** Its PostgreSQL type, which the JSON value is cast to. */
  type: 'bigint' | 'integer' | 'text';
}

/**
 * `WITH <this>`: a table named `name` with the columns given, one row per item of `rows`. Materialised, so
 * that each database reads the JSON once, however it joins the table (as the inner side of an UPDATE's join
 * SQLite would otherwise parse the JSON again for every row of the outer side).
 */
export function rowsTable(tx: Tx, name: string, columns: Column[], rows: unknown[][]): RawBuilder<unknown> {
  const names = sql.raw(columns.map((c) => c.name).join(', '));
  const json = JSON.stringify(rows);
  if (dialectOf(tx) === 'postgres') {
    const picks = columns.map((column, i) => sql.raw(`(value ->> ${i})::${column.type}`));
    return sql`${sql.raw(name)} (${names}) AS MATERIALIZED (SELECT ${sql.join(picks)} FROM json_array_elements(${json}::json))`;
  }
  const picks = columns.map((_column, i) => sql.raw(`value ->> ${i}`));
  return sql`${sql.raw(name)} (${names}) AS MATERIALIZED (SELECT ${sql.join(picks)} FROM json_each(${json}))`;
}
