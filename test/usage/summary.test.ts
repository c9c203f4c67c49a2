// GET /api/v2/usage/meters: UTC days, ordering, exact sums, tenancy, query validation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { recordUsage } from '../../src/usage/service.js';
import { asUnixSeconds } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;

const at = (iso: string) => asUnixSeconds(Date.parse(iso) / 1000);
const record = async (body: Record<string, unknown>, key = op.usageKey) => {
  const response = await call(t.app, key, 'POST', '/api/v2/usage/meters', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
};
const summary = (query: string, key = op.usageKey) => call(t.app, key, 'GET', `/api/v2/usage/meters${query}`);
const summaryData = async (from: string, to: string, key = op.usageKey) => {
  const response = await summary(`?from=${from}&to=${to}`, key);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
};

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  other = await t.newOperator();
});
afterAll(() => t.close());

describe('usage summary', () => {
  it("answers an empty period with zero totals, no meters and the period's UTC bounds", async () => {
    expect(await summaryData('2030-01-01', '2030-01-31')).toEqual({
      Period: { From: '2030-01-01', To: '2030-01-31', FromTimestamp: 1_893_456_000, ToTimestamp: 1_896_134_399 },
      Totals: { Usage: 0, Events: 0 },
      Meters: [],
    });
  });

  it('puts 23:59:59 and 00:00:00 UTC on different days, and counts both ends of the range in full', async () => {
    await record({ Meter: 'edge', Usage: 1, OccurredAt: at('2031-03-09T23:59:59Z') });
    await record({ Meter: 'edge', Usage: 2, OccurredAt: at('2031-03-10T00:00:00Z') });
    await record({ Meter: 'edge', Usage: 4, OccurredAt: at('2031-03-10T23:59:59Z') });
    await record({ Meter: 'edge', Usage: 8, OccurredAt: at('2031-03-11T00:00:00Z') });
    const day = await summaryData('2031-03-10', '2031-03-10');
    expect(day.Period).toEqual({
      From: '2031-03-10',
      To: '2031-03-10',
      FromTimestamp: at('2031-03-10T00:00:00Z'),
      ToTimestamp: at('2031-03-10T23:59:59Z'),
    });
    expect(day.Meters).toEqual([{ Meter: 'edge', TotalUsage: 6, EventCount: 2 }]);
    expect((await summaryData('2031-03-09', '2031-03-09')).Totals).toEqual({ Usage: 1, Events: 1 });
    expect((await summaryData('2031-03-09', '2031-03-11')).Totals).toEqual({ Usage: 15, Events: 4 });
  });

  it('sorts meters by total usage, highest first, and equal totals by name', async () => {
    const day = { OccurredAt: at('2032-05-05T12:00:00Z') };
    for (const [meter, usage] of [
      ['beta', 5],
      ['alpha', 5],
      ['small', 0.5],
      ['Zeta', 5],
      ['big', 7],
      ['alpha', 0.000001],
    ] as const) {
      await record({ Meter: meter, Usage: usage, ...day });
    }
    const data = await summaryData('2032-05-05', '2032-05-05');
    expect(data.Meters).toEqual([
      { Meter: 'big', TotalUsage: 7, EventCount: 1 },
      { Meter: 'alpha', TotalUsage: 5.000001, EventCount: 2 },
      { Meter: 'Zeta', TotalUsage: 5, EventCount: 1 },
      { Meter: 'beta', TotalUsage: 5, EventCount: 1 },
      { Meter: 'small', TotalUsage: 0.5, EventCount: 1 },
    ]);
    expect(data.Totals).toEqual({ Usage: 22.500001, Events: 6 });
  });

  it('sums micro-unit steps exactly', async () => {
    const day = { OccurredAt: at('2033-01-01T00:00:00Z') };
    for (let i = 0; i < 30; i++) await record({ Meter: 'micro', Usage: '0.000001', ...day });
    await record({ Meter: 'micro', Usage: 0.1, ...day });
    await record({ Meter: 'micro', Usage: 0.2, ...day });
    const data = await summaryData('2033-01-01', '2033-01-01');
    expect(data.Meters).toEqual([{ Meter: 'micro', TotalUsage: 0.30003, EventCount: 32 }]);
  });

  it('adds 1e12 several times on one day without overflowing a 64-bit integer', async () => {
    for (let i = 0; i < 12; i++) await record({ Meter: 'huge', Usage: 1e12, OccurredAt: at('2034-06-01T08:00:00Z') });
    await record({ Meter: 'huge', Usage: '0.000001', OccurredAt: at('2034-06-01T09:00:00Z') });
    const data = await summaryData('2034-06-01', '2034-06-01');
    // 12e18 micro-units is beyond 2^63; the decimal text of the sum keeps every digit.
    expect(data.Meters).toEqual([{ Meter: 'huge', TotalUsage: 12e12 + 0.000001, EventCount: 13 }]);
    const rows = await t.db.kysely.selectFrom('usage_daily_totals').select('total_micros').where('meter', '=', 'huge').execute();
    expect(rows.map((row) => String(row.total_micros))).toEqual(['12000000000000000001']);
  });

  it('shows each operator only its own entries', async () => {
    const day = { OccurredAt: at('2035-02-02T10:00:00Z') };
    await record({ Meter: 'shared-name', Usage: 1, ...day });
    await record({ Meter: 'shared-name', Usage: 100, ...day }, other.usageKey);
    await record({ Meter: 'theirs-only', Usage: 50, ...day }, other.usageKey);
    expect((await summaryData('2035-02-02', '2035-02-02')).Meters).toEqual([{ Meter: 'shared-name', TotalUsage: 1, EventCount: 1 }]);
    expect((await summaryData('2035-02-02', '2035-02-02', other.usageKey)).Totals).toEqual({ Usage: 150, Events: 2 });
  });

  it('includes the built-in meters recorded by platform events', async () => {
    await t.db.write((tx) =>
      recordUsage(tx, op.operatorId, {
        meter: 'order-completed',
        micros: 1_000_000n,
        extraInfo: '{"BasketID":7}',
        occurredAt: at('2036-07-07T07:00:00Z'),
      }),
    );
    expect((await summaryData('2036-07-07', '2036-07-07')).Meters).toEqual([{ Meter: 'order-completed', TotalUsage: 1, EventCount: 1 }]);
  });

  it('covers the whole range of OccurredAt, 1970 to 9999', async () => {
    await record({ Meter: 'ancient', Usage: 1, OccurredAt: 0 });
    await record({ Meter: 'far', Usage: 1, OccurredAt: 253_402_300_799 });
    const data = await summaryData('1970-01-01', '9999-12-31');
    expect(data.Period.FromTimestamp).toBe(0);
    expect(data.Period.ToTimestamp).toBe(253_402_300_799);
    expect(data.Meters.map((m: { Meter: string }) => m.Meter)).toEqual(expect.arrayContaining(['ancient', 'far']));
  });

  it('accepts from equal to to, rejects to before from (422 on to)', async () => {
    expect((await summary('?from=2030-05-05&to=2030-05-05')).statusCode).toBe(200);
    const problem = problemOf(await summary('?from=2030-05-06&to=2030-05-05'), 422, 'validation');
    expect(problem.errors!.map((e) => e.field)).toEqual(['to']);
  });

  it.each([
    ['both missing', '', ['from', 'to']],
    ['from missing', '?to=2030-01-01', ['from']],
    ['to missing', '?from=2030-01-01', ['to']],
    ['not a date', '?from=yesterday&to=2030-01-01', ['from']],
    ['an unreal date', '?from=2030-01-01&to=2030-02-30', ['to']],
    ['not a leap year', '?from=2023-02-29&to=2023-03-01', ['from']],
    ['a date-time', '?from=2030-01-01T00:00:00Z&to=2030-01-02', ['from']],
    ['no zero padding', '?from=2030-1-1&to=2030-01-02', ['from']],
    ['both invalid', '?from=2030-13-01&to=2030-00-10', ['from', 'to']],
    ['empty', '?from=&to=', ['from', 'to']],
  ])('is 422 when %s', async (_name, query, fields) => {
    const problem = problemOf(await summary(query), 422, 'validation');
    expect(problem.errors!.map((e) => e.field).sort()).toEqual(fields);
  });

  it('accepts 29 February of a leap year', async () => {
    expect((await summary('?from=2024-02-29&to=2024-02-29')).statusCode).toBe(200);
  });

  it('needs the usage:read scope: 403 for an ota key or a write-only key, 401 without a key', async () => {
    problemOf(await summary('?from=2030-01-01&to=2030-01-01', op.otaKey), 403, 'forbidden');
    const writer = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/keys', { Name: 'writer', Scopes: ['usage:write'] });
    problemOf(await summary('?from=2030-01-01&to=2030-01-01', writer.json().data.Key), 403, 'forbidden');
    problemOf(await summary('?from=2030-01-01&to=2030-01-01', ''), 401, 'unauthenticated');
    expect((await summary('?from=2030-01-01&to=2030-01-01', op.adminKey)).statusCode).toBe(200);
  });
});
