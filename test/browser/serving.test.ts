// How the dashboard is served: its pages answer index.html (no-cache, strict CSP), its hashed assets
// are cached for a year and compressed, and the API's own 404/405 problems are untouched.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, problemOf, type TestApp } from '../helpers/app.js';
import { ensureDashboardBuilt } from './browser.js';

let t: TestApp;
beforeAll(async () => {
  ensureDashboardBuilt();
  t = await createTestApp();
}, 120_000);
afterAll(() => t?.close());

describe('dashboard serving', () => {
  it('answers index.html at / and at every dashboard page, never cached', async () => {
    for (const url of [
      '/',
      '/bookings',
      '/bookings/BK-ABCDEFGH',
      '/bookings/new',
      '/activities/s_abcdefgh1/questions',
      '/keys',
      '/getyourguide',
      '/usage?from=2025-01-01',
      '/waitlists',
      '/emails',
      '/webhooks',
      '/webhooks/12',
      '/sign-in',
    ]) {
      const response = await t.app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
      expect(response.body).toContain('<div id="root"></div>');
    }
    const index = await t.app.inject({ url: '/' });
    const again = await t.app.inject({ url: '/', headers: { 'if-none-match': String(index.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect((await t.app.inject({ method: 'HEAD', url: '/bookings' })).statusCode).toBe(200);
  });

  it('serves the hashed assets for a year, compressed when the browser accepts it', async () => {
    const assets = readdirSync(fileURLToPath(new URL('../../web/dist/assets/', import.meta.url)));
    const script = assets.find((name) => name.endsWith('.js'))!;
    const plain = await t.app.inject({ url: `/assets/${script}` });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const br = await t.app.inject({ url: `/assets/${script}`, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    const gz = await t.app.inject({ url: `/assets/${script}`, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect((await t.app.inject({ url: '/favicon.svg' })).headers['content-type']).toBe('image/svg+xml');
    problemOf(await t.app.inject({ url: '/assets/nope.js' }), 404, 'not-found');
  });

  it('leaves the API, docs, problems and health routes as they are', async () => {
    problemOf(await t.app.inject({ url: '/api/v2/admin/nothing-here' }), 404, 'not-found');
    problemOf(await t.app.inject({ url: '/api/v2/nope' }), 404, 'not-found');
    problemOf(await t.app.inject({ url: '/no-such-page' }), 404, 'not-found');
    problemOf(await t.app.inject({ method: 'POST', url: '/bookings' }), 405, 'method-not-allowed');
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/openapi.json' })).headers['content-type']).toContain('application/json');
    const openapi = (await t.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, unknown> };
    expect(
      Object.keys(openapi.paths).filter(
        (path) =>
          !path.startsWith('/api/') &&
          !path.startsWith('/octo/') &&
          !path.startsWith('/gyg/') &&
          !path.startsWith('/viator/') &&
          !['/healthz', '/readyz'].includes(path),
      ),
    ).toEqual([]);
    expect((await t.app.inject({ url: '/problems/not-found' })).headers['content-type']).toContain('text/html');
    expect((await t.app.inject({ url: '/docs/' })).statusCode).toBe(200);
  });
});
