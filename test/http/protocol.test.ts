// Cross-cutting HTTP behaviour: problem+json for every failure Fastify itself detects, limits, docs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';

let t: TestApp;
let op: TestOperator;
const activity = { Name: 'Kayak', DurationMinutes: 60, Timezone: 'Europe/Berlin', Currency: 'EUR', UnitPrice: 1000 };

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
});
afterAll(() => t.close());

describe('errors Fastify detects before our code runs', () => {
  it('answers 404 problem for an unknown path', async () => {
    const problem = problemOf(await call(t.app, op.adminKey, 'GET', '/api/v2/nothing-here'), 404, 'not-found');
    expect(problem.title).toBe('Not Found');
  });

  it('answers 405 problem with Allow for a known path with the wrong method', async () => {
    const response = await call(t.app, op.otaKey, 'DELETE', '/api/v2/ota/viator/products');
    problemOf(response, 405, 'method-not-allowed');
    expect(response.headers.allow).toBe('GET, HEAD');
    const post = await call(t.app, op.adminKey, 'PUT', '/api/v2/admin/activities');
    problemOf(post, 405, 'method-not-allowed');
    expect(String(post.headers.allow).split(', ').sort()).toEqual(['GET', 'HEAD', 'POST']);
  });

  it('answers 400 for malformed JSON and for an empty JSON body', async () => {
    const broken = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/activities', '{"Name": ', { 'content-type': 'application/json' });
    expect(problemOf(broken, 400, 'bad-request').detail).toMatch(/JSON/);
    problemOf(await call(t.app, op.adminKey, 'POST', '/api/v2/admin/activities', '', { 'content-type': 'application/json' }), 400, 'bad-request');
  });

  it('answers 400 problem for a malformed or over-long path', async () => {
    problemOf(await call(t.app, op.adminKey, 'GET', '/api/v2/admin/activities/%E0%A4%A'), 400, 'bad-request');
    problemOf(await call(t.app, op.adminKey, 'GET', `/api/v2/admin/activities/s_${'x'.repeat(500)}`), 400, 'bad-request');
  });

  it('refuses the NUL character anywhere (PostgreSQL cannot store it): 422 naming the field, 400 in the path', async () => {
    const body = { ...activity, Name: 'Kay\u0000ak', Description: 'fine' };
    const problem = problemOf(await call(t.app, op.adminKey, 'POST', '/api/v2/admin/activities', body), 422, 'validation');
    expect(problem.errors).toEqual([{ field: 'Name', message: 'Name must not contain the NUL character' }]);
    const usage = problemOf(
      await call(t.app, op.usageKey, 'POST', '/api/v2/usage/meters', { Meter: 'm', Usage: 1, ExtraInfo: '{"a":"\u0000"}' }),
      422,
      'validation',
    );
    expect(usage.errors![0]!.field).toBe('ExtraInfo');
    problemOf(await call(t.app, op.adminKey, 'GET', '/api/v2/admin/bookings?Search=%00'), 422, 'validation');
    problemOf(await call(t.app, op.adminKey, 'GET', '/api/v2/admin/activities/s_abc%00defgh'), 400, 'bad-request');
    expect((await call(t.app, op.adminKey, 'GET', '/api/v2/admin/activities')).json().data).toEqual([]);
  });

  it('answers 404, not a database error, for IDs beyond the 32-bit row range', async () => {
    problemOf(await call(t.app, op.otaKey, 'GET', '/api/v2/ota/viator/resolve-product?ID=99999999999'), 404, 'not-found');
    problemOf(await call(t.app, op.usageKey, 'GET', '/api/v2/usage/entries/2147483648'), 400, 'bad-request');
    problemOf(await call(t.app, op.adminKey, 'DELETE', '/api/v2/admin/keys/1e309'), 400, 'bad-request');
  });

  it('answers 415 for a body that is not JSON', async () => {
    for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded']) {
      problemOf(
        await call(t.app, op.adminKey, 'POST', '/api/v2/admin/activities', 'Name=x', { 'content-type': type }),
        415,
        'unsupported-media-type',
      );
    }
  });

  it('answers 413 for a body over 1 MiB, and writes nothing', async () => {
    const huge = JSON.stringify({ ...activity, Description: 'x'.repeat(1024 * 1024) });
    problemOf(
      await call(t.app, op.adminKey, 'POST', '/api/v2/admin/activities', huge, { 'content-type': 'application/json' }),
      413,
      'payload-too-large',
    );
    const list = await call(t.app, op.adminKey, 'GET', '/api/v2/admin/activities');
    expect(list.json().data).toEqual([]);
  });

  it('answers 422 naming each failing body field, and a missing body as Body', async () => {
    const problem = problemOf(await call(t.app, op.adminKey, 'POST', '/api/v2/admin/activities', { Name: 5, UnitPrice: -1 }), 422, 'validation');
    expect(problem.errors!.map((e) => e.field).sort()).toEqual(['Currency', 'DurationMinutes', 'Name', 'Timezone', 'UnitPrice']);
    expect(problem.detail).toBe(problem.errors![0]!.message);
    const missing = problemOf(await call(t.app, op.adminKey, 'POST', '/api/v2/admin/activities'), 422, 'validation');
    expect(missing.errors).toEqual([{ field: 'Body', message: 'Body must be an object' }]);
  });

  it('never shows a stack trace: prototype pollution attempts are a plain 400', async () => {
    const response = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/activities', '{"__proto__": {"x": 1}}', {
      'content-type': 'application/json',
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).not.toMatch(/at .*\.(js|ts):\d+/);
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After once a key exceeds its requests per minute', async () => {
    const limited = await createTestApp({ RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const key = (await limited.newOperator()).otaKey;
      for (let i = 0; i < 3; i++) expect((await call(limited.app, key, 'GET', '/api/v2/ota/viator/products')).statusCode).toBe(200);
      const response = await call(limited.app, key, 'GET', '/api/v2/ota/viator/products');
      problemOf(response, 429, 'rate-limited');
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      // Health checks are not rate limited.
      for (let i = 0; i < 5; i++) expect((await call(limited.app, undefined, 'GET', '/healthz')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('health, problems and docs', () => {
  it('serves /healthz and /readyz', async () => {
    expect((await call(t.app, undefined, 'GET', '/healthz')).json()).toEqual({ status: 'ok' });
    expect((await call(t.app, undefined, 'GET', '/readyz')).json()).toEqual({ status: 'ready' });
  });

  it('describes every problem kind at its type address', async () => {
    const page = await call(t.app, undefined, 'GET', '/problems/insufficient-capacity');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toMatch(/409/);
    problemOf(await call(t.app, undefined, 'GET', '/problems/no-such-kind'), 404, 'not-found');
  });

  it('publishes an OpenAPI 3.1 document with a schema for every response of every route', async () => {
    const doc = (await call(t.app, undefined, 'GET', '/openapi.json')).json();
    expect(doc.openapi).toBe('3.1.0');
    const operations = Object.entries(doc.paths as Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>>).flatMap(
      ([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
    );
    expect(operations.length).toBeGreaterThan(10);
    for (const { path, method, operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (status === '204' || status === '304') continue;
        expect(response.content, `${method} ${path} ${status}`).toBeDefined();
      }
    }
    expect(doc.paths['/api/v2/ota/{partner}/products'].get.responses['401']).toBeDefined();
  });

  it('serves the docs UI', async () => {
    const response = await call(t.app, undefined, 'GET', '/docs/');
    expect(response.statusCode).toBe(200);
    expect(response.body).toMatch(/swagger/i);
  });
});
