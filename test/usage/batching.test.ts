// Group commit of single entries (src/usage/group-commit.ts): many concurrent POST /meters, of several
// operators, written in shared transactions, must each still get their own entry, their own ID and
// exact totals, on their own operator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';

let t: TestApp;
let a: TestOperator;
let b: TestOperator;

beforeAll(async () => {
  t = await createTestApp();
  a = await t.newOperator();
  b = await t.newOperator();
});
afterAll(() => t.close());

const DAY = '2032-01-01';
const at = Date.parse(`${DAY}T12:00:00Z`) / 1000;

describe('concurrent single entries', () => {
  it('gives each of 300 concurrent entries of two operators its own row, and exact totals per operator', async () => {
    const sent = Array.from({ length: 300 }, (_, i) => ({
      op: i % 3 === 0 ? b : a,
      body: { Meter: `group-${i % 4}`, Usage: `${(i % 7) + 1}.1`, OccurredAt: at + i, ExtraInfo: `n${i}` },
    }));
    const responses = await Promise.all(sent.map(({ op, body }) => call(t.app, op.usageKey, 'POST', '/api/v2/usage/meters', body)));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(300).fill(201));
    const ids = responses.map((r) => r.json().data.ID as number);
    expect(new Set(ids).size).toBe(300);
    // Each answer names the entry that was sent, and its Location holds exactly that entry, on its operator.
    for (const [i, response] of responses.entries()) {
      const { op, body } = sent[i]!;
      expect(response.json().data).toEqual({ ID: ids[i], Meter: body.Meter, Usage: Number(body.Usage), OccurredAt: body.OccurredAt });
      if (i % 25 === 0) {
        const stored = await call(t.app, op.usageKey, 'GET', response.headers.location as string);
        expect(stored.json().data.ExtraInfo).toBe(body.ExtraInfo);
        const other = op === a ? b : a;
        expect((await call(t.app, other.usageKey, 'GET', response.headers.location as string)).statusCode).toBe(404);
      }
    }
    for (const op of [a, b]) {
      const mine = sent.filter((s) => s.op === op);
      const expected = mine.reduce((sum, s) => sum + Math.round(Number(s.body.Usage) * 10), 0) / 10;
      const summary = (await call(t.app, op.usageKey, 'GET', `/api/v2/usage/meters?from=${DAY}&to=${DAY}`)).json().data;
      expect(summary.Totals).toEqual({ Usage: expected, Events: mine.length });
    }
  });

  it('keeps entries with an Idempotency-Key exactly-once beside grouped ones', async () => {
    const body = { Meter: 'group-keyed', Usage: 2, OccurredAt: at };
    const responses = await Promise.all([
      ...Array.from({ length: 20 }, () => call(t.app, a.usageKey, 'POST', '/api/v2/usage/meters', { ...body, Meter: 'group-plain' })),
      call(t.app, a.usageKey, 'POST', '/api/v2/usage/meters', body, { 'idempotency-key': 'grouped-1' }),
    ]);
    expect(responses.map((r) => r.statusCode)).toEqual(Array(21).fill(201));
    const replay = await call(t.app, a.usageKey, 'POST', '/api/v2/usage/meters', body, { 'idempotency-key': 'grouped-1' });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const summary = (await call(t.app, a.usageKey, 'GET', `/api/v2/usage/meters?from=${DAY}&to=${DAY}`)).json().data;
    expect(summary.Meters.find((m: { Meter: string }) => m.Meter === 'group-keyed')).toEqual({ Meter: 'group-keyed', TotalUsage: 2, EventCount: 1 });
    expect(summary.Meters.find((m: { Meter: string }) => m.Meter === 'group-plain')).toEqual({
      Meter: 'group-plain',
      TotalUsage: 40,
      EventCount: 20,
    });
  });
});

