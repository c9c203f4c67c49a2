// POST /api/v2/usage/meters/batch: all entries or none, every failing field of every entry at once,
// reserved meters, limits, scopes, idempotency of the whole batch, and exact totals afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createApiKey } from '../../src/auth/service.js';
import { unixNow } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
});
afterAll(() => t.close());

const BATCH = '/api/v2/usage/meters/batch';
const batch = (body: unknown, key = op.usageKey, headers: Record<string, string> = {}) => call(t.app, key, 'POST', BATCH, body, headers);

/** Each test uses its own UTC day, so that its totals are its own. */
const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

const summary = async (day: string, key = op.usageKey) => {
  const response = await call(t.app, key, 'GET', `/api/v2/usage/meters?from=${day}&to=${day}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as { Totals: { Usage: number; Events: number }; Meters: { Meter: string; TotalUsage: number; EventCount: number }[] };
};

const storedEntries = async () => {
  const row = await t.db.kysely
    .selectFrom('usage_entries')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('operator_id', '=', op.operatorId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

const failures = async (body: unknown) => {
  const problem = problemOf(await batch(body), 422, 'validation');
  expect(problem.detail).toBe(problem.errors![0]!.message);
  return problem.errors!;
};

describe('recording a batch', () => {
  it('answers 201 with Count and every entry, in the order sent, each with its own ID', async () => {
    const at = dayStart('2031-01-01');
    const response = await batch({
      Entries: [
        { Meter: ' sms ', Usage: '0.5', OccurredAt: at },
        { Meter: 'api-calls', Usage: 3, OccurredAt: String(at + 60), ExtraInfo: '{"k":1}' },
        { Meter: 'sms', Usage: 1.25, OccurredAt: at + 120, ExtraInfo: null },
      ],
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.headers.location).toBeUndefined();
    const { data } = response.json();
    expect(data).toEqual({
      Count: 3,
      Entries: [
        { ID: expect.any(Number), Meter: 'sms', Usage: 0.5, OccurredAt: at },
        { ID: expect.any(Number), Meter: 'api-calls', Usage: 3, OccurredAt: at + 60 },
        { ID: expect.any(Number), Meter: 'sms', Usage: 1.25, OccurredAt: at + 120 },
      ],
    });
    expect(new Set(data.Entries.map((entry: { ID: number }) => entry.ID)).size).toBe(3);
    // Each ID is the row that holds that entry.
    const second = await call(t.app, op.usageKey, 'GET', `/api/v2/usage/entries/${data.Entries[1].ID}`);
    expect(second.json().data).toEqual({ ...data.Entries[1], ExtraInfo: '{"k":1}' });
    expect(await summary('2031-01-01')).toEqual({
      Period: expect.any(Object),
      Totals: { Usage: 4.75, Events: 3 },
      Meters: [
        { Meter: 'api-calls', TotalUsage: 3, EventCount: 1 },
        { Meter: 'sms', TotalUsage: 1.75, EventCount: 2 },
      ],
    });
  });

  it('defaults OccurredAt to now, as the single POST does', async () => {
    const before = unixNow();
    const { data } = (await batch({ Entries: [{ Meter: 'now', Usage: 1 }] })).json();
    expect(data.Entries[0].OccurredAt).toBeGreaterThanOrEqual(before);
    expect(data.Entries[0].OccurredAt).toBeLessThanOrEqual(unixNow());
  });

  it('totals 1,000 entries of 0.1 over two meters and two days exactly, on top of what was there', async () => {
    const at = dayStart('2031-02-01');
    expect((await batch({ Entries: [{ Meter: 'tenth', Usage: 0.1, OccurredAt: at }] })).statusCode).toBe(201);
    const entries = Array.from({ length: 1000 }, (_, i) => ({
      Meter: i % 2 ? 'tenth' : 'other',
      Usage: i % 3 ? 0.1 : '0.1',
      OccurredAt: at + (i % 4 < 2 ? 10 : 86_400 + 10), // 2031-02-01 and 2031-02-02
    }));
    const response = await batch({ Entries: entries });
    expect(response.statusCode, response.body.slice(0, 300)).toBe(201);
    expect(response.json().data.Count).toBe(1000);
    const first = await summary('2031-02-01');
    expect(first.Meters).toEqual([
      { Meter: 'tenth', TotalUsage: 25.1, EventCount: 251 },
      { Meter: 'other', TotalUsage: 25, EventCount: 250 },
    ]);
    const both = (await call(t.app, op.usageKey, 'GET', '/api/v2/usage/meters?from=2031-02-01&to=2031-02-02')).json().data;
    expect(both.Totals).toEqual({ Usage: 100.1, Events: 1001 });
  });
});

describe('all or none', () => {
  it('stores nothing when one entry of many is invalid, and names it by position', async () => {
    const before = await storedEntries();
    const at = dayStart('2031-03-01');
    const entries = Array.from({ length: 50 }, () => ({ Meter: 'm', Usage: 1, OccurredAt: at }));
    entries[37] = { Meter: 'm', Usage: 0, OccurredAt: at };
    expect(await failures({ Entries: entries })).toEqual([{ field: 'Entries[37].Usage', message: 'Entries[37].Usage must be greater than 0' }]);
    expect(await storedEntries()).toBe(before);
    expect((await summary('2031-03-01')).Totals).toEqual({ Usage: 0, Events: 0 });
  });

  it('reports every failing field of every entry at once, schema and fine rules together', async () => {
    const errors = await failures({
      Entries: [
        { Meter: 'ok', Usage: 1 },
        { Usage: -1, OccurredAt: -5 },
        { Meter: 'ok', Usage: 1 },
        { Meter: '   ', Usage: 'abc', OccurredAt: 1.5, ExtraInfo: 5 },
        { Meter: 'ok', Usage: 0.1234567, ExtraInfo: 'x'.repeat(65_537) },
      ],
    });
    expect(errors.map((error) => error.field).sort()).toEqual([
      'Entries[1].Meter',
      'Entries[1].OccurredAt',
      'Entries[1].Usage',
      'Entries[3].ExtraInfo',
      'Entries[3].Meter',
      'Entries[3].OccurredAt',
      'Entries[3].Usage',
      'Entries[4].ExtraInfo',
      'Entries[4].Usage',
    ]);
    // Every message names its field in full, so a client can show it as it is.
    for (const error of errors) expect(error.message.startsWith(error.field)).toBe(true);
  });

  it('refuses the built-in meters in any entry, trimmed and case-insensitively', async () => {
    const before = await storedEntries();
    const errors = await failures({
      Entries: [
        { Meter: 'fine', Usage: 1 },
        { Meter: ' Order-Completed ', Usage: 1 },
        { Meter: 'waitlist-notified', Usage: 1 },
        { Meter: 'WORKFLOW-EMAIL-SENT', Usage: 1 },
      ],
    });
    expect(errors.map((error) => error.field)).toEqual(['Entries[1].Meter', 'Entries[2].Meter', 'Entries[3].Meter']);
    expect(errors[0]!.message).toMatch(/built-in meter/);
    expect(await storedEntries()).toBe(before);
  });

  it('names an entry that is not an object by its position', async () => {
    const errors = await failures({ Entries: [{ Meter: 'ok', Usage: 1 }, 'text', null] });
    expect(errors.map((error) => error.field)).toEqual(['Entries[1]', 'Entries[2]']);
  });
});

describe('limits', () => {
  it('takes exactly 1,000 entries', async () => {
    const entries = Array.from({ length: 1000 }, () => ({ Meter: 'limit', Usage: 1, OccurredAt: dayStart('2031-04-01') }));
    expect((await batch({ Entries: entries })).statusCode).toBe(201);
  });

  it.each([
    ['no Entries', {}],
    ['Entries not an array', { Entries: { Meter: 'm', Usage: 1 } }],
    ['no entries', { Entries: [] }],
    ['1,001 entries', { Entries: Array.from({ length: 1001 }, () => ({ Meter: 'm', Usage: 1 })) }],
  ])('422 on Entries: %s', async (_name, body) => {
    const before = await storedEntries();
    expect((await failures(body))[0]!.field).toBe('Entries');
    expect(await storedEntries()).toBe(before);
  });

  it('answers 413 for a body over 1 MiB, 422 for a body that is not an object, 400 for broken JSON, 415 for text', async () => {
    const big = Array.from({ length: 20 }, () => ({ Meter: 'm', Usage: 1, ExtraInfo: 'x'.repeat(60_000) }));
    problemOf(await batch({ Entries: big }), 413, 'payload-too-large');
    problemOf(await batch([{ Meter: 'm', Usage: 1 }]), 422, 'validation');
    problemOf(await batch('{"Entries": [', op.usageKey, { 'content-type': 'application/json' }), 400, 'bad-request');
    problemOf(await batch('Entries', op.usageKey, { 'content-type': 'text/plain' }), 415, 'unsupported-media-type');
  });
});

describe('scopes', () => {
  const one = { Entries: [{ Meter: 'scoped', Usage: 1, OccurredAt: dayStart('2031-05-01') }] };

  it('needs a key with usage:write (or admin)', async () => {
    problemOf(await batch(one, ''), 401, 'unauthenticated');
    problemOf(await batch(one, 'sbk_not-a-real-key'), 401, 'unauthenticated');
    problemOf(await batch(one, op.otaKey), 403, 'forbidden');
    const reader = await t.db.write((tx) => createApiKey(tx, op.operatorId, { name: 'Reader', scopes: ['usage:read'] }));
    problemOf(await batch(one, reader.key), 403, 'forbidden');
    expect((await batch(one, op.adminKey)).statusCode).toBe(201);
    expect((await summary('2031-05-01')).Totals.Events).toBe(1);
  });

  it('checks the key before the body: a bad batch without a key is 401, not 422', async () => {
    problemOf(await batch({ Entries: [] }, ''), 401, 'unauthenticated');
  });

  it("records on the key's own operator only", async () => {
    const other = await t.newOperator();
    expect((await batch(one, other.usageKey)).statusCode).toBe(201);
    expect((await summary('2031-05-01', other.usageKey)).Totals.Events).toBe(1);
    expect((await summary('2031-05-01')).Totals.Events).toBe(1);
  });
});

describe('idempotency', () => {
  const at = dayStart('2031-06-01');
  const body = { Entries: Array.from({ length: 10 }, (_, i) => ({ Meter: `idem-${i % 2}`, Usage: '0.1', OccurredAt: at })) };

  it('replays the first response for the same key and body, and stores the batch once', async () => {
    const headers = { 'idempotency-key': 'batch-1' };
    const first = await batch(body, op.usageKey, headers);
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await batch(body, op.usageKey, headers);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect((await summary('2031-06-01')).Totals).toEqual({ Usage: 1, Events: 10 });
  });

  it('refuses the key with another body (422 idempotency-key-reuse); on the single-entry route it is another request', async () => {
    const headers = { 'idempotency-key': 'batch-2' };
    expect((await batch(body, op.usageKey, headers)).statusCode).toBe(201);
    const changed = { Entries: [...body.Entries.slice(1), { Meter: 'idem-0', Usage: '0.2', OccurredAt: at }] };
    problemOf(await batch(changed, op.usageKey, headers), 422, 'idempotency-key-reuse');
    // A key counts on its route (contract "Idempotency"): the single-entry route has a namespace of its own.
    const single = await call(t.app, op.usageKey, 'POST', '/api/v2/usage/meters', body.Entries[0], headers);
    expect(single.statusCode, single.body).toBe(201);
    expect(single.headers['idempotent-replayed']).toBeUndefined();
    expect((await summary('2031-06-01')).Totals).toEqual({ Usage: 2.1, Events: 21 });
  });

  it('does not record a rejected batch, so its corrected retry with the same key is stored', async () => {
    const headers = { 'idempotency-key': 'batch-3' };
    const bad = { Entries: [{ Meter: 'fix', Usage: 0, OccurredAt: at + 86_400 }] };
    problemOf(await batch(bad, op.usageKey, headers), 422, 'validation');
    const fixed = { Entries: [{ Meter: 'fix', Usage: 2, OccurredAt: at + 86_400 }] };
    expect((await batch(fixed, op.usageKey, headers)).statusCode).toBe(201);
    expect((await summary('2031-06-02')).Totals).toEqual({ Usage: 2, Events: 1 });
  });

  it('422 on a key over 255 characters', async () => {
    const problem = problemOf(await batch(body, op.usageKey, { 'idempotency-key': 'k'.repeat(256) }), 422, 'validation');
    expect(problem.errors![0]!.field).toBe('Idempotency-Key');
  });

  it('stores a batch once when its twins race with one key', async () => {
    const raceAt = dayStart('2031-06-03');
    const race = { Entries: Array.from({ length: 100 }, () => ({ Meter: 'race', Usage: 1, OccurredAt: raceAt })) };
    const responses = await Promise.all(Array.from({ length: 5 }, () => batch(race, op.usageKey, { 'idempotency-key': 'batch-race' })));
    // Each twin either replays the stored batch or is told that it is still running; none stores it again.
    for (const response of responses) expect([201, 409]).toContain(response.statusCode);
    expect(responses.some((response) => response.statusCode === 201)).toBe(true);
    expect((await summary('2031-06-03')).Totals).toEqual({ Usage: 100, Events: 100 });
  });
});
