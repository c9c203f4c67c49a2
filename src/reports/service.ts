// Reports: bookings, guests and revenue of a period, per day, activity and channel. The day is the
// activity's date in the activity's own time zone (a 23:30 tour in Auckland counts on its Auckland date,
// whatever the UTC date), the same date the bookings list and the manifest show. Money is summed exactly,
// in integers of minor units, one sum per currency: currencies are never converted or added together.
import { channelName } from '../lib/marketplaces.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ValidationFailed } from '../http/errors.js';
import { csvLine } from '../audit/csv.js';
import { MAX_REPORT_DAYS, type BookingReport, type ReportGroup, type ReportQuery, type ReportRow } from './schemas.js';
import { reportRows, type ReportRowData } from './store.js';
import { formatMinorUnits } from '../lib/money.js';

const DAY_MS = 86_400_000;
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** An integer from the database: SQLite gives numbers, PostgreSQL's sums and counts come as strings. */
export function integer(value: number | string | bigint | null): number {
  if (value === null) return 0;
  const exact = BigInt(value);
  if (exact > BigInt(Number.MAX_SAFE_INTEGER) || exact < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new Error('a report sum exceeds 2^53 minor units');
  }
  return Number(exact);
}

export function checkPeriod(query: ReportQuery): void {
  const from = dayNumber(query.From);
  const to = dayNumber(query.To);
  if (to < from) throw ValidationFailed.field('To', 'To must not be before From');
  if (to - from + 1 > MAX_REPORT_DAYS) throw ValidationFailed.field('To', `A report covers at most ${MAX_REPORT_DAYS} days; choose a shorter period`);
}

function toRows(data: ReportRowData[]): ReportRow[] {
  const rows = new Map<string, ReportRow>();
  for (const row of data) {
    const channel = row.source === 'partner' ? `partner:${row.partner ?? ''}` : row.source;
    const key = JSON.stringify([row.date, row.activity_public_id, channel, row.currency]);
    let target = rows.get(key);
    if (!target) {
      target = {
        Date: row.date,
        ActivityID: row.activity_public_id,
        Activity: row.activity_name,
        Channel: channel,
        ChannelName: channelName(row.source, row.partner),
        Currency: row.currency,
        Bookings: 0,
        Guests: 0,
        Revenue: 0,
        CancelledBookings: 0,
      };
      rows.set(key, target);
    }
    if (row.status === 'cancelled') {
      target.CancelledBookings += integer(row.bookings);
    } else {
      target.Bookings += integer(row.bookings);
      target.Guests += integer(row.guests);
      target.Revenue += integer(row.revenue);
    }
  }
  return [...rows.values()].sort(
    (a, b) =>
      a.Date.localeCompare(b.Date) ||
      a.Activity.localeCompare(b.Activity) ||
      a.ChannelName.localeCompare(b.ChannelName) ||
      a.Currency.localeCompare(b.Currency),
  );
}

type Figures = Omit<ReportGroup, 'Key' | 'Label'>;
const emptyFigures = (): Figures => ({ Bookings: 0, Guests: 0, Revenue: [], CancelledBookings: 0 });

function add(target: Figures, row: ReportRow): void {
  target.Bookings += row.Bookings;
  target.Guests += row.Guests;
  target.CancelledBookings += row.CancelledBookings;
  if (row.Bookings === 0) return; // a cancelled-only row adds no currency of its own
  const money = target.Revenue.find((m) => m.Currency === row.Currency);
  if (money) money.Amount += row.Revenue;
  else target.Revenue.push({ Currency: row.Currency, Amount: row.Revenue });
  target.Revenue.sort((a, b) => a.Currency.localeCompare(b.Currency));
}

function groupBy(rows: ReportRow[], keyOf: (row: ReportRow) => [string, string]): ReportGroup[] {
  const groups = new Map<string, ReportGroup>();
  for (const row of rows) {
    const [key, label] = keyOf(row);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { Key: key, Label: label, ...emptyFigures() }));
    add(group, row);
  }
  return [...groups.values()];
}

const byBookings = (a: ReportGroup, b: ReportGroup) => b.Bookings - a.Bookings || a.Label.localeCompare(b.Label);

export async function bookingReport(db: Kysely<Database>, operatorId: number, query: ReportQuery): Promise<BookingReport> {
  checkPeriod(query);
  const rows = toRows(await reportRows(db, operatorId, query.From, query.To));
  const totals = emptyFigures();
  for (const row of rows) add(totals, row);
  const days = new Map(groupBy(rows, (row) => [row.Date, row.Date]).map((group) => [group.Key, group]));
  const byDay: ReportGroup[] = [];
  for (let day = dayNumber(query.From); day <= dayNumber(query.To); day += 1) {
    const date = dateOf(day);
    byDay.push(days.get(date) ?? { Key: date, Label: date, ...emptyFigures() });
  }
  return {
    From: query.From,
    To: query.To,
    Totals: totals,
    ByDay: byDay,
    ByActivity: groupBy(rows, (row) => [row.ActivityID, row.Activity]).sort(byBookings),
    ByChannel: groupBy(rows, (row) => [row.Channel, row.ChannelName]).sort(byBookings),
    Rows: rows,
  };
}

export const REPORT_CSV_HEADER = [
  'Date',
  'ActivityID',
  'Activity',
  'Channel',
  'Bookings',
  'Guests',
  'CancelledBookings',
  'Currency',
  'RevenueMinorUnits',
  'Revenue',
];

/** The report's rows as CSV (formula-safe cells, src/audit/csv.ts), one line per date, activity, channel and currency. */
export function reportCsv(report: BookingReport): string {
  let text = csvLine(REPORT_CSV_HEADER);
  for (const row of report.Rows) {
    text += csvLine([
      row.Date,
      row.ActivityID,
      row.Activity,
      row.ChannelName,
      row.Bookings,
      row.Guests,
      row.CancelledBookings,
      row.Currency,
      row.Revenue,
      formatMinorUnits(row.Revenue, row.Currency),
    ]);
  }
  return text;
}
