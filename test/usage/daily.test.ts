// GET /api/v2/usage/meters/daily: the per-day, per-meter totals behind the summary (the dashboard's chart).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;
const at = (iso: string) => Date.parse(iso) / 1000;

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  other = await t.newOperator();
  const entries: [string, string, number | string, string?][] = [
    ['sms', '2032-05-01T10:00:00Z', '0.1'],
    ['sms', '2032-05-01T23:59:59Z', '0.2'],
    ['api-calls', '2032-05-01T00:00:00Z', 7],
    ['sms', '2032-05-03T00:00:00Z', 5],
    ['sms', '2032-05-04T00:00:00Z', 9],
  ];
  for (const [Meter, when, Usage] of entries) {
    const response = await call(t.app, op.usageKey, 'POST', '/api/v2/usage/meters', { Meter, Usage, OccurredAt: at(when) });
    expect(response.statusCode).toBe(201);
  }
  await call(t.app, other.usageKey, 'POST', '/api/v2/usage/meters', { Meter: 'sms', Usage: 100, OccurredAt: at('2032-05-01T12:00:00Z') });
});
afterAll(() => t.close());

describe('daily usage', () => {
  it("lists days with usage in order, meters by name, exact totals, and only the caller's entries", async () => {
    const response = await call(t.app, op.usageKey, 'GET', '/api/v2/usage/meters/daily?from=2032-05-01&to=2032-05-03');
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({
      Period: { From: '2032-05-01', To: '2032-05-03', FromTimestamp: at('2032-05-01T00:00:00Z'), ToTimestamp: at('2032-05-03T23:59:59Z') },
      Days: [
        {
          Date: '2032-05-01',
          Meters: [
            { Meter: 'api-calls', TotalUsage: 7, EventCount: 1 },
            { Meter: 'sms', TotalUsage: 0.3, EventCount: 2 },
          ],
        },
        { Date: '2032-05-03', Meters: [{ Meter: 'sms', TotalUsage: 5, EventCount: 1 }] },
      ],
    });
  });

  it('adds up to the summary of the same range', async () => {
    const daily = (await call(t.app, op.usageKey, 'GET', '/api/v2/usage/meters/daily?from=2032-04-01&to=2032-05-31')).json().data;
    const summary = (await call(t.app, op.usageKey, 'GET', '/api/v2/usage/meters?from=2032-04-01&to=2032-05-31')).json().data;
    const perMeter = new Map<string, number>();
    for (const day of daily.Days)
      for (const m of day.Meters) perMeter.set(m.Meter, Math.round(((perMeter.get(m.Meter) ?? 0) + m.TotalUsage) * 1e6) / 1e6);
    expect(Object.fromEntries(perMeter)).toEqual(
      Object.fromEntries(summary.Meters.map((m: { Meter: string; TotalUsage: number }) => [m.Meter, m.TotalUsage])),
    );
  });

  it("has the summary's query rules and permissions", async () => {
    problemOf(await call(t.app, op.usageKey, 'GET', '/api/v2/usage/meters/daily?from=2032-05-03&to=2032-05-01'), 422, 'validation');
    problemOf(await call(t.app, op.usageKey, 'GET', '/api/v2/usage/meters/daily?from=2032-02-30&to=2032-05-01'), 422, 'validation');
    problemOf(await call(t.app, op.usageKey, 'GET', '/api/v2/usage/meters/daily?to=2032-05-01'), 422, 'validation');
    problemOf(await call(t.app, op.otaKey, 'GET', '/api/v2/usage/meters/daily?from=2032-05-01&to=2032-05-01'), 403, 'forbidden');
    expect((await call(t.app, op.adminKey, 'GET', '/api/v2/usage/meters/daily?from=2032-05-01&to=2032-05-01')).statusCode).toBe(200);
  });
});
