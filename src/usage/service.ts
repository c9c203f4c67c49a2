// Recording usage and summarising it. Every entry is written together with its day's total, in the
// caller's transaction, so a summary never has to read raw entries and is never out of step with them.
import type { Kysely } from 'kysely';
import type { Tx } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { NotFound, ValidationFailed } from '../http/errors.js';
import { microsToNumber } from '../lib/decimal.js';
import { utcDay } from '../calendar/zoned-time.js';
import type { UsageEntryInput } from './entry.js';
import type { DailyUsage, Period, StoredUsageEntry, UsageEntry, UsageSummary } from './schemas.js';
import { addToTotals, compareText, findEntry, insertEntries, listDailyTotals, sumTotals, type DailyTotalDelta } from './store.js';
import { planTotals } from './periods.js';
import { operatorWantsUsage, recordEvents } from '../events/outbox.js';
import { asUnixSeconds, nowMillis } from '../lib/clock.js';

export type { UsageEntryInput } from './entry.js';

export interface RecordedUsage extends UsageEntryInput {
  id: number;
}

const SECONDS_PER_DAY = 86_400;

/**
 * Records one entry and adds it to its day's total. Used by POST /usage/meters and by platform events
 * (built-in meters), which pass the transaction of the event itself so that both commit or neither does.
 * It trusts its input: client input goes through parseUsageEntry first.
 */
export async function recordUsage(tx: Tx, operatorId: number, entry: UsageEntryInput): Promise<RecordedUsage> {
  const [recorded] = await recordUsageEntries(tx, operatorId, [entry]);
  return recorded!;
}

/** Many entries at the cost of one insert per 1,000 entries and one upsert per (day, meter) touched. */
export async function recordUsageEntries(tx: Tx, operatorId: number, entries: UsageEntryInput[]): Promise<RecordedUsage[]> {
  if (entries.length === 0) return [];
  for (const entry of entries) assertStorable(entry);
  const createdAt = nowMillis();
  const ids = await insertEntries(
    tx,
    entries.map((entry) => ({
      operator_id: operatorId,
      meter: entry.meter,
      usage_micros: entry.micros.toString(),
      extra_info: entry.extraInfo,
      occurred_at: entry.occurredAt,
      created_at: createdAt,
    })),
  );
  await addToTotals(tx, operatorId, dailyDeltas(entries));
  const recorded = entries.map((entry, i) => ({ ...entry, id: ids[i]! }));
  await recordUsageEvents(tx, operatorId, recorded);
  return recorded;
}

/** Entries per usage.recorded event, and roughly its largest body: a group commit of 8,000 entries sends 8 events. */
const ENTRIES_PER_EVENT = 1000;
const CHARACTERS_PER_EVENT = 256 * 1024;

/** usage.recorded (webhooks, opt-in): the entries of this write, as GET /usage/entries/{ID} shows each. */
async function recordUsageEvents(tx: Tx, operatorId: number, recorded: RecordedUsage[]): Promise<void> {
  if (!(await operatorWantsUsage(tx, operatorId))) return;
  const batches: string[][] = [[]];
  let size = 0;
  for (const entry of recorded) {
    const json = JSON.stringify({ ...toUsageEntry(entry), ExtraInfo: entry.extraInfo } satisfies StoredUsageEntry);
    let batch = batches.at(-1)!;
    if (batch.length > 0 && (batch.length === ENTRIES_PER_EVENT || size + json.length > CHARACTERS_PER_EVENT)) batches.push((batch = []));
    if (batch.length === 0) size = 0;
    batch.push(json);
    size += json.length;
  }
  await recordEvents(
    tx,
    operatorId,
    batches.map((entries) => ({
      type: 'usage.recorded',
      resource: `usage:${operatorId}`,
      audience: 'operator',
      data: `{"Entries":[${entries.join(',')}]}`,
    })),
  );
}

