// Security headers on every answer, and `Cache-Control: no-store` on every answer that may carry a secret
// or personal data (issue 11, finding 13).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { carriesPersonalData } from '../../src/http/security-headers.js';

let t: TestApp;
let op: TestOperator;
let doc: { paths: Record<string, Record<string, any>>; components?: { schemas?: Record<string, unknown> } };

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  doc = (await call(t.app, undefined, 'GET', '/openapi.json')).json();
});
afterAll(() => t.close());

const STRICT_CSP = "default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'";

function expectHardened(response: LightMyRequestResponse, what: string) {
  expect(response.headers['x-content-type-options'], what).toBe('nosniff');
  expect(response.headers['x-frame-options'], what).toBe('DENY');
  expect(response.headers['referrer-policy'], what).toBe('no-referrer');
  expect(response.headers['cross-origin-resource-policy'], what).toBe('same-origin');
}

describe('security headers', () => {
  it('are on the docs, the problem pages, the OpenAPI document, API answers and every kind of error', async () => {
    const answers: [string, LightMyRequestResponse][] = [
      ['docs', await t.app.inject({ url: '/docs/' })],
      ['docs script', await t.app.inject({ url: '/docs/static/swagger-initializer.js' })],
      ['problems', await t.app.inject({ url: '/problems' })],
      ['problem page', await t.app.inject({ url: '/problems/not-found' })],
      ['openapi', await t.app.inject({ url: '/openapi.json' })],
      ['health', await t.app.inject({ url: '/healthz' })],
      ['products', await call(t.app, op.otaKey, 'GET', '/api/v2/ota/viator/products')],
      ['401', await call(t.app, undefined, 'GET', '/api/v2/ota/viator/products')],
      ['403', await call(t.app, op.usageKey, 'GET', '/api/v2/ota/viator/products')],
      ['404', await call(t.app, undefined, 'GET', '/api/v2/nothing')],
      ['405', await call(t.app, undefined, 'DELETE', '/healthz')],
      ['422', await call(t.app, op.adminKey, 'POST', '/api/v2/admin/activities', {})],
      ['octo 404', await call(t.app, op.otaKey, 'GET', '/octo/products/s_nothing00')],
    ];
    for (const [what, response] of answers) {
      expect(response.statusCode, what).toBeLessThan(500);
      expectHardened(response, what);
    }
    // No script, style or frame on anything but the docs (and the dashboard's pages, see test/browser).
    for (const [what, response] of answers.filter(([what]) => !what.startsWith('docs'))) {
      expect(response.headers['content-security-policy'], what).toBe(STRICT_CSP);
    }
    const docs = String(answers[0]![1].headers['content-security-policy']);
    expect(docs).toContain("script-src 'self'");
    expect(docs).toContain("frame-ancestors 'none'");
    expect(docs).not.toMatch(/script-src[^;]*unsafe/);
  });

  it('sends Strict-Transport-Security only when the public address is https', async () => {
    expect((await t.app.inject({ url: '/healthz' })).headers['strict-transport-security']).toBeUndefined();
    const secure = await createTestApp({ PUBLIC_URL: 'https://bookings.example.com' });
    try {
      expect((await secure.app.inject({ url: '/healthz' })).headers['strict-transport-security']).toBe('max-age=31536000');
    } finally {
      await secure.close();
    }
  });
});

/** Property names of API answers that are secrets or personal data. */
const PERSONAL = new Set(['Key', 'Secret', 'BasketToken', 'Customer', 'Email', 'Phone', 'FirstName', 'emailAddress', 'FileID']);

function mentionsPersonalData(schema: unknown, seen = new Set<unknown>()): boolean {
  if (schema === null || typeof schema !== 'object' || seen.has(schema)) return false;
  seen.add(schema);
  const node = schema as Record<string, unknown>;
  if (typeof node.$ref === 'string') return mentionsPersonalData(doc.components?.schemas?.[node.$ref.split('/').pop()!], seen);
  if (node.properties && Object.keys(node.properties).some((name) => PERSONAL.has(name))) return true;
  return Object.values(node).some((value) => mentionsPersonalData(value, seen));
}

describe('Cache-Control: no-store', () => {
  it('covers every operation whose answer carries a secret or personal data (from /openapi.json)', () => {
    const uncovered: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const ok = Object.entries(operation.responses ?? {}).filter(([status]) => status.startsWith('2'));
        const personal = ok.some(([, response]) => mentionsPersonalData((response as any).content));
        const url = path.replace(/\{partner\}/g, 'viator').replace(/\{\w+\}/g, 'x');
        if (personal && !carriesPersonalData(url)) uncovered.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(uncovered).toEqual([]);
  });

  it('is sent on key creation, bookings, baskets, waitlists, uploads and OCTo bookings, whatever the status', async () => {
    const cases: [string, string, string | undefined, unknown?][] = [
      ['POST', '/api/v2/admin/keys', op.adminKey, { Name: 'Secret', Scopes: ['admin'] }],
      ['GET', '/api/v2/admin/keys', op.adminKey],
      ['GET', '/api/v2/admin/bookings?Search=ada%40example.com', op.adminKey],
      ['GET', '/api/v2/admin/bookings/BK-AAAAAAAA', op.adminKey],
      ['GET', '/api/v2/admin/activities', op.adminKey],
      ['GET', '/api/v2/ota/viator/booking/BK-AAAAAAAA', op.otaKey],
      ['POST', '/api/v2/ota/viator/booking', op.otaKey, {}],
      [
        'POST',
        `/api/v2/shop/${op.operatorId}/baskets`,
        undefined,
        { Customer: { FirstName: 'Ada', LastName: 'L', Email: 'ada@example.com', Phone: '+441234567890' } },
      ],
      ['GET', `/api/v2/shop/${op.operatorId}/baskets/AAAAAAAAAAAAAAAAAAAAAA`, undefined],
      ['POST', `/api/v2/shop/${op.operatorId}/waitlists`, undefined, {}],
      ['GET', '/octo/bookings', op.otaKey],
      ['GET', '/octo/bookings/00000000-0000-4000-8000-000000000000', op.otaKey],
    ];
    for (const [method, url, key, body] of cases) {
      const response = await call(t.app, key, method as 'GET', url, body);
      expect(response.headers['cache-control'], `${method} ${url} -> ${response.statusCode}`).toBe('no-store');
    }
    const created = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/keys', { Name: 'Shown once', Scopes: ['usage:read'] });
    expect(created.statusCode).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
  });

  it('leaves catalogue and availability reads cacheable', async () => {
    for (const url of ['/api/v2/ota/viator/products', '/octo/products', '/healthz', '/openapi.json']) {
      const response = await call(t.app, op.otaKey, 'GET', url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBeUndefined();
    }
  });
});
