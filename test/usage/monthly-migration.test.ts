// Migration 004 adds the monthly totals to a database that already holds usage: it must fill them from
// the daily totals, exactly, so that summaries read through them at once give the same answers as before.
import { sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/service.js';
import { openDatabase } from '../../src/db/connection.js';
import { migrate } from '../../src/db/migrate.js';
import { microsToNumber } from '../../src/lib/decimal.js';
import { buildTestApp, call } from '../helpers/app.js';
import { createTestDatabase, migrateBefore } from '../helpers/database.js';
import { nowMillis } from '../../src/lib/clock.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

it('fills the monthly totals from the daily totals of a database created before them', async () => {
  const database = await createTestDatabase();
  cleanup.push(() => database.drop());
  const db = openDatabase(database.config);
  cleanup.push(() => db.close());
  await migrateBefore(db, '004');
  // Operators as rows of the schema of the time (creating one through the service now also writes tables
  // of later migrations, such as the audit log).
  const addOperator = (name: string) =>
    db.kysely.insertInto('operators').values({ name, created_at: nowMillis() }).returning('id as operatorId').executeTakeFirstOrThrow();
  const mine = await addOperator('Before 004');
  const other = await addOperator('Another operator');
  // Daily totals as the service kept them before 004: 2038-01-30 to 2038-03-03, one of them beyond 64 bits.
  const days = [
    '2038-01-30',
    '2038-01-31',
    ...Array.from({ length: 28 }, (_, i) => `2038-02-${String(i + 1).padStart(2, '0')}`),
    '2038-03-01',
    '2038-03-03',
  ];
  const micros = (i: number) => (i === 5 ? 123_456_789_012_345_678_901n : BigInt(i + 1) * 1_000_001n);
  await db.kysely
    .insertInto('usage_daily_totals')
    .values([
      ...days.map((day, i) => ({ operator_id: mine.operatorId, day, meter: 'calls', total_micros: micros(i).toString(), event_count: i + 1 })),
      { operator_id: other.operatorId, day: '2038-02-10', meter: 'calls', total_micros: '7000000', event_count: 7 },
    ])
    .execute();
  // Later migrations follow; this test is about 004 (and 005 right after it).
  expect((await migrate(db)).slice(0, 2)).toEqual(['004_usage_monthly_totals.sql', '005_drop_usage_entries_time_index.sql']);

  const february = days.map((day, i) => [day, i] as const).filter(([day]) => day.startsWith('2038-02'));
  const februaryMicros = february.reduce((sum, [, i]) => sum + micros(i), 0n);
  const stored = await db.kysely
    .selectFrom('usage_monthly_totals')
    .select(['month', sql<string>`CAST(total_micros AS TEXT)`.as('total_micros'), 'event_count'])
    .where('operator_id', '=', mine.operatorId)
    .orderBy('month')
    .execute();
  expect(stored.map((row) => ({ ...row, event_count: Number(row.event_count) }))).toEqual([
    { month: '2038-01', total_micros: (micros(0) + micros(1)).toString(), event_count: 3 },
    { month: '2038-02', total_micros: februaryMicros.toString(), event_count: february.reduce((sum, [, i]) => sum + i + 1, 0) },
    { month: '2038-03', total_micros: (micros(30) + micros(31)).toString(), event_count: 31 + 32 },
  ]);

  const app = await buildTestApp(db);
  cleanup.push(() => app.close());
  await app.ready();
  const { key } = await db.write((tx) => createApiKey(tx, mine.operatorId, { name: 'Usage', scopes: ['usage:read', 'usage:write'] }));
  const summary = async (from: string, to: string) => (await call(app, key, 'GET', `/api/v2/usage/meters?from=${from}&to=${to}`)).json().data.Totals;
  const allMicros = days.reduce((sum, _, i) => sum + micros(i), 0n);
  const allEvents = days.reduce((sum, _, i) => sum + i + 1, 0);
  expect(await summary('2038-01-30', '2038-03-03')).toEqual({ Usage: microsToNumber(allMicros), Events: allEvents });
  expect(await summary('2038-02-01', '2038-02-28')).toEqual({ Usage: microsToNumber(februaryMicros), Events: allEvents - 3 - 63 });
  // New entries keep both kinds of totals in step.
  const posted = await call(app, key, 'POST', '/api/v2/usage/meters', {
    Meter: 'calls',
    Usage: '2.5',
    OccurredAt: Date.parse('2038-02-10T10:00:00Z') / 1000,
  });
  expect(posted.statusCode, posted.body).toBe(201);
  expect(await summary('2038-02-01', '2038-02-28')).toEqual({ Usage: microsToNumber(februaryMicros + 2_500_000n), Events: allEvents - 3 - 63 + 1 });
});