describe('concurrent batches', () => {
  const BATCH = '/api/v2/usage/meters/batch';
  const batchOf = (tag: string, size: number, start: number) => ({
    Entries: Array.from({ length: size }, (_, i) => ({
      Meter: `${tag}-${i % 3}`,
      Usage: `${(i % 9) + 1}.5`,
      OccurredAt: start + i,
      ExtraInfo: `${tag}:${i}`,
    })),
  });
  const totalOf = (entries: { Usage: string }[]) => entries.reduce((sum, e) => sum + Math.round(Number(e.Usage) * 10), 0) / 10;
  const summaryOf = async (op: TestOperator, day: string) =>
    (await call(t.app, op.usageKey, 'GET', `/api/v2/usage/meters?from=${day}&to=${day}`)).json().data;

  it('gives every entry of 12 concurrent batches of two operators its own row, in the order sent, and exact totals', async () => {
    const day = '2032-02-01';
    const start = Date.parse(`${day}T00:00:00Z`) / 1000;
    // 12 x 700 entries: more than one shared transaction takes, so the batches are split between groups, never within one.
    const sent = Array.from({ length: 12 }, (_, n) => ({ op: n % 3 === 0 ? b : a, body: batchOf(`batch${n}`, 700, start + n * 1000) }));
    const responses = await Promise.all(sent.map(({ op, body }) => call(t.app, op.usageKey, 'POST', BATCH, body)));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(12).fill(201));
    const ids = responses.flatMap((r) => r.json().data.Entries.map((e: { ID: number }) => e.ID));
    expect(new Set(ids).size).toBe(12 * 700);
    for (const [n, response] of responses.entries()) {
      const { op, body } = sent[n]!;
      const { data } = response.json();
      expect(data.Count).toBe(700);
      expect(data.Entries.map((e: { Meter: string; OccurredAt: number }) => [e.Meter, e.OccurredAt])).toEqual(
        body.Entries.map((e) => [e.Meter, e.OccurredAt]),
      );
      // The IDs name the rows of exactly these entries, on this batch's operator.
      for (const i of [0, 350, 699]) {
        const stored = await call(t.app, op.usageKey, 'GET', `/api/v2/usage/entries/${data.Entries[i].ID}`);
        expect(stored.json().data.ExtraInfo).toBe(body.Entries[i]!.ExtraInfo);
      }
    }
    for (const op of [a, b]) {
      const mine = sent.filter((s) => s.op === op).flatMap((s) => s.body.Entries);
      expect((await summaryOf(op, day)).Totals).toEqual({ Usage: totalOf(mine), Events: mine.length });
    }
  });

  it('stores nothing of a batch the database refuses, and every batch that shared its transaction', async () => {
    const day = '2032-02-02';
    const start = Date.parse(`${day}T00:00:00Z`) / 1000;
    // A trigger makes the database itself refuse one batch's insert, after validation passed.
    const poison =
      t.db.dialect === 'sqlite'
        ? [`CREATE TRIGGER poison BEFORE INSERT ON usage_entries WHEN NEW.meter = 'poison' BEGIN SELECT RAISE(ABORT, 'poisoned'); END`]
        : [
            `CREATE FUNCTION poison() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'poisoned'; END $$`,
            `CREATE TRIGGER poison BEFORE INSERT ON usage_entries FOR EACH ROW WHEN (NEW.meter = 'poison') EXECUTE FUNCTION poison()`,
          ];
    for (const statement of poison) await sql.raw(statement).execute(t.db.kysely);
    try {
      const good = Array.from({ length: 5 }, (_, n) => batchOf(`good${n}`, 200, start + n * 1000));
      const bad = batchOf('bad', 200, start + 9000);
      bad.Entries[150]!.Meter = 'poison';
      const responses = await Promise.all([...good.slice(0, 2), bad, ...good.slice(2)].map((body) => call(t.app, a.usageKey, 'POST', BATCH, body)));
      expect(responses.map((r) => r.statusCode)).toEqual([201, 201, 500, 201, 201, 201]);
      const summary = await summaryOf(a, day);
      const stored = good.flatMap((body) => body.Entries);
      expect(summary.Totals).toEqual({ Usage: totalOf(stored), Events: stored.length });
      expect(summary.Meters.map((m: { Meter: string }) => m.Meter).filter((meter: string) => meter.startsWith('bad') || meter === 'poison')).toEqual(
        [],
      );
    } finally {
      await sql.raw(`DROP TRIGGER poison${t.db.dialect === 'postgres' ? ' ON usage_entries' : ''}`).execute(t.db.kysely);
    }
  });
});
