// A request id on every log line of a request, in its X-Request-Id header and in its problem+json body:
// a proxy's own well-formed id is kept (so the two logs match), anything else replaced by a new UUID.
// And the log's two formats: JSON lines when stdout is not a terminal, pino-pretty's lines when
// LOG_FORMAT=pretty (or stdout is a terminal), redacted alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { runCli, startServerProcess } from '../helpers/server-process.js';

let t: TestApp;
let op: TestOperator;
let lines: string[] = [];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'info' }, { logStream: { write: (line) => void lines.push(line) } });
  op = await t.newOperator();
});
afterAll(() => t.close());

const logOf = (id: string) =>
  lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.requestId === id || JSON.stringify(entry).includes(id));

describe('the request id', () => {
  it('is a new UUID in X-Request-Id and on every log line of the request', async () => {
    lines = [];
    const answer = await call(t.app, op.otaKey, 'GET', '/api/v2/ota/viator/products');
    expect(answer.statusCode).toBe(200);
    const id = String(answer.headers['x-request-id']);
    expect(id).toMatch(UUID);
    const entries = logOf(id);
    expect(entries.length).toBeGreaterThanOrEqual(2); // "incoming request" and "request completed"
    for (const entry of entries) expect(entry.requestId).toBe(id);
  });

  it('is in the problem+json body of an error and on its log lines', async () => {
    lines = [];
    const missing = await call(t.app, op.adminKey, 'GET', '/api/v2/admin/bookings/not-a-reference');
    const problem = problemOf(missing, 400, 'bad-request');
    expect(problem.requestId).toMatch(UUID);
    const invalid = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/activities', { Name: '' });
    expect(problemOf(invalid, 422, 'validation').requestId).toBe(invalid.headers['x-request-id']);
    // 401 (before any route's handler) and 404 of an unknown route carry it too.
    const unknown = await call(t.app, undefined, 'GET', '/api/v2/nothing-here');
    expect(problemOf(unknown, 404, 'not-found').requestId).toMatch(UUID);
    const unauthenticated = await call(t.app, undefined, 'GET', '/api/v2/admin/bookings');
    expect(problemOf(unauthenticated, 401, 'unauthenticated').requestId).toMatch(UUID);
    expect(new Set([problem.requestId, unknown.headers['x-request-id'], unauthenticated.headers['x-request-id']]).size).toBe(3);
    expect(logOf(problem.requestId).some((entry) => (entry.res as { statusCode?: number } | undefined)?.statusCode === 400)).toBe(true);
  });

  it("keeps a proxy's well-formed X-Request-Id and replaces one that is not", async () => {
    lines = [];
    const given = 'lb-7f3a9c21-0001';
    const kept = await call(t.app, undefined, 'GET', '/api/v2/nothing-here', undefined, { 'x-request-id': given });
    expect(kept.headers['x-request-id']).toBe(given);
    expect(kept.json().requestId).toBe(given);
    expect(logOf(given).length).toBeGreaterThanOrEqual(2);
    for (const bad of ['short', 'x'.repeat(65), 'has space in it', '{"level":60}', 'ok-but/with-slash']) {
      const replaced = await call(t.app, undefined, 'GET', '/healthz', undefined, { 'x-request-id': bad });
      expect(replaced.headers['x-request-id']).toMatch(UUID);
      expect(lines.join('')).not.toContain(bad === 'short' ? '"short"' : bad);
    }
  });
});

describe('the log format of a server process', () => {
  it('is JSON lines when stdout is not a terminal, and pino-pretty lines with LOG_FORMAT=pretty, redacted alike', async () => {
    const url = t.databaseUrl;
    const admin = JSON.parse((await runCli(['operator', 'create', '--name', 'Log Co'], { DATABASE_URL: url, LOG_LEVEL: 'silent' })).stdout);
    const search = encodeURIComponent('grace.hopper@example.com');
    for (const format of ['json', 'pretty'] as const) {
      const server = await startServerProcess(url, format === 'pretty' ? { LOG_FORMAT: 'pretty' } : {});
      try {
        const answer = await fetch(`${server.url}/api/v2/admin/bookings?Search=${search}`, {
          headers: { authorization: `Bearer ${admin.AdminKey}` },
        });
        expect(answer.status).toBe(200);
        const id = answer.headers.get('x-request-id')!;
        await new Promise((resolve) => setTimeout(resolve, 200));
        const output = server.output();
        const requestLines = output.split('\n').filter((line) => line.includes(id));
        expect(requestLines.length).toBeGreaterThanOrEqual(2);
        if (format === 'json') {
          for (const line of requestLines) expect(JSON.parse(line).requestId).toBe(id);
        } else {
          for (const line of requestLines) expect(() => JSON.parse(line)).toThrow();
          expect(output).toMatch(/INFO.*request completed/);
        }
        expect(output).not.toContain('grace.hopper');
        expect(output).not.toContain(admin.AdminKey.slice(-43));
      } finally {
        await server.stop();
      }
    }
  }, 180_000);
});
