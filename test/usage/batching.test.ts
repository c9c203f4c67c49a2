// Group commit of single entries (src/usage/group-commit.ts): many concurrent POST /meters, of several
// operators, written in shared transactions, must each still get their own entry, their own ID and
// exact totals, on their own operator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    expect(summary.Meters.find((m: { Meter: string }) => m.Meter === 'group-plain')).toEqual({ Meter: 'group-plain', TotalUsage: 40, EventCount: 20 });
  });
});
