// Usage entries and the per-operator totals per UTC day and meter, and per UTC month and meter, kept beside
// them. One SQL text serves both dialects, but for inserting entries: decimal_add/decimal_sum exist on
// each (SQLite: registered in db/sqlite.ts; PostgreSQL: created by the migration).
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Tx } from '../db/connection.js';
import type { Database, UsageEntryTable } from '../db/schema.js';
import type { TotalsPlan } from './periods.js';
import type { UnixSeconds } from '../lib/clock.js';

/** A usage entry to insert: every column but the generated ID (usage_micros as a decimal string). */
export type NewEntryRow = Omit<UsageEntryTable, 'id'>;

export interface EntryRow {
  id: number;
  meter: string;
  usage_micros: string;
  extra_info: string | null;
  occurred_at: UnixSeconds;
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
  const insertChunk = tx.getExecutor().adapter instanceof PostgresAdapter ? insertChunkFromArrays : insertChunkFromJson;
  const ids: number[] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    const inserted = await insertChunk(tx, rows.slice(start, start + ROWS_PER_INSERT));
    // RETURNING order is not promised, but one statement assigns its IDs ascending in the order of its rows.
    ids.push(...inserted.map((row) => Number(row.id)).sort((a, b) => a - b));
  }
  return ids;
}

/**
 * SQLite: the rows as one JSON array in one parameter, unpacked by json_each in row order. A multi-row
 * VALUES of 1,000 x 6 parameters cost about a tenth of a batch's time in building, preparing and binding
 * the statement alone (CPU profile of the batch endpoint); this statement text is short and always the same.
 * usage_micros travels as a JSON string and is stored as an INTEGER by the column's affinity, exactly.
 */
