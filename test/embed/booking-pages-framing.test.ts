// The booking pages' headers that the embed decides (issue 13, items 4 and 5): any website may frame them
// until the operator lists websites, then only those and slotbook itself (CSP frame-ancestors; no
// X-Frame-Options); the shell loads frame.js and shows the logo and brand colour; an old slug redirects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { openShop } from '../shop/fixtures.js';
import { ensureDashboardBuilt } from '../browser/browser.js';
import { solidPng } from '../settings/png.js';

let t: TestApp;
let op: TestOperator;

beforeAll(async () => {
  ensureDashboardBuilt(); // the booking script, which the shell names
  t = await createTestApp();
  op = await t.newOperator('Frame Tours');
  await openShop(t, op.adminKey);
}, 240_000);
afterAll(() => t.close());

const page = (path: string) => t.app.inject({ method: 'GET', url: path });
const frameAncestorsOf = (csp: unknown) => /frame-ancestors ([^;]*)/.exec(String(csp))?.[1];

describe('booking pages in frames', () => {
  it('may be framed by any website until the operator lists some', async () => {
    const response = await page('/book/frame-tours');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['x-frame-options']).toBeUndefined();
    expect(frameAncestorsOf(response.headers['content-security-policy'])).toBe('*');
    expect(String(response.headers['content-security-policy']).match(/frame-ancestors/g)).toHaveLength(1);
    expect(response.body).toContain('<script src="/embed/frame.js" defer></script>');
    expect(frameAncestorsOf((await page(`/book/${op.operatorId}/activities/s_abcdefgh12`)).headers['content-security-policy'])).toBe('*');
  });

  it('then only by those websites and slotbook itself, on every page of the shop; other shops keep theirs', async () => {
    const other = await t.newOperator('Other Tours');
    await openShop(t, other.adminKey);
    await call(t.app, op.adminKey, 'PATCH', '/api/v2/admin/settings', {
      AllowedEmbedOrigins: ['https://www.frame-tours.example', 'http://localhost:4000'],
    });
    for (const path of ['/book/frame-tours', '/book/frame-tours/activities/s_abcdefgh12', `/book/${op.operatorId}/basket/x`]) {
      const response = await page(path);
      expect(frameAncestorsOf(response.headers['content-security-policy']), path).toBe(
        "'self' https://www.frame-tours.example http://localhost:4000",
      );
      expect(response.headers['x-frame-options']).toBeUndefined();
    }
    expect(frameAncestorsOf((await page('/book/other-tours')).headers['content-security-policy'])).toBe('*');
    await call(t.app, op.adminKey, 'PATCH', '/api/v2/admin/settings', { AllowedEmbedOrigins: [] });
    expect(frameAncestorsOf((await page('/book/frame-tours')).headers['content-security-policy'])).toBe('*');
  });

  it('shows the shop name, brand colour and logo the settings hold', async () => {
    await call(t.app, op.adminKey, 'PATCH', '/api/v2/admin/settings', { ShopName: 'Frame & Sons <Tours>', BrandColour: '#7a1f5c' });
    const logo = await t.app.inject({
      method: 'PUT',
      url: '/api/v2/admin/settings/logo',
      headers: { authorization: `Bearer ${op.adminKey}`, 'content-type': 'image/png' },
      payload: solidPng(4, 4, [1, 2, 3]),
    });
    const path = new URL(logo.json().data.LogoUrl).pathname;
    const response = await page('/book/frame-tours');
    expect(response.body).toContain('<title>Frame &amp; Sons &lt;Tours&gt;</title>');
    expect(response.body).toContain(':root{--brand:#7a1f5c}');
    expect(response.body).toContain(`<img class="shop-logo" src="${path}" alt="" height="40">`);
    const shop = await t.app.inject({ method: 'GET', url: `/api/v2/shop/${op.operatorId}/storefront` });
    expect(shop.statusCode, shop.body).toBe(200);
    expect(JSON.stringify(shop.json())).toContain('"BrandColour":"#7a1f5c"');
  });

  it('redirects an old slug to the current one, keeping the rest of the address', async () => {
    expect((await call(t.app, op.adminKey, 'PATCH', '/api/v2/admin/settings', { Slug: 'framed' })).statusCode).toBe(200);
    const moved = await page('/book/frame-tours/activities/s_abcdefgh12?date=2030-01-02');
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe('/book/framed/activities/s_abcdefgh12?date=2030-01-02');
    expect((await page('/book/frame-tours')).headers.location).toBe('/book/framed');
    expect((await page('/book/framed')).statusCode).toBe(200);
    expect((await page('/book/never-was')).statusCode).toBe(404);
  });
});
