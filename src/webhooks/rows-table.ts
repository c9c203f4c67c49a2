// Many rows' values as a table for one statement, one parameter per column on PostgreSQL (unnest of arrays)
// and one JSON parameter on SQLite (json_each): a batch of deliveries is settled, and a batch of events
// marked dispatched, in one statement instead of one per row.
import { sql, type RawBuilder } from 'kysely';
import { dialectOf, type Tx } from '../db/connection.js';

export interface Column {
  name: string;
  /** Its PostgreSQL type, for the array the column travels in. */
  type: 'bigint' | 'integer' | 'text';
}

/**
 * `WITH <this>`: a table named `name` with the columns given, one row per item of `rows`. Materialised, so
 * that SQLite reads the JSON once, however it joins the table (as the inner side of an UPDATE's join it would
 * otherwise parse the JSON again for every row of the outer side).
 */
export function rowsTable(tx: Tx, name: string, columns: Column[], rows: unknown[][]): RawBuilder<unknown> {
  const names = sql.raw(columns.map((c) => c.name).join(', '));
  if (dialectOf(tx) === 'postgres') {
    const arrays = columns.map((column, i) => sql`${rows.map((row) => row[i] ?? null)}::${sql.raw(column.type)}[]`);
    return sql`${sql.raw(name)} (${names}) AS (SELECT * FROM unnest(${sql.join(arrays)}))`;
  }
  const picks = columns.map((column, i) => sql.raw(`value ->> ${i}`));
  return sql`${sql.raw(name)} (${names}) AS MATERIALIZED (SELECT ${sql.join(picks)} FROM json_each(${JSON.stringify(rows)}))`;
}
