// JSON bodies of any depth and width, to every endpoint that takes one, with and without a key: never a
// 5xx, never a stack trace, and never an answer much larger than what was sent (issue 11, finding 9:
// 200,000 nested brackets were a 500 from a stack overflow in the NUL guard).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { MAX_JSON_DEPTH, MAX_JSON_VALUES } from '../../src/http/nul-guard.js';

let t: TestApp;
let op: TestOperator;
let operations: { method: string; path: string; fields: string[] }[];

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  const doc = (await call(t.app, undefined, 'GET', '/openapi.json')).json();
  operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([, operation]) => operation.requestBody?.content?.['application/json'] !== undefined)
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        path: path
          .replace(/\{partner\}/g, 'viator')
          .replace(/\{OperatorID\}/g, String(op.operatorId))
          .replace(/\{\w+\}/g, '1'),
        fields: Object.keys(operation.requestBody.content['application/json'].schema?.properties ?? {}),
      })),
  );
});
afterAll(() => t.close());

/** `depth` containers, one inside the other, around `inner`, as JSON text (built as text: no recursion). */
function nested(depth: number, container: 'array' | 'object', inner: string): string {
  return container === 'array' ? '['.repeat(depth) + inner + ']'.repeat(depth) : '{"a":'.repeat(depth) + inner + '}'.repeat(depth);
}

function wide(width: number, item: string, container: 'array' | 'object'): string {
  if (container === 'array') return `[${Array.from({ length: width }, () => item).join(',')}]`;
  return `{${Array.from({ length: width }, (_, i) => `"k${i}":${item}`).join(',')}}`;
}

const keyFor = (path: string) =>
  path.startsWith('/api/v2/admin')
    ? op.adminKey
    : path.startsWith('/api/v2/usage')
      ? op.usageKey
      : path.startsWith('/api/v2/shop')
        ? undefined
        : op.otaKey;

async function send(method: string, path: string, body: string, key: string | undefined) {
  const response = await call(t.app, key, method as 'POST', path, body, { 'content-type': 'application/json' });
  const what = `${method} ${path} (${body.length} bytes) -> ${response.statusCode} ${response.body.slice(0, 300)}`;
  expect(response.statusCode, what).toBeLessThan(500);
  expect(response.body, what).not.toMatch(/RangeError|Maximum call stack|\bat .+:\d+:\d+/);
  // An error names what is wrong; it never echoes the body back many times over.
  expect(response.body.length, what).toBeLessThan(Math.max(2 * body.length, 200_000));
  return response;
}

describe('deeply nested and very wide JSON bodies', () => {
  it('answers 200,000 nested brackets (400 KB, no key) with a 400 naming the limit', async () => {
    // The object form is 5 bytes a level: 150,000 levels stay under the 1 MiB body limit.
    for (const [container, depth] of [
      ['array', 200_000],
      ['object', 150_000],
    ] as const) {
      const response = await send('POST', `/api/v2/shop/${op.operatorId}/baskets`, nested(depth, container, '0'), undefined);
      expect(problemOf(response, 400, 'bad-request').detail).toBe(`The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep`);
    }
    const inField = `{"Customer":${nested(200_000, 'array', '"x"')}}`;
    problemOf(await send('POST', '/api/v2/ota/viator/booking', inField, op.otaKey), 400, 'bad-request');
  });

  it('takes nesting up to the limit: the body is then judged by its schema (422), not refused as a whole', async () => {
    const response = await send(
      'POST',
      `/api/v2/shop/${op.operatorId}/baskets`,
      `{"Customer":${nested(MAX_JSON_DEPTH - 1, 'array', '1')}}`,
      undefined,
    );
    expect(problemOf(response, 422, 'validation').errors!.map((e) => e.field)).toEqual(['Customer']);
    problemOf(
      await send('POST', `/api/v2/shop/${op.operatorId}/baskets`, `{"Customer":${nested(MAX_JSON_DEPTH, 'array', '1')}}`, undefined),
      400,
      'bad-request',
    );
  });

  it('refuses more than the maximum number of values with a 400, and lists at most 1,000 fields in a 422', async () => {
    const tooMany = `{"Entries":${wide(MAX_JSON_VALUES, '{}', 'array')}}`;
    const refused = problemOf(await send('POST', '/api/v2/usage/meters/batch', tooMany, op.usageKey), 400, 'bad-request');
    expect(refused.detail).toMatch(/more than 20,000 values/);
    const many = `{"Entries":${wide(MAX_JSON_VALUES / 2 - 10, '{}', 'array')}}`;
    const listed = problemOf(await send('POST', '/api/v2/usage/meters/batch', many, op.usageKey), 422, 'validation');
    expect(listed.errors!.length).toBeLessThanOrEqual(1_000);
  });

  it('never answers 5xx to any depth, width or position, on any endpoint that takes JSON', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        fc.constantFrom('array', 'object'),
        fc.oneof(fc.integer({ min: 0, max: 3 * MAX_JSON_DEPTH }), fc.constantFrom(1_000, 50_000, 150_000)),
        fc.oneof(fc.integer({ min: 0, max: 50 }), fc.constantFrom(MAX_JSON_VALUES - 2, MAX_JSON_VALUES, MAX_JSON_VALUES + 1, 60_000)),
        fc.constantFrom('0', '"\\u0000"', '{}', '[]', 'null', '"x"', '{"QuestionID":1,"Answer":"a"}'),
        fc.boolean(),
        fc.boolean(),
        async (pick, container, depth, width, item, inField, withKey) => {
          const operation = operations[pick % operations.length]!;
          let body = nested(depth, container, wide(width, item, container === 'array' ? 'object' : 'array'));
          const field = operation.fields[pick % Math.max(1, operation.fields.length)];
          if (inField && field) body = `{"${field}":${body}}`;
          await send(operation.method, operation.path, body, withKey ? keyFor(operation.path) : undefined);
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 150) },
    );
  });
});
