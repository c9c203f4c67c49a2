// Summaries over ranges that start or end inside a month: the summary adds whole months from the monthly
// totals and edge days from the daily totals, or subtracts a month's days outside the range
// (src/usage/periods.ts). Every range must still total exactly the entries of its days, and nothing else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { microsToNumber, toMicros } from '../../src/lib/decimal.js';

let t: TestApp;
let op: TestOperator;

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
});
afterAll(() => t.close());

const DAY_S = 86_400;
const dayOf = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

describe('summaries over partial months', () => {
  // One entry a day from 2037-01-01 to 2037-04-30 on "daily", of a different amount each day, and a few
  // on "edges" on the first and last days of January and March only.
  const start = Date.parse('2037-01-01T00:00:00Z') / 1000;
  const entries = [
    ...Array.from({ length: 120 }, (_, i) => ({ Meter: 'daily', Usage: `${i + 1}.00000${(i % 9) + 1}`, OccurredAt: start + i * DAY_S + 3600 })),
    ...['2037-01-01', '2037-01-31', '2037-03-01', '2037-03-31'].map((day, i) => ({
      Meter: 'edges',
      Usage: `0.${i + 1}`,
      OccurredAt: Date.parse(`${day}T23:59:59Z`) / 1000,
    })),
  ];
  const micros = (usage: string) => toMicros(usage)!;

  beforeAll(async () => {
    const response = await call(t.app, op.usageKey, 'POST', '/api/v2/usage/meters/batch', { Entries: entries });
    expect(response.statusCode, response.body).toBe(201);
  });

  it.each([
    ['whole months', '2037-01-01', '2037-04-30'],
    ['both edges mostly inside (month minus outside days)', '2037-01-05', '2037-03-28'],
    ['both edges mostly outside (days added)', '2037-01-20', '2037-02-10'],
    ['one month without its first and last day', '2037-03-02', '2037-03-30'],
    ['a few days of one month', '2037-02-03', '2037-02-05'],
    ['most of February', '2037-02-02', '2037-02-27'],
    ['edges beyond the data', '2036-12-15', '2037-05-20'],
    ['one day at each end', '2037-01-31', '2037-03-01'],
    ['the last day of a month', '2037-03-31', '2037-03-31'],
    ['up to a day, months before it', '2036-11-23', '2037-03-22'],
  ])('totals exactly the entries of the range: %s', async (_name, from, to) => {
    const inside = entries.filter((e) => dayOf(e.OccurredAt) >= from && dayOf(e.OccurredAt) <= to);
    const byMeter = new Map<string, { micros: bigint; events: number }>();
    for (const e of inside) {
      const total = byMeter.get(e.Meter) ?? byMeter.set(e.Meter, { micros: 0n, events: 0 }).get(e.Meter)!;
      total.micros += micros(e.Usage);
      total.events += 1;
    }
    const expected = [...byMeter.entries()]
      .sort(([, a], [, b]) => (a.micros > b.micros ? -1 : 1))
      .map(([meter, total]) => ({ Meter: meter, TotalUsage: microsToNumber(total.micros), EventCount: total.events }));
    const response = await call(t.app, op.usageKey, 'GET', `/api/v2/usage/meters?from=${from}&to=${to}`);
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json().data;
    // A meter whose entries all lie outside the range is absent, even where its month is read whole.
    expect(data.Meters).toEqual(expected);
    expect(data.Totals).toEqual({
      Usage: microsToNumber(inside.reduce((sum, e) => sum + micros(e.Usage), 0n)),
      Events: inside.length,
    });
  });
});
