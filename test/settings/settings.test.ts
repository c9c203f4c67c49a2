// The operator's shop settings (issue 13, item 5): name, slug (unique, 409 naming the field; the old one
// redirects), contact e-mail (one column with the webhook settings), brand colour (contrast with white
// text), logo (bytes checked, SVG refused, size cap, served publicly with a long cache and nosniff),
// allowed embed origins (validated, normalised), permissions, tenancy, and nothing half-written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, PUBLIC_URL, type TestApp, type TestOperator } from '../helpers/app.js';
import { addUser, as, signIn } from '../staff/fixtures.js';
import { JPEG, PDF, PNG, WEBP } from '../questions/files.js';
import { contrastWithWhite, normaliseBrandColour } from '../../src/settings/rules.js';
import { formerSlugHolder } from '../../src/settings/store.js';
import { shopProfile } from '../../src/settings/profile.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;
const SETTINGS = '/api/v2/admin/settings';
const LOGO = `${SETTINGS}/logo`;

const get = (key = op.adminKey) => call(t.app, key, 'GET', SETTINGS);
const patch = (body: unknown, key = op.adminKey) => call(t.app, key, 'PATCH', SETTINGS, body);
const upload = (body: Buffer | string, contentType = 'image/png', key = op.adminKey) =>
  t.app.inject({ method: 'PUT', url: LOGO, headers: { authorization: `Bearer ${key}`, 'content-type': contentType }, payload: body });
const pngOfSize = (size: number) => Buffer.concat([PNG, Buffer.alloc(size - PNG.length, 7)]);

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator("Müller's Kayak Tours");
  other = await t.newOperator('Other Adventures');
});
afterAll(() => t.close());

