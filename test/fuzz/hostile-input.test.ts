// Property-based fuzzing of every endpoint in /openapi.json: wrong types, huge numbers, unicode,
// injection strings, missing and extra fields and odd headers. Whatever arrives, the answer is never a
// 5xx, every error is problem+json, and a rejected request writes nothing.
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';

interface Operation {
  method: string;
  path: string;
  queryNames: string[];
  bodyFields: string[];
  hasBody: boolean;
}

const hostileStrings = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  "' OR 1=1 --",
  '"; DROP TABLE bookings; --',
  '../../etc/passwd',
  '%00',
  '%',
  '_',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ✓ 日本語',
  '\u202e',
  '<script>alert(1)</script>',
  '{{7*7}}',
  '${jndi:ldap://x}',
  '1e309',
  '-0',
  'NaN',
  '__proto__',
  'constructor',
  '2026-02-30',
  '2026-13-01',
  '24:00',
  '99:99',
  '0',
  '-1',
  '1.5',
  '9'.repeat(40),
  's_',
  's_short',
  's_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  'BK-00000000',
  'x'.repeat(5000),
  'true',
  'null',
  '[]',
  '{}',
);
const hostileNumbers = fc.constantFrom(0, -1, 1, 1.5, -0.000001, 1e308, -1e308, 2 ** 53 + 1, 1e12 + 1, 0.1234567, 253402300800, 5);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileStrings,
  hostileNumbers,
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.oneof(hostileStrings, hostileNumbers), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(hostileStrings, hostileNumbers), { maxKeys: 3 }),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

let t: TestApp;
let op: TestOperator;
let operations: Operation[];
let realActivityId: string;
let tables: string[];

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  const created = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/activities', {
    Name: 'Fuzz Kayak',
    DurationMinutes: 60,
    Timezone: 'Europe/Berlin',
    Currency: 'EUR',
    UnitPrice: 100,
    MaxParticipantsPerBooking: 4,
  });
  realActivityId = created.json().data.ActivityID;
  const listed =
    t.db.dialect === 'sqlite'
      ? await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`.execute(t.db.kysely)
      : await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'`.execute(t.db.kysely);
  tables = listed.rows
    .map((row) => row.name)
    .filter((name) => name !== 'schema_migrations')
    .sort();
  const doc = (await call(t.app, undefined, 'GET', '/openapi.json')).json();
  operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      return {
        method: method.toUpperCase(),
        path,
        queryNames: (operation.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => p.name as string),
        bodyFields: Object.keys(schema?.properties ?? {}),
        hasBody: operation.requestBody !== undefined,
      };
    }),
  );
});
afterAll(() => t.close());

async function rowCounts(): Promise<number[]> {
  return Promise.all(
    tables.map(async (table) => Number((await sql<{ n: number }>`SELECT COUNT(*) AS n FROM ${sql.table(table)}`.execute(t.db.kysely)).rows[0]!.n)),
  );
}

function fillPath(path: string, value: unknown): string {
  return path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    if (name === 'partner') return 'viator';
    if (typeof value === 'string' && value === 'REAL') return name === 'ActivityID' ? realActivityId : '1';
    return encodeURIComponent(String(value));
  });
}

describe('hostile input to every endpoint', () => {
  it('finds the endpoints to fuzz', () => {
    expect(operations.length).toBeGreaterThan(5);
  });

  it('never answers 5xx, always answers errors as problem+json, and writes nothing when it rejects', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        fc.constantFrom('right', 'right', 'right', 'right', 'admin', 'ota', 'usage', 'none', 'garbage'),
        fc.oneof(fc.constant('REAL'), hostileStrings),
        fc.array(
          fc.tuple(
            fc.oneof(
              fc.constantFrom('name', 'ID', 'Name', 'Date', 'StartDate', 'EndDate', 'from', 'to', 'Locale', 'Limit'),
              fc.string({ maxLength: 6 }),
            ),
            hostileStrings,
          ),
          { maxLength: 4 },
        ),
        fc.oneof(
          fc.constant(undefined),
          fc.anything({ maxDepth: 2 }),
          fc.dictionary(
            fc.constantFrom(
              'ActivityID',
              'Date',
              'Time',
              'Participants',
              'Customer',
              'Meter',
              'Usage',
              'OccurredAt',
              'ExtraInfo',
              'Name',
              'Capacity',
              'Scopes',
              'Partner',
              'Type',
              'Question',
              'WaiverAnswers',
              'Options',
            ),
            hostileValue,
          ),
        ),
        fc.constantFrom<Record<string, string>>(
          {},
          { 'content-type': 'application/json' },
          { 'content-type': 'text/plain' },
          { 'content-type': 'application/json; charset=latin1' },
          { 'idempotency-key': 'k'.repeat(300) },
          { 'idempotency-key': 'fuzz' },
          { accept: 'text/html' },
        ),
        async (pick, who, pathValue, query, bodyValue, headers) => {
          const operation = operations[pick % operations.length]!;
          // Mostly the key the route wants, so that most requests get past authentication into validation.
          const right = operation.path.startsWith('/api/v2/admin')
            ? op.adminKey
            : operation.path.startsWith('/api/v2/usage')
              ? op.usageKey
              : op.otaKey;
          const key = { right, admin: op.adminKey, ota: op.otaKey, usage: op.usageKey, none: undefined, garbage: 'sbk_garbage' }[who];
          const search = new URLSearchParams(query.map(([name, value]) => [name, value])).toString();
          const url = `${fillPath(operation.path, pathValue)}${search ? `?${search}` : ''}`;
          let body: unknown = bodyValue;
          if (
            operation.hasBody &&
            bodyValue &&
            typeof bodyValue === 'object' &&
            !Array.isArray(bodyValue) &&
            operation.bodyFields.length > 0 &&
            pick % 3 === 0
          ) {
            body = { ...Object.fromEntries(operation.bodyFields.map((field) => [field, 'x'])), ...(bodyValue as object) };
          }
          const payload =
            body === undefined ? undefined : typeof body === 'string' && headers['content-type'] === 'text/plain' ? body : JSON.stringify(body);
          const before = await rowCounts();
          const response = await call(t.app, key, operation.method as 'GET', url, payload, {
            ...(payload !== undefined && { 'content-type': 'application/json' }),
            ...headers,
          });
          expect(response.statusCode, `${operation.method} ${url} -> ${response.body}`).toBeLessThan(500);
          if (response.statusCode >= 400) {
            if (operation.path.startsWith('/octo/') || operation.path.startsWith('/viator/')) {
              // OCTo and Viator speak their own error formats: {"error": "INVALID_PRODUCT_ID", "errorMessage": "..."},
              // {"error": "UNAUTHORIZED", "message": "..."}.
              expect(response.headers['content-type']).toMatch(/^application\/json/);
              expect(typeof response.json().error).toBe('string');
            } else {
              expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
              expect(response.json().status).toBe(response.statusCode);
            }
            expect(response.body).not.toMatch(/\bat .+:\d+:\d+|SQLITE|syntax error|node_modules/i);
            expect(await rowCounts(), `${operation.method} ${url} wrote despite ${response.statusCode}`).toEqual(before);
          }
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 1500) },
    );
    // 1,500 requests, each followed by a count of every table: about 15 s on SQLite and 35 s on PostgreSQL
    // when the machine is shared, more as tables are added.
  }, 120_000);
});
