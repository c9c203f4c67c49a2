// Exact decimal sums at volume: 10,000 entries of 0.1 are exactly 1000, never 999.9999999999.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { recordUsage, recordUsageEntries } from '../../src/usage/service.js';
import { addSeconds, asUnixSeconds } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;
const DAY = '2037-04-04';
const occurredAt = asUnixSeconds(Date.parse(`${DAY}T06:00:00Z`) / 1000);

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
});
afterAll(() => t.close());

const meters = async () => {
  const response = await call(t.app, op.usageKey, 'GET', `/api/v2/usage/meters?from=${DAY}&to=${DAY}`);
  expect(response.statusCode).toBe(200);
  return response.json().data;
};

describe('exact sums', () => {
  it('totals 10,000 entries of 0.1 as exactly 1000 (200 over HTTP, the rest one by one through recordUsage)', async () => {
    for (let i = 0; i < 200; i++) {
      const response = await call(t.app, op.usageKey, 'POST', '/api/v2/usage/meters', {
        Meter: 'tenth',
        Usage: i % 2 ? 0.1 : '0.1',
        OccurredAt: occurredAt,
      });
      expect(response.statusCode).toBe(201);
    }
    await t.db.write(async (tx) => {
      for (let i = 0; i < 9_800; i++) await recordUsage(tx, op.operatorId, { meter: 'tenth', micros: 100_000n, extraInfo: null, occurredAt });
    });
    let float = 0;
    for (let i = 0; i < 10_000; i++) float += 0.1;
    expect(float).not.toBe(1000); // what a floating-point sum would have said
    const data = await meters();
    expect(data.Meters).toEqual([{ Meter: 'tenth', TotalUsage: 1000, EventCount: 10_000 }]);
    expect(data.Totals).toEqual({ Usage: 1000, Events: 10_000 });
  }, 120_000);

  it('records a batch with one daily-total row per (day, meter), matching entry by entry', async () => {
    const entries = Array.from({ length: 2_500 }, (_, i) => ({
      meter: i % 2 ? 'batch-a' : 'batch-b',
      micros: 1n,
      extraInfo: null,
      occurredAt: addSeconds(occurredAt, (i % 3) * 86_400), // three days
    }));
    // Two batches, so that the second adds to rows the first created.
    const recorded = [
      ...(await t.db.write((tx) => recordUsageEntries(tx, op.operatorId, entries.slice(0, 1_000)))),
      ...(await t.db.write((tx) => recordUsageEntries(tx, op.operatorId, entries.slice(1_000)))),
    ];
    expect(new Set(recorded.map((entry) => entry.id)).size).toBe(2_500);
    const totals = await t.db.kysely
      .selectFrom('usage_daily_totals')
      .select(['day', 'meter', 'total_micros', 'event_count'])
      .where('operator_id', '=', op.operatorId)
      .where('meter', 'like', 'batch-%')
      .orderBy('day')
      .orderBy('meter')
      .execute();
    expect(totals).toHaveLength(6);
    expect(totals.reduce((sum, row) => sum + Number(row.event_count), 0)).toBe(2_500);
    expect(totals.reduce((sum, row) => sum + BigInt(String(row.total_micros)), 0n)).toBe(2_500n);
    const entryCount = await t.db.kysely
      .selectFrom('usage_entries')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('meter', 'like', 'batch-%')
      .executeTakeFirstOrThrow();
    expect(Number(entryCount.n)).toBe(2_500);
    // The ID returned for each entry is the row that holds that entry.
    const sample = recorded[1_234]!;
    const row = await t.db.kysely.selectFrom('usage_entries').select(['meter', 'occurred_at']).where('id', '=', sample.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ meter: sample.meter, occurred_at: sample.occurredAt });
  });

  it('loses no update when many entries for one meter and day arrive at once', async () => {
    const responses = await Promise.all(
      Array.from({ length: 40 }, () =>
        call(t.app, op.usageKey, 'POST', '/api/v2/usage/meters', { Meter: 'concurrent', Usage: '0.3', OccurredAt: occurredAt }),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(40).fill(201));
    expect((await meters()).Meters).toContainEqual({ Meter: 'concurrent', TotalUsage: 12, EventCount: 40 });
  });

  it('rolls the entry back with its total when the transaction fails', async () => {
    await expect(
      t.db.write(async (tx) => {
        await recordUsage(tx, op.operatorId, { meter: 'rolled-back', micros: 5n, extraInfo: null, occurredAt });
        throw new Error('the platform event failed');
      }),
    ).rejects.toThrow('the platform event failed');
    const data = await meters();
    expect(data.Meters.map((m: { Meter: string }) => m.Meter)).not.toContain('rolled-back');
  });
});