describe('operator settings', () => {
  it("shows the defaults: the operator's name, its slug, no colour, logo or origins, the preview link and the snippet", async () => {
    const response = await get();
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const data = response.json().data;
    expect(data).toMatchObject({
      ShopName: null,
      DisplayName: "Müller's Kayak Tours",
      Slug: 'mullers-kayak-tours',
      ContactEmail: null,
      BrandColour: null,
      LogoUrl: null,
      AllowedEmbedOrigins: [],
      BookingPageUrl: `${PUBLIC_URL}/book/mullers-kayak-tours`,
      EmbedScriptUrl: `${PUBLIC_URL}/embed.js`,
    });
    expect(data.EmbedSnippet).toContain(`<script src="${PUBLIC_URL}/embed.js" data-operator="mullers-kayak-tours" async></script>`);
    expect(data.EmbedSnippet).toContain('data-slotbook-activity=');
  });

  it('changes only the fields sent, trims and normalises them, and writes one audit entry', async () => {
    const response = await patch({
      ShopName: '  Lake Kayaks  ',
      BrandColour: '#0B5CAD',
      AllowedEmbedOrigins: ['https://WWW.Example.com/', 'https://www.example.com:443', 'http://localhost:8080'],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({
      ShopName: 'Lake Kayaks',
      DisplayName: 'Lake Kayaks',
      BrandColour: '#0b5cad',
      AllowedEmbedOrigins: ['https://www.example.com', 'http://localhost:8080'],
      Slug: 'mullers-kayak-tours',
    });
    const entry = (await call(t.app, op.adminKey, 'GET', '/api/v2/admin/audit?Action=settings.update&Limit=1')).json().data[0];
    expect(entry).toMatchObject({
      Resource: { Type: 'operator', ID: String(op.operatorId) },
      Before: { ShopName: null, BrandColour: null },
      After: { ShopName: 'Lake Kayaks', BrandColour: '#0b5cad' },
    });

    expect((await patch({ BrandColour: '#09c' })).statusCode).toBe(422); // light blue under white text: too faint
    expect((await patch({ BrandColour: '#036' })).json().data.BrandColour).toBe('#003366');
    expect((await patch({ ShopName: '' })).json().data).toMatchObject({ ShopName: null, DisplayName: "Müller's Kayak Tours" });
    expect((await patch({ AllowedEmbedOrigins: [] })).json().data.AllowedEmbedOrigins).toEqual([]);
    expect((await patch({ BrandColour: null })).json().data.BrandColour).toBeNull();
  });

  it('refuses unreadable colours and bad origins with 422 naming the field, writing nothing', async () => {
    const before = (await get()).json().data;
    const cases: [unknown, string][] = [
      [{ BrandColour: '#ffff00' }, 'BrandColour'],
      [{ BrandColour: 'blue' }, 'BrandColour'],
      [{ BrandColour: '#12345g' }, 'BrandColour'],
      [{ AllowedEmbedOrigins: ['http://www.example.com'] }, 'AllowedEmbedOrigins[0]'],
      [{ AllowedEmbedOrigins: ['https://ok.example', 'https://www.example.com/shop'] }, 'AllowedEmbedOrigins[1]'],
      [{ AllowedEmbedOrigins: ['javascript:alert(1)'] }, 'AllowedEmbedOrigins[0]'],
      [{ AllowedEmbedOrigins: ['not a url'] }, 'AllowedEmbedOrigins[0]'],
      [{ AllowedEmbedOrigins: ['https://user:pw@example.com'] }, 'AllowedEmbedOrigins[0]'],
      [{ AllowedEmbedOrigins: ['https://intranet'] }, 'AllowedEmbedOrigins[0]'],
      [{ AllowedEmbedOrigins: ["https://example.com 'unsafe-inline'"] }, 'AllowedEmbedOrigins[0]'],
      [{ ShopName: 'Good', BrandColour: '#eeeeee' }, 'BrandColour'],
    ];
    for (const [body, field] of cases) {
      const problem = problemOf(await patch(body), 422, 'validation');
      expect(problem.errors?.[0]?.field, JSON.stringify(body)).toBe(field);
    }
    problemOf(await patch({ AllowedEmbedOrigins: Array.from({ length: 21 }, (_, i) => `https://s${i}.example.com`) }), 422, 'validation');
    problemOf(await patch({ Slug: 'Not A Slug' }), 422, 'validation');
    problemOf(await patch({ ContactEmail: 'nope' }), 422, 'validation');
    problemOf(await patch({ Unknown: 1 }), 422, 'validation');
    problemOf(await patch({ Slug: '2024' }), 422, 'validation');
    expect((await get()).json().data).toEqual(before);
  });

  it('is documented in /openapi.json: the three routes, the change body and the 409', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(spec.paths['/api/v2/admin/settings'])).toEqual(expect.arrayContaining(['get', 'patch']));
    expect(Object.keys(spec.paths['/api/v2/admin/settings/logo'])).toEqual(expect.arrayContaining(['put', 'delete']));
    const change = spec.paths['/api/v2/admin/settings'].patch;
    expect(Object.keys(change.requestBody.content['application/json'].schema.properties)).toEqual([
      'ShopName',
      'Slug',
      'ContactEmail',
      'BrandColour',
      'TermsUrl',
      'PrivacyUrl',
      'AllowedEmbedOrigins',
    ]);
    expect(Object.keys(change.responses)).toEqual(expect.arrayContaining(['200', '409', '422']));
  });

  it('WCAG contrast: white on black is 21:1, on white 1:1; #767676 is the lightest AA grey', () => {
    expect(contrastWithWhite('#000000')).toBeCloseTo(21, 5);
    expect(contrastWithWhite('#ffffff')).toBeCloseTo(1, 5);
    expect(normaliseBrandColour('#767676')).toBe('#767676');
    expect(() => normaliseBrandColour('#777777')).toThrow(/contrast/);
  });

  it('shares the contact e-mail with the webhook settings: one column, both ways', async () => {
    expect((await patch({ ContactEmail: 'ops@example.com' })).json().data.ContactEmail).toBe('ops@example.com');
    expect((await call(t.app, op.adminKey, 'GET', '/api/v2/admin/webhooks/settings')).json().data.ContactEmail).toBe('ops@example.com');
    await call(t.app, op.adminKey, 'PATCH', '/api/v2/admin/webhooks/settings', { ContactEmail: 'hooks@example.com' });
    expect((await get()).json().data.ContactEmail).toBe('hooks@example.com');
    expect((await patch({ ContactEmail: null })).json().data.ContactEmail).toBeNull();
  });

  it('changes the slug: unique (409 naming Slug), and the old one is remembered for a redirect until someone takes it', async () => {
    const taken = problemOf(await patch({ Slug: 'other-adventures' }), 409, 'conflict');
    expect(taken.errors).toEqual([{ field: 'Slug', message: expect.stringContaining('taken') }]);

    const changed = (await patch({ Slug: 'lake-kayaks' })).json().data;
    expect(changed).toMatchObject({ Slug: 'lake-kayaks', BookingPageUrl: `${PUBLIC_URL}/book/lake-kayaks` });
    expect(changed.EmbedSnippet).toContain('data-operator="lake-kayaks"');
    expect(await formerSlugHolder(t.db.kysely, 'mullers-kayak-tours')).toBe(op.operatorId);
    // Sending the slug it already has changes nothing and is not a conflict.
    expect((await patch({ Slug: 'lake-kayaks' })).statusCode).toBe(200);

    // Another operator may take the old slug; then it is theirs and no longer redirects.
    expect((await patch({ Slug: 'mullers-kayak-tours' }, other.adminKey)).statusCode).toBe(200);
    expect(await formerSlugHolder(t.db.kysely, 'mullers-kayak-tours')).toBeUndefined();
    expect(await formerSlugHolder(t.db.kysely, 'other-adventures')).toBe(other.operatorId);
    // And the first operator may take back a slug of its own past.
    expect((await patch({ Slug: 'other-adventures' })).statusCode).toBe(200);
    expect(await formerSlugHolder(t.db.kysely, 'other-adventures')).toBeUndefined();
    expect(await formerSlugHolder(t.db.kysely, 'lake-kayaks')).toBe(op.operatorId);
  });

  it('two operators racing for one slug: exactly one gets it, the other 409', async () => {
    const [a, b] = await Promise.all([patch({ Slug: 'race-slug' }), patch({ Slug: 'race-slug' }, other.adminKey)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
  });

  it("is the operator's own: another operator's key changes its own settings only", async () => {
    await patch({ ShopName: 'Mine' });
    expect((await get(other.adminKey)).json().data.ShopName).toBeNull();
  });

  it('needs settings:manage: a front-desk user is refused, a manager may', async () => {
    const desk = await signIn(t, (await addUser(t, op.operatorId, 'front-desk')).email);
    problemOf(await as(t, desk, 'GET', SETTINGS), 403, 'forbidden');
    problemOf(await as(t, desk, 'PATCH', SETTINGS, { ShopName: 'x' }), 403, 'forbidden');
    problemOf(await call(t.app, undefined, 'GET', SETTINGS), 401, 'unauthenticated');
    problemOf(await call(t.app, op.otaKey, 'GET', SETTINGS), 403, 'forbidden');
    const manager = await signIn(t, (await addUser(t, op.operatorId, 'manager')).email);
    expect((await as(t, manager, 'PATCH', SETTINGS, { ShopName: 'By the manager' })).statusCode).toBe(200);
  });
});

describe('logo', () => {
  it('takes PNG, JPEG and WebP by their bytes and serves the newest publicly, cached for a year, nosniff', async () => {
    for (const [bytes, type, ext] of [
      [JPEG, 'image/jpeg', 'jpg'],
      [WEBP, 'image/webp', 'webp'],
      [PNG, 'application/octet-stream', 'png'],
    ] as const) {
      const response = await upload(bytes, type);
      expect(response.statusCode, response.body).toBe(200);
      const url: string = response.json().data.LogoUrl;
      expect(url).toMatch(new RegExp(`^${PUBLIC_URL}/branding/${op.operatorId}/logo-[A-Za-z0-9_-]{22}\\.${ext}$`));
      const served = await t.app.inject({ method: 'GET', url: url.slice(PUBLIC_URL.length) });
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals(bytes)).toBe(true);
      expect(served.headers['content-type']).toBe(ext === 'jpg' ? 'image/jpeg' : `image/${ext}`);
      expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(served.headers['content-security-policy']).toContain("default-src 'none'");
    }
    const current = (await get()).json().data.LogoUrl as string;
    const entry = (await call(t.app, op.adminKey, 'GET', '/api/v2/admin/audit?Action=settings.logo-update&Limit=1')).json().data[0];
    expect(entry.After).toMatchObject({ LogoUrl: current, ContentType: 'image/png' });
    expect((await shopProfile(t.db.kysely, op.operatorId, PUBLIC_URL))?.logoUrl).toBe(current);
    // An old address (another digest), another operator's path, a bad file name: 404.
    problemOf(await t.app.inject({ method: 'GET', url: `/branding/${op.operatorId}/logo-${'A'.repeat(22)}.png` }), 404, 'not-found');
    problemOf(
      await t.app.inject({ method: 'GET', url: current.slice(PUBLIC_URL.length).replace(`/${op.operatorId}/`, `/${other.operatorId}/`) }),
      404,
      'not-found',
    );
    expect((await t.app.inject({ method: 'GET', url: `/branding/${op.operatorId}/logo.svg` })).statusCode).toBe(400);
  });

  it('refuses SVG (even sent as PNG), HTML, PDF, empty and oversized bodies; the logo stays', async () => {
    const before = (await get()).json().data.LogoUrl;
    const svg = '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    expect(problemOf(await upload(svg, 'image/svg+xml'), 415, 'unsupported-media-type').detail).toMatch(/SVG/);
    expect(problemOf(await upload(svg, 'image/png'), 415, 'unsupported-media-type').detail).toMatch(/SVG/);
    problemOf(await upload('<html><script>alert(1)</script></html>', 'image/png'), 415, 'unsupported-media-type');
    problemOf(await upload(PDF, 'application/pdf'), 415, 'unsupported-media-type');
    problemOf(await upload(Buffer.alloc(0)), 415, 'unsupported-media-type');
    problemOf(await upload(pngOfSize(512 * 1024 + 1)), 413, 'payload-too-large');
    expect((await upload(pngOfSize(512 * 1024))).statusCode).toBe(200);
    expect((await get()).json().data.LogoUrl).not.toBe(before);
  });

  it('is removed with DELETE (audited), after which its address is 404', async () => {
    const url = (await get()).json().data.LogoUrl as string;
    const removed = await call(t.app, op.adminKey, 'DELETE', LOGO);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().data.LogoUrl).toBeNull();
    problemOf(await t.app.inject({ method: 'GET', url: url.slice(PUBLIC_URL.length) }), 404, 'not-found');
    expect((await call(t.app, op.adminKey, 'GET', '/api/v2/admin/audit?Action=settings.logo-delete&Limit=1')).json().data[0].Before.LogoUrl).toBe(
      url,
    );
  });

  it('needs settings:manage to upload (a front-desk user: 403) and a CSRF token from a browser', async () => {
    const desk = await signIn(t, (await addUser(t, op.operatorId, 'front-desk')).email);
    problemOf(await as(t, desk, 'PUT', LOGO, PNG, { 'content-type': 'image/png' }), 403, 'forbidden');
    const owner = await signIn(t, (await addUser(t, op.operatorId, 'owner')).email);
    const noCsrf = await t.app.inject({
      method: 'PUT',
      url: LOGO,
      headers: { cookie: owner.cookie, origin: PUBLIC_URL, 'content-type': 'image/png' },
      payload: PNG,
    });
    expect(noCsrf.statusCode).toBe(403);
    expect((await as(t, owner, 'PUT', LOGO, PNG, { 'content-type': 'image/png' })).statusCode).toBe(200);
  });
});
