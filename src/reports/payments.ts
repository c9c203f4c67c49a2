// The payment report: money taken (gross: payments that succeeded), given back (refunds that succeeded)
// and net, per day, activity and channel, over a period of payment dates. The day is the date on which the
// money moved (the payment's or the refund's success) in the booked activity's own time zone, as the
// bookings report dates a booking by its activity's zone; so a refund counts on its own day, not on the
// day of the payment it refunds. A basket's payment is split over its bookings by what it paid each
// (its allocations, written when it took money), so each activity and channel gets its own part and the
// parts add up to the payment exactly. Sums are exact integers of minor units per currency, never converted or mixed.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { csvLine } from '../audit/csv.js';
import { todayIn } from '../calendar/zoned-time.js';
import { formatMinorUnits } from '../lib/money.js';
import type { PaymentReport, PaymentReportGroup, PaymentReportQuery, PaymentReportRow, Sum } from './schemas.js';
import { paymentLines, refundLines, type MoneyLine } from './payments-store.js';
import { checkPeriod, integer } from './service.js';
import { channelName } from '../lib/marketplaces.js';
import { asUnixMillis } from '../lib/clock.js';

const DAY_MS = 86_400_000;
/** Time zones run from UTC-12 to UTC+14: an instant of any zone's date lies within these margins of its UTC day. */
const BEFORE_MS = 14 * 3_600_000;
const AFTER_MS = 12 * 3_600_000;

interface Part {
  date: string;
  line: MoneyLine;
  amount: number;
}

/** Each payment's part of each booking it paid: what it paid that booking (payment_allocations), exact. */
function paymentParts(lines: MoneyLine[]): Omit<Part, 'date'>[] {
  return lines.map((line) => ({ line, amount: integer(line.amount) }));
}

function within(parts: Omit<Part, 'date'>[], from: string, to: string): Part[] {
  const kept: Part[] = [];
  for (const part of parts) {
    const date = todayIn(part.line.timezone, asUnixMillis(integer(part.line.succeeded_at)));
    if (date >= from && date <= to) kept.push({ ...part, date });
  }
  return kept;
}

const channelOf = (line: MoneyLine) => (line.source === 'partner' ? `partner:${line.partner ?? ''}` : line.source);

function toRows(gross: Part[], refunds: Part[]): PaymentReportRow[] {
  const rows = new Map<string, PaymentReportRow>();
  const add = (part: Part, field: 'GrossMinorUnits' | 'RefundsMinorUnits') => {
    const { line } = part;
    const key = JSON.stringify([part.date, line.activity_public_id, channelOf(line), line.currency]);
    let row = rows.get(key);
    if (!row) {
      row = {
        Date: part.date,
        ActivityID: line.activity_public_id,
        Activity: line.activity_name,
        Channel: channelOf(line),
        ChannelName: channelName(line.source, line.partner),
        Currency: line.currency,
        GrossMinorUnits: 0,
        RefundsMinorUnits: 0,
        NetMinorUnits: 0,
        Gross: '',
        Refunds: '',
        Net: '',
      };
      rows.set(key, row);
    }
    row[field] += part.amount;
  };
  for (const part of gross) add(part, 'GrossMinorUnits');
  for (const part of refunds) add(part, 'RefundsMinorUnits');
  for (const row of rows.values()) {
    row.NetMinorUnits = row.GrossMinorUnits - row.RefundsMinorUnits;
    row.Gross = formatMinorUnits(row.GrossMinorUnits, row.Currency);
    row.Refunds = formatMinorUnits(row.RefundsMinorUnits, row.Currency);
    row.Net = formatMinorUnits(row.NetMinorUnits, row.Currency);
  }
  return [...rows.values()].sort(
    (a, b) =>
      a.Date.localeCompare(b.Date) ||
      a.Activity.localeCompare(b.Activity) ||
      a.ChannelName.localeCompare(b.ChannelName) ||
      a.Currency.localeCompare(b.Currency),
  );
}

type Figures = Omit<PaymentReportGroup, 'Key' | 'Label'>;
const emptyFigures = (): Figures => ({ Gross: [], Refunds: [], Net: [] });