async function insertChunkFromJson(tx: Tx, chunk: NewEntryRow[]): Promise<{ id: number }[]> {
  const rows = JSON.stringify(chunk.map((row) => [row.operator_id, row.meter, row.usage_micros, row.extra_info, row.occurred_at, row.created_at]));
  const { rows: inserted } = await sql<{ id: number }>`
    INSERT INTO usage_entries (operator_id, meter, usage_micros, extra_info, occurred_at, created_at)
    SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5 FROM json_each(${rows}) ORDER BY key
    RETURNING id`.execute(tx);
  return inserted;
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
 * Adds to the daily totals and to the monthly totals; each (day, meter) must appear at most once (the
 * caller aggregates). Rows are upserted in (day, meter) order, then in (month, meter) order, so that
 * concurrent writers lock them in the same order and never deadlock.
 */
export async function addToTotals(tx: Tx, operatorId: number, deltas: DailyTotalDelta[]): Promise<void> {
  const monthly = new Map<string, TotalDelta>();
  for (const d of deltas) {
    const month = d.day.slice(0, 7);
    const key = `${month} ${d.meter}`;
    const total = monthly.get(key) ?? monthly.set(key, { period: month, meter: d.meter, micros: 0n, count: 0 }).get(key)!;
    total.micros += d.micros;
    total.count += d.count;
  }
  await upsertTotals(
    tx,
    'usage_daily_totals',
    'day',
    operatorId,
    deltas.map((d) => ({ ...d, period: d.day })),
  );
  await upsertTotals(tx, 'usage_monthly_totals', 'month', operatorId, [...monthly.values()]);
}

interface TotalDelta {
  period: string;
  meter: string;
  micros: bigint;
  count: number;
}

async function upsertTotals(
  tx: Tx,
  table: 'usage_daily_totals' | 'usage_monthly_totals',
  period: 'day' | 'month',
  operatorId: number,
  deltas: TotalDelta[],
): Promise<void> {
  const sorted = [...deltas].sort((a, b) => (a.period === b.period ? compareText(a.meter, b.meter) : compareText(a.period, b.period)));
  for (let start = 0; start < sorted.length; start += ROWS_PER_INSERT) {
    const rows = sorted.slice(start, start + ROWS_PER_INSERT).map((d) => ({
      operator_id: operatorId,
      [period]: d.period,
      meter: d.meter,
      total_micros: d.micros.toString(),
      event_count: d.count,
    }));
    // One statement text for both tables, which differ only in their names and the period column's.
    await sql`
      INSERT INTO ${sql.table(table)} (operator_id, ${sql.ref(period)}, meter, total_micros, event_count)
      VALUES ${sql.join(rows.map((row) => sql`(${row.operator_id}, ${row[period]}, ${row.meter}, ${row.total_micros}, ${row.event_count})`))}
      ON CONFLICT (operator_id, ${sql.ref(period)}, meter) DO UPDATE SET
        total_micros = decimal_add(${sql.ref(`${table}.total_micros`)}, excluded.total_micros),
        event_count = ${sql.ref(`${table}.event_count`)} + excluded.event_count`.execute(tx);
  }
}

/**
 * Per meter, the exact sum of micro-units and the entry count over the rows the plan names (periods.ts):
 * whole months, plus days, minus days. A meter whose entries all lie in subtracted days is left out.
 */
export async function sumTotals(
  db: Kysely<Database>,
  operatorId: number,
  plan: TotalsPlan,
): Promise<{ meter: string; micros: bigint; events: number }[]> {
  // The sign travels as a column and is applied here, in BigInt: negating a total in SQL would need
  // dialect-specific SQL, as SQLite keeps totals as text.
  const days = (sign: number, ranges: [string, string][]) =>
    db
      .selectFrom('usage_daily_totals')
      .select(['meter', sql<number>`${sql.lit(sign)}`.as('sign'), 'total_micros', 'event_count'])
      .where('operator_id', '=', operatorId)
      .where((eb) => eb.or(ranges.map(([from, to]) => eb.and([eb('day', '>=', from), eb('day', '<=', to)]))));
  const parts = [
    ...(plan.months
      ? [
          db
            .selectFrom('usage_monthly_totals')
            .select(['meter', sql<number>`${sql.lit(1)}`.as('sign'), 'total_micros', 'event_count'])
            .where('operator_id', '=', operatorId)
            .where('month', '>=', plan.months[0])
            .where('month', '<=', plan.months[1]),
        ]
      : []),
    ...(plan.addDays.length > 0 ? [days(1, plan.addDays)] : []),
    ...(plan.subtractDays.length > 0 ? [days(-1, plan.subtractDays)] : []),
  ];
  // One statement, so that every part reads the same snapshot of the totals.
  const rows = await db
    .selectFrom(parts.reduce((all, part) => all.unionAll(part)).as('part'))
    .select((eb) => [
      'meter',
      'sign',
      sql<string>`decimal_sum(total_micros)`.as('total_micros'),
      eb.fn.sum<number | string>('event_count').as('events'),
    ])
    .groupBy(['meter', 'sign'])
    .execute();
  const byMeter = new Map<string, { meter: string; micros: bigint; events: number }>();
  for (const row of rows) {
    const sign = Number(row.sign);
    const total = byMeter.get(row.meter) ?? byMeter.set(row.meter, { meter: row.meter, micros: 0n, events: 0 }).get(row.meter)!;
    total.micros += BigInt(sign) * BigInt(String(row.total_micros));
    total.events += sign * Number(row.events);
  }
  return [...byMeter.values()].filter((total) => total.events > 0);
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
  return (
    db
      .selectFrom('usage_entries')
      // As text: a BIGINT above 2^53 micro-units would lose digits as a JS number.
      .select(['id', 'meter', sql<string>`CAST(usage_micros AS TEXT)`.as('usage_micros'), 'extra_info', 'occurred_at'])
      .where('id', '=', id)
      .where('operator_id', '=', operatorId)
      .executeTakeFirst()
  );
}

/** Code-point order, the same on every dialect and collation. */
export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
