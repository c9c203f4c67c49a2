// The embed's scripts as served (issue 13, item 4): /embed.js loads from any website (CORS, CORP), is
// cached briefly with an ETag (304 on revalidation), compressed, and small; the frame-ancestors policy.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { loadScript } from '../../src/embed/routes.js';
import { allowFraming, frameAncestors, operatorFrameAncestors, withFrameAncestors } from '../../src/embed/frame-ancestors.js';

let t: TestApp;
let op: TestOperator;

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
});
afterAll(() => t.close());

describe('embed.js', () => {
  it('is served to any website: JavaScript, CORS *, CORP cross-origin, nosniff, a short cache and an ETag', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/embed.js', headers: { origin: 'https://www.example.com' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({
      'content-type': 'text/javascript; charset=utf-8',
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
      'x-content-type-options': 'nosniff',
      'cache-control': 'public, max-age=300, stale-while-revalidate=86400',
    });
    expect(response.body).toContain('window');
    const etag = response.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    const again = await t.app.inject({ method: 'GET', url: '/embed.js', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect((await t.app.inject({ method: 'GET', url: '/embed.js', headers: { 'if-none-match': '"other"' } })).statusCode).toBe(200);
  });

  it('is compressed when the browser accepts it, and stays under 5 KB gzipped', async () => {
    const gzip = await t.app.inject({ method: 'GET', url: '/embed.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(gzip.headers['content-encoding']).toBe('br');
    const file = loadScript('embed.js');
    expect(gzipSync(file.body, { level: 9 }).length).toBeLessThan(5 * 1024);
    expect((await t.app.inject({ method: 'GET', url: '/embed.js', headers: { 'accept-encoding': 'gzip' } })).rawPayload.length).toBe(
      file.gzip.length,
    );
  });

  it('serves frame.js for the booking pages the same way', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/embed/frame.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('postMessage');
  });

  it('defines exactly one global and changes no prototype (checked on the source)', () => {
    const source = loadScript('embed.js').body.toString();
    expect(source.match(/\bw\.Slotbook\s*=/g)).toHaveLength(1);
    expect(source).not.toMatch(/\.prototype\b/);
  });
});

describe('frame-ancestors', () => {
  it('is * until origins are listed, then self plus the list', async () => {
    expect(frameAncestors([])).toBe('*');
    expect(frameAncestors(['https://a.example', 'http://localhost:3000'])).toBe("'self' https://a.example http://localhost:3000");
    expect(await operatorFrameAncestors(t.db.kysely, op.operatorId)).toBe('*');
    await call(t.app, op.adminKey, 'PATCH', '/api/v2/admin/settings', { AllowedEmbedOrigins: ['https://shop.example.com'] });
    expect(await operatorFrameAncestors(t.db.kysely, op.operatorId)).toBe("'self' https://shop.example.com");
  });

  it('replaces the directive in a policy, or adds it', () => {
    expect(withFrameAncestors("default-src 'self'; frame-ancestors 'none'; img-src data:", '*')).toBe(
      "default-src 'self'; img-src data:; frame-ancestors *",
    );
    expect(withFrameAncestors(undefined, "'self'")).toBe("frame-ancestors 'self'");
  });

  it("allowFraming drops helmet's X-Frame-Options and rewrites the page's policy", () => {
    // A reply double with the two header stores Fastify keeps: its own and the raw response's (helmet's).
    const raw = new Map<string, unknown>([
      ['x-frame-options', 'DENY'],
      ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"],
    ]);
    const own = new Map<string, unknown>();
    const reply = {
      raw: { getHeader: (n: string) => raw.get(n), removeHeader: (n: string) => raw.delete(n) },
      getHeader: (n: string) => own.get(n),
      removeHeader: (n: string) => own.delete(n),
      header: (n: string, v: unknown) => own.set(n, v),
    };
    allowFraming(reply as never, "'self' https://a.example");
    expect(raw.has('x-frame-options')).toBe(false);
    expect(own.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'self' https://a.example");
  });
});
