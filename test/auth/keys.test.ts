// The operator's API keys: create (secret shown once), list, revoke; scopes and marketplaces.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;
const create = (body: unknown, key = op.adminKey) => call(t.app, key, 'POST', '/api/v2/admin/keys', body);

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  other = await t.newOperator();
});
afterAll(() => t.close());

describe('API keys', () => {
  it("creates a key whose secret is shown once and never listed, and marks the caller's own key", async () => {
    const created = await create({ Name: 'GetYourGuide', Scopes: ['ota'], Partner: 'getyourguide' });
    expect(created.statusCode).toBe(201);
    const data = created.json().data;
    expect(data).toEqual({
      ID: expect.any(Number),
      Key: expect.stringMatching(/^sbk_[A-Za-z0-9_-]{16}_[A-Za-z0-9_-]{43}$/),
      Name: 'GetYourGuide',
      Scopes: ['ota'],
      Partner: 'getyourguide',
    });
    const list = await call(t.app, op.adminKey, 'GET', '/api/v2/admin/keys');
    expect(list.body).not.toContain(data.Key);
    expect(list.body).not.toContain(data.Key.slice(-43)); // the secret part
    const keys = list.json().data as { ID: number; Name: string; Current: boolean; RevokedAt: string | null }[];
    expect(keys.map((k) => k.Name)).toEqual(['Admin key', 'OTA', 'Usage', 'GetYourGuide']);
    expect(keys.filter((k) => k.Current).map((k) => k.Name)).toEqual(['Admin key']);
    const products = await call(t.app, data.Key, 'GET', '/api/v2/ota/getyourguide/products');
    expect(products.statusCode).toBe(200);
  });

  it('validates scopes and the marketplace (422 naming the field)', async () => {
    const cases: [unknown, string][] = [
      [{ Name: 'x', Scopes: ['ota'] }, 'Partner'],
      [{ Name: 'x', Scopes: ['usage:read'], Partner: 'viator' }, 'Partner'],
      [{ Name: 'x', Scopes: ['ota'], Partner: 'core' }, 'Partner'],
      [{ Name: 'x', Scopes: ['ota'], Partner: 'Not Valid!' }, 'Partner'],
      [{ Name: 'x', Scopes: ['root'] }, 'Scopes[0]'],
      [{ Name: 'x', Scopes: [] }, 'Scopes'],
      [{ Name: '', Scopes: ['admin'] }, 'Name'],
      [{ Scopes: ['admin'] }, 'Name'],
    ];
    for (const [body, field] of cases) {
      const problem = problemOf(await create(body), 422, 'validation');
      expect(
        problem.errors!.map((e) => e.field),
        JSON.stringify(body),
      ).toContain(field);
    }
  });

  it("revokes a key (204, then 401 for it; revoking again is still 204), and 404 for another operator's key", async () => {
    const { ID, Key } = (await create({ Name: 'temp', Scopes: ['usage:read'] })).json().data;
    expect((await call(t.app, Key, 'GET', '/api/v2/usage/meters?from=2026-01-01&to=2026-01-01')).statusCode).toBe(200);
    problemOf(await call(t.app, other.adminKey, 'DELETE', `/api/v2/admin/keys/${ID}`), 404, 'not-found');
    expect((await call(t.app, Key, 'GET', '/api/v2/usage/meters?from=2026-01-01&to=2026-01-01')).statusCode).toBe(200);
    expect((await call(t.app, op.adminKey, 'DELETE', `/api/v2/admin/keys/${ID}`)).statusCode).toBe(204);
    problemOf(await call(t.app, Key, 'GET', '/api/v2/usage/meters?from=2026-01-01&to=2026-01-01'), 401, 'unauthenticated');
    expect((await call(t.app, op.adminKey, 'DELETE', `/api/v2/admin/keys/${ID}`)).statusCode).toBe(204);
    const listed = (await call(t.app, op.adminKey, 'GET', '/api/v2/admin/keys')).json().data.find((k: { ID: number }) => k.ID === ID);
    expect(listed.RevokedAt).toMatch(/^\d{4}-/);
  });

  it('needs the admin scope (403) and a key (401)', async () => {
    problemOf(await call(t.app, op.usageKey, 'GET', '/api/v2/admin/keys'), 403, 'forbidden');
    problemOf(await call(t.app, op.otaKey, 'POST', '/api/v2/admin/keys', { Name: 'x', Scopes: ['admin'] }), 403, 'forbidden');
    problemOf(await call(t.app, undefined, 'GET', '/api/v2/admin/keys'), 401, 'unauthenticated');
  });
});