function dailyDeltas(entries: UsageEntryInput[]): DailyTotalDelta[] {
  // By day number, then meter: a batch has few days, so utcDay (a Date and a string) runs once per day, not per entry.
  const byDay = new Map<number, Map<string, DailyTotalDelta>>();
  const deltas: DailyTotalDelta[] = [];
  for (const entry of entries) {
    const dayNumber = Math.floor(entry.occurredAt / SECONDS_PER_DAY);
    let meters = byDay.get(dayNumber);
    if (!meters) byDay.set(dayNumber, (meters = new Map()));
    let delta = meters.get(entry.meter);
    if (!delta) {
      delta = { day: utcDay(asUnixSeconds(dayNumber * SECONDS_PER_DAY)), meter: entry.meter, micros: 0n, count: 0 };
      meters.set(entry.meter, delta);
      deltas.push(delta);
    }
    delta.micros += entry.micros;
    delta.count += 1;
  }
  return deltas;
}

/** A programming error, not a client's: platform events must pass sane entries. */
function assertStorable(entry: UsageEntryInput): void {
  if (entry.meter.trim() === '' || entry.micros <= 0n || !Number.isSafeInteger(entry.occurredAt) || entry.occurredAt < 0) {
    throw new Error(`Refusing to record an invalid usage entry on meter "${entry.meter}"`);
  }
}

export function toUsageEntry(recorded: RecordedUsage): UsageEntry {
  return { ID: recorded.id, Meter: recorded.meter, Usage: microsToNumber(recorded.micros), OccurredAt: recorded.occurredAt };
}

export async function getUsageEntry(db: Kysely<Database>, operatorId: number, id: number): Promise<StoredUsageEntry> {
  const row = await findEntry(db, operatorId, id);
  if (!row) throw new NotFound(`No usage entry ${id}`);
  return { ID: row.id, Meter: row.meter, Usage: microsToNumber(row.usage_micros), OccurredAt: Number(row.occurred_at), ExtraInfo: row.extra_info };
}

/**
 * The summary over UTC days from..to, inclusive, read from the monthly and daily totals only (periods.ts).
 * There is no maximum range: the database reads about (months with usage + 30) x (meters) total rows
 * through the primary keys, whatever the number of entries, and the answer has one item per meter, so a
 * ten-year range costs little more than one year.
 * `from` and `to` are real calendar dates (the route's schema checks the format).
 */
export async function usageSummary(db: Kysely<Database>, operatorId: number, from: string, to: string): Promise<UsageSummary> {
  const period = periodOf(from, to);
  const meters = await sumTotals(db, operatorId, planTotals(from, to));
  meters.sort((a, b) => (a.micros === b.micros ? compareText(a.meter, b.meter) : a.micros > b.micros ? -1 : 1));
  const totalMicros = meters.reduce((sum, meter) => sum + meter.micros, 0n);
  return {
    Period: period,
    Totals: { Usage: microsToNumber(totalMicros), Events: meters.reduce((sum, meter) => sum + meter.events, 0) },
    Meters: meters.map((meter) => ({ Meter: meter.meter, TotalUsage: microsToNumber(meter.micros), EventCount: meter.events })),
  };
}

/** Per UTC day and meter, for charts: the same daily totals the summary adds up. */
export async function dailyUsage(db: Kysely<Database>, operatorId: number, from: string, to: string): Promise<DailyUsage> {
  const period = periodOf(from, to);
  const days: DailyUsage['Days'] = [];
  for (const row of await listDailyTotals(db, operatorId, from, to)) {
    if (days.at(-1)?.Date !== row.day) days.push({ Date: row.day, Meters: [] });
    days.at(-1)!.Meters.push({ Meter: row.meter, TotalUsage: microsToNumber(row.micros), EventCount: row.events });
  }
  return { Period: period, Days: days };
}

function periodOf(from: string, to: string): Period {
  if (to < from) throw ValidationFailed.field('to', `to (${to}) must be on or after from (${from})`);
  const fromTimestamp = Date.parse(`${from}T00:00:00Z`) / 1000;
  return { From: from, To: to, FromTimestamp: fromTimestamp, ToTimestamp: Date.parse(`${to}T00:00:00Z`) / 1000 + SECONDS_PER_DAY - 1 };
}