function addSum(sums: Sum[], currency: string, amount: number): void {
  const sum = sums.find((s) => s.Currency === currency);
  if (sum) sum.AmountMinorUnits += amount;
  else sums.push({ Currency: currency, Amount: '', AmountMinorUnits: amount });
}

function add(target: Figures, row: PaymentReportRow): void {
  addSum(target.Gross, row.Currency, row.GrossMinorUnits);
  addSum(target.Refunds, row.Currency, row.RefundsMinorUnits);
  addSum(target.Net, row.Currency, row.NetMinorUnits);
}

/** The decimal texts, once the sums are final, and the currencies in order. */
function finish(figures: Figures): void {
  for (const sums of [figures.Gross, figures.Refunds, figures.Net]) {
    for (const sum of sums) sum.Amount = formatMinorUnits(sum.AmountMinorUnits, sum.Currency);
    sums.sort((a, b) => a.Currency.localeCompare(b.Currency));
  }
}

function groupBy(rows: PaymentReportRow[], keyOf: (row: PaymentReportRow) => [string, string]): PaymentReportGroup[] {
  const groups = new Map<string, PaymentReportGroup>();
  for (const row of rows) {
    const [key, label] = keyOf(row);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { Key: key, Label: label, ...emptyFigures() }));
    add(group, row);
  }
  for (const group of groups.values()) finish(group);
  return [...groups.values()].sort((a, b) => a.Label.localeCompare(b.Label) || a.Key.localeCompare(b.Key));
}

export async function paymentReport(db: Kysely<Database>, operatorId: number, query: PaymentReportQuery): Promise<PaymentReport> {
  checkPeriod(query);
  const fromMs = asUnixMillis(Date.parse(`${query.From}T00:00:00Z`) - BEFORE_MS);
  const toMs = asUnixMillis(Date.parse(`${query.To}T00:00:00Z`) + DAY_MS + AFTER_MS);
  const gross = within(paymentParts(await paymentLines(db, operatorId, fromMs, toMs)), query.From, query.To);
  const refunds = within(
    (await refundLines(db, operatorId, fromMs, toMs)).map((line) => ({ line, amount: integer(line.amount) })),
    query.From,
    query.To,
  );
  const rows = toRows(gross, refunds);
  const totals = emptyFigures();
  for (const row of rows) add(totals, row);
  finish(totals);
  const days = new Map(groupBy(rows, (row) => [row.Date, row.Date]).map((group) => [group.Key, group]));
  const byDay: PaymentReportGroup[] = [];
  for (let day = Date.parse(`${query.From}T00:00:00Z`); day <= Date.parse(`${query.To}T00:00:00Z`); day += DAY_MS) {
    const date = new Date(day).toISOString().slice(0, 10);
    byDay.push(days.get(date) ?? { Key: date, Label: date, ...emptyFigures() });
  }
  return {
    From: query.From,
    To: query.To,
    Totals: totals,
    ByDay: byDay,
    ByActivity: groupBy(rows, (row) => [row.ActivityID, row.Activity]),
    ByChannel: groupBy(rows, (row) => [row.Channel, row.ChannelName]),
    Rows: rows,
  };
}

export const PAYMENT_CSV_HEADER = [
  'Date',
  'ActivityID',
  'Activity',
  'Channel',
  'Currency',
  'GrossMinorUnits',
  'Gross',
  'RefundsMinorUnits',
  'Refunds',
  'NetMinorUnits',
  'Net',
];

/** The report's rows as CSV (formula-safe cells), one line per date, activity, channel and currency. */
export function paymentReportCsv(report: PaymentReport): string {
  let text = csvLine(PAYMENT_CSV_HEADER);
  for (const row of report.Rows) {
    text += csvLine([
      row.Date,
      row.ActivityID,
      row.Activity,
      row.ChannelName,
      row.Currency,
      row.GrossMinorUnits,
      row.Gross,
      row.RefundsMinorUnits,
      row.Refunds,
      row.NetMinorUnits,
      row.Net,
    ]);
  }
  return text;
}
