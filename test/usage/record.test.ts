// POST /api/v2/usage/meters: every validation rule, reserved meters, scopes, the 201 body, idempotency.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { unixNow } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
});
afterAll(() => t.close());

const record = (body: unknown, key = op.usageKey, headers: Record<string, string> = {}) =>
  call(t.app, key, 'POST', '/api/v2/usage/meters', body, headers);

const failingFields = async (body: unknown) => {
  const problem = problemOf(await record(body), 422, 'validation');
  expect(problem.detail).toBe(problem.errors![0]!.message);
  return problem.errors!.map((error) => error.field).sort();
};

describe('recording a usage entry', () => {
  it('answers 201 with ID, trimmed Meter, Usage as a JSON number, OccurredAt and a Location', async () => {
    const response = await record({ Meter: '  api-calls ', Usage: '12.5', OccurredAt: 1_700_000_000, ExtraInfo: '{"x":1}' });
    expect(response.statusCode, response.body).toBe(201);
    const { data } = response.json();
    expect(data).toEqual({ ID: expect.any(Number), Meter: 'api-calls', Usage: 12.5, OccurredAt: 1_700_000_000 });
    expect(response.headers.location).toBe(`/api/v2/usage/entries/${data.ID}`);
    const stored = await call(t.app, op.usageKey, 'GET', response.headers.location as string);
    expect(stored.json().data).toEqual({ ...data, ExtraInfo: '{"x":1}' });
  });

  it('defaults OccurredAt to now and accepts an integer string', async () => {
    const before = unixNow();
    const now = (await record({ Meter: 'm', Usage: 1 })).json().data;
    expect(now.OccurredAt).toBeGreaterThanOrEqual(before);
    expect(now.OccurredAt).toBeLessThanOrEqual(unixNow());
    expect((await record({ Meter: 'm', Usage: 1, OccurredAt: '86400' })).json().data.OccurredAt).toBe(86_400);
  });

  it('accepts the bounds: 0.000001, 1e12, OccurredAt 0 and 253402300799, 65,536 characters of ExtraInfo, 255 of Meter', async () => {
    const bounds = [
      { Meter: 'x'.repeat(255), Usage: 0.000001, OccurredAt: 0 },
      { Meter: 'm', Usage: 1e12, OccurredAt: 253_402_300_799 },
      { Meter: 'm', Usage: '1000000000000.000000', ExtraInfo: 'é'.repeat(65_536) },
      { Meter: 'm', Usage: '0.10', ExtraInfo: null },
    ];
    for (const body of bounds) expect((await record(body)).statusCode, JSON.stringify(body).slice(0, 80)).toBe(201);
    expect((await record(bounds[3])).json().data.Usage).toBe(0.1);
  });

  it('reports every failing field at once, schema and fine rules together', async () => {
    expect(await failingFields({ Usage: -1, OccurredAt: -5, ExtraInfo: 'x'.repeat(65_537) })).toEqual(['ExtraInfo', 'Meter', 'OccurredAt', 'Usage']);
    expect(await failingFields({ Meter: '   ', Usage: 'abc', OccurredAt: 1.5, ExtraInfo: 5 })).toEqual(['ExtraInfo', 'Meter', 'OccurredAt', 'Usage']);
    expect(await failingFields({})).toEqual(['Meter', 'Usage']);
  });

  it.each([
    ['empty Meter', { Meter: '', Usage: 1 }],
    ['blank Meter', { Meter: ' \t ', Usage: 1 }],
    ['Meter over 255 characters once trimmed', { Meter: ` ${'x'.repeat(256)} `, Usage: 1 }],
    ['Meter not a string', { Meter: 7, Usage: 1 }],
  ])('422 on Meter: %s', async (_name, body) => {
    expect(await failingFields(body)).toEqual(['Meter']);
  });

  it.each([
    ['zero', 0],
    ['zero as text', '0.000'],
    ['negative', -0.5],
    ['negative text', '-3'],
    ['over 1e12', 1e12 + 1],
    ['over 1e12 by a micro-unit', '1000000000000.000001'],
    ['seven fractional digits', 0.1234567],
    ['seven fractional digits as text', '0.0000001'],
    ['exponent text', '1e-7'],
    ['not a number', 'abc'],
    ['boolean', true],
    ['null', null],
    ['an object', { value: 1 }],
    ['a very long digit string', '1'.repeat(100_000)],
  ])('422 on Usage: %s', async (_name, usage) => {
    expect(await failingFields({ Meter: 'm', Usage: usage })).toEqual(['Usage']);
  });

  it.each([
    ['negative', -1],
    ['above 9999-12-31T23:59:59Z', 253_402_300_800],
    ['fractional', 1.5],
    ['fractional text', '1.5'],
    ['text', 'yesterday'],
    ['negative text', '-1'],
    ['huge', 1e20],
  ])('422 on OccurredAt: %s', async (_name, occurredAt) => {
    expect(await failingFields({ Meter: 'm', Usage: 1, OccurredAt: occurredAt })).toEqual(['OccurredAt']);
  });

  it('reserves the built-in meters, trimmed and case-insensitively', async () => {
    for (const meter of ['order-completed', 'waitlist-notified', 'workflow-email-sent', ' Order-Completed ', 'WORKFLOW-EMAIL-SENT']) {
      const problem = problemOf(await record({ Meter: meter, Usage: 1 }), 422, 'validation');
      expect(problem.errors).toEqual([{ field: 'Meter', message: expect.stringMatching(/built-in/) }]);
    }
    expect((await record({ Meter: 'order-completed-by-hand', Usage: 1 })).statusCode).toBe(201);
  });

  it('refuses control, format and other invisible characters in a meter name, naming the code point', async () => {
    for (const [meter, codePoint] of [
      ['order-completed\u200B', 'U+200B'],
      ['sms\u0007sent', 'U+0007'],
      ['sms-\u202Etnes', 'U+202E'],
      ['sms\u00ADsent', 'U+00AD'],
      ['sms\u00A0sent', 'U+00A0'],
      ['sms\u2028sent', 'U+2028'],
      ['sms-sent\uFE0F', 'U+FE0F'],
      ['sms\u3164sent', 'U+3164'],
      ['sms\uE000', 'U+E000'],
    ]) {
      const problem = problemOf(await record({ Meter: meter, Usage: 1 }), 422, 'validation');
      expect(problem.errors, JSON.stringify(meter)).toEqual([{ field: 'Meter', message: expect.stringContaining(codePoint!) }]);
    }
  });

  it('reserves the look-alikes of the built-in meters: other scripts, compatibility forms, separators, rn for m', async () => {
    for (const meter of [
      '\u043Erder-completed', // Cyrillic о
      'order\u2010completed', // hyphen
      '\uFF4F\uFF52\uFF44\uFF45\uFF52-completed', // fullwidth
      '\u{1D428}rder-completed', // mathematical bold o
      'ORDER_COMPLETED',
      'Order Completed',
      'order-cornpleted',
      '0rder-compIeted',
      'waitIist-notified',
      'workflow-emai1-sent',
      'w\u0430itlist-notified', // Cyrillic а
    ]) {
      const problem = problemOf(await record({ Meter: meter, Usage: 1 }), 422, 'validation');
      expect(problem.errors, JSON.stringify(meter)).toEqual([{ field: 'Meter', message: expect.stringMatching(/reads as, a built-in meter/) }]);
    }
    for (const meter of ['sms-sent', 'orders-completed', 'Café visits', '日本語のメーター', 'order completed late']) {
      expect((await record({ Meter: meter, Usage: 1 })).statusCode, meter).toBe(201);
    }
  });

  it('answers 422 for a body that is not an object, 400 for broken JSON, 415 for another media type', async () => {
    expect(await failingFields([1, 2])).toEqual(['Body']);
    problemOf(await record('{"Meter":', undefined, { 'content-type': 'application/json' }), 400, 'bad-request');
    problemOf(await record('Meter=m', undefined, { 'content-type': 'text/plain' }), 415, 'unsupported-media-type');
  });

  it('needs a key (401) with the usage:write scope (403); admin keys may record', async () => {
    problemOf(await record({ Meter: 'm', Usage: 1 }, ''), 401, 'unauthenticated');
    problemOf(await record({ Meter: 'm', Usage: 1 }, op.otaKey), 403, 'forbidden');
    const readOnly = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/keys', { Name: 'reader', Scopes: ['usage:read'] });
    problemOf(await record({ Meter: 'm', Usage: 1 }, readOnly.json().data.Key), 403, 'forbidden');
    expect((await record({ Meter: 'm', Usage: 1 }, op.adminKey)).statusCode).toBe(201);
  });

  it('replays a repeat with the same Idempotency-Key and writes it once', async () => {
    const body = { Meter: 'idempotent', Usage: 3, OccurredAt: 1_000_000 };
    const key = { 'idempotency-key': 'usage-retry-1' };
    const first = await record(body, op.usageKey, key);
    const again = await record(body, op.usageKey, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const summary = await call(t.app, op.usageKey, 'GET', '/api/v2/usage/meters?from=1970-01-12&to=1970-01-12');
    expect(summary.json().data.Meters).toEqual([{ Meter: 'idempotent', TotalUsage: 3, EventCount: 1 }]);
    problemOf(await record({ ...body, Usage: 4 }, op.usageKey, key), 422, 'idempotency-key-reuse');
  });
});

describe('GET /api/v2/usage/entries/{ID}', () => {
  it("is 404 for another operator's entry and 400 for a malformed ID", async () => {
    const mine = (await record({ Meter: 'm', Usage: 1 })).json().data.ID;
    const other = await t.newOperator();
    problemOf(await call(t.app, other.usageKey, 'GET', `/api/v2/usage/entries/${mine}`), 404, 'not-found');
    problemOf(await call(t.app, op.usageKey, 'GET', '/api/v2/usage/entries/abc'), 400, 'bad-request');
  });
});
