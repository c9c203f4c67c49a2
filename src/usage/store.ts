// Usage entries and the per-operator, per-UTC-day, per-meter totals kept beside them. One SQL text serves
// both dialects: decimal_add/decimal_sum exist on each (SQLite: registered in db/connection.ts;
// PostgreSQL: created by the migration).
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Tx } from '../db/connection.js';
import type { Database, UsageEntryTable } from '../db/schema.js';

/** A usage entry to insert: every column but the generated ID (usage_micros as a decimal string). */
export type NewEntryRow = Omit<UsageEntryTable, 'id'>;

export interface EntryRow {
  id: number;
  meter: string;
  usage_micros: string;
  extra_info: string | null;
  occurred_at: number;
}

export interface DailyTotalDelta {
  day: string;
  meter: string;
  micros: bigint;
  count: number;
}

// Well under SQLite's 32,766 and PostgreSQL's 65,535 bound parameters per statement.
const ROWS_PER_INSERT = 1000;

/** Inserts the entries and returns their IDs in the order given. */
export async function insertEntries(tx: Tx, rows: NewEntryRow[]): Promise<number[]> {
  const insertChunk = tx.getExecutor().adapter instanceof PostgresAdapter ? insertChunkFromArrays : insertChunkOfValues;
  const ids: number[] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    const inserted = await insertChunk(tx, rows.slice(start, start + ROWS_PER_INSERT));
    // RETURNING order is not promised, but one statement assigns its IDs ascending in the order of its rows.
    ids.push(...inserted.map((row) => Number(row.id)).sort((a, b) => a - b));
  }
  return ids;
}

/** SQLite: one INSERT ... VALUES with a row of parameters per entry. */
function insertChunkOfValues(tx: Tx, chunk: NewEntryRow[]): Promise<{ id: number }[]> {
  return tx.insertInto('usage_entries').values(chunk).returning('id').execute();
}

/**
 * PostgreSQL: one parameter per column, each an array, unnested into rows. Profiling the batch endpoint
 * showed 1,000 rows x 6 parameters costing more to bind and plan than to insert (37,100 entries/s against
 * 141,900 for a bare unnest insert, docs/benchmarks.md).
 */
async function insertChunkFromArrays(tx: Tx, chunk: NewEntryRow[]): Promise<{ id: number }[]> {
  const column = <K extends keyof NewEntryRow>(key: K) => chunk.map((row) => row[key]);
  const { rows } = await sql<{ id: number }>`
    INSERT INTO usage_entries (operator_id, meter, usage_micros, extra_info, occurred_at, created_at)
    SELECT * FROM unnest(${column('operator_id')}::integer[], ${column('meter')}::text[], ${column('usage_micros')}::bigint[],
                         ${column('extra_info')}::text[], ${column('occurred_at')}::bigint[], ${column('created_at')}::bigint[])
    RETURNING id`.execute(tx);
  return rows;
}

/**
 * Adds to the daily totals; each (day, meter) must appear at most once (the caller aggregates). Rows are
 * upserted in (day, meter) order, so that concurrent batches lock them in the same order and never deadlock.
 */
export async function addToDailyTotals(tx: Tx, operatorId: number, deltas: DailyTotalDelta[]): Promise<void> {
  const sorted = [...deltas].sort((a, b) => (a.day === b.day ? compareText(a.meter, b.meter) : compareText(a.day, b.day)));
  for (let start = 0; start < sorted.length; start += ROWS_PER_INSERT) {
    const chunk = sorted.slice(start, start + ROWS_PER_INSERT);
    await tx
      .insertInto('usage_daily_totals')
      .values(chunk.map((d) => ({ operator_id: operatorId, day: d.day, meter: d.meter, total_micros: d.micros.toString(), event_count: d.count })))
      .onConflict((conflict) =>
        conflict.columns(['operator_id', 'day', 'meter']).doUpdateSet({
          total_micros: sql<string>`decimal_add(usage_daily_totals.total_micros, excluded.total_micros)`,
          event_count: sql<number>`usage_daily_totals.event_count + excluded.event_count`,
        }),
      )
      .execute();
  }
}

/** Per meter, the exact sum of micro-units and the entry count over UTC days from..to (inclusive). */
export async function sumDailyTotals(
  db: Kysely<Database>,
  operatorId: number,
  fromDay: string,
  toDay: string,
): Promise<{ meter: string; micros: bigint; events: number }[]> {
  const rows = await db
    .selectFrom('usage_daily_totals')
    .select((eb) => ['meter', sql<string>`decimal_sum(total_micros)`.as('total_micros'), eb.fn.sum<number | string>('event_count').as('events')])
    .where('operator_id', '=', operatorId)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .groupBy('meter')
    .execute();
  return rows.map((row) => ({ meter: row.meter, micros: BigInt(String(row.total_micros)), events: Number(row.events) }));
}

/** The daily total rows over UTC days from..to (inclusive), by day and meter. */
export async function listDailyTotals(
  db: Kysely<Database>,
  operatorId: number,
  fromDay: string,
  toDay: string,
): Promise<{ day: string; meter: string; micros: bigint; events: number }[]> {
  const rows = await db
    .selectFrom('usage_daily_totals')
    .select(['day', 'meter', sql<string>`CAST(total_micros AS TEXT)`.as('total_micros'), 'event_count'])
    .where('operator_id', '=', operatorId)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .orderBy('day')
    .execute();
  return rows
    .map((row) => ({ day: row.day, meter: row.meter, micros: BigInt(row.total_micros), events: Number(row.event_count) }))
    .sort((a, b) => (a.day === b.day ? compareText(a.meter, b.meter) : compareText(a.day, b.day)));
}

export async function findEntry(db: Kysely<Database>, operatorId: number, id: number): Promise<EntryRow | undefined> {
  return db
    .selectFrom('usage_entries')
    // As text: a BIGINT above 2^53 micro-units would lose digits as a JS number.
    .select(['id', 'meter', sql<string>`CAST(usage_micros AS TEXT)`.as('usage_micros'), 'extra_info', 'occurred_at'])
    .where('id', '=', id)
    .where('operator_id', '=', operatorId)
    .executeTakeFirst();
}

/** Code-point order, the same on every dialect and collation. */
export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
