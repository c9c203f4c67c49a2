// The roles matrix, generated from the route table: every /api/v2/admin route declares a permission, and
// each role (and an admin key) gets exactly what permissions.ts gives it, else 403 problem+json. A route
// added later is in the table, so it is covered without touching this file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { ADMIN_KEY_PERMISSIONS, ROLE_PERMISSIONS, ROLES } from '../../src/access/permissions.js';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { as, operatorRoutes, undeclared, userSession, type Session } from './fixtures.js';
import type { StaffRole } from '../../src/db/schema.js';

const SAMPLE_PARAMS: Record<string, string> = { ActivityID: 's_abcdefgh', BookingReference: 'BK-ABCDEFGH' };
const pathOf = (url: string) => url.replace(/:(\w+)/g, (_, name: string) => SAMPLE_PARAMS[name] ?? '999999');

let t: TestApp;
let op: TestOperator;
const sessions = {} as Record<StaffRole, Session>;

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  for (const role of ROLES) sessions[role] = await userSession(t, op.operatorId, role);
});
afterAll(() => t.close());

describe('permissions of operator routes', () => {
  it('every /api/v2/admin route declares the permission it needs', () => {
    const routes = operatorRoutes(t.app.routeTable);
    expect(routes.length).toBeGreaterThan(30);
    expect(undeclared(routes)).toEqual([]);
    // The check itself finds a route without one.
    expect(undeclared([...routes, { method: 'POST', url: '/api/v2/admin/new-thing', config: { scope: 'admin' } }])).toEqual([
      'POST /api/v2/admin/new-thing',
    ]);
  });

  it('a route that forgot its permission is for owners (and admin keys) only', async () => {
    const app = await buildApp({ db: t.db, config: t.app.config, logger: false });
    await app.register(async (scope) => {
      scope.post('/api/v2/admin/undeclared', { config: { scope: 'admin' } }, async () => ({ data: 'done' }));
    });
    await app.ready();
    try {
      const send = (session: Session) =>
        app.inject({ method: 'POST', url: '/api/v2/admin/undeclared', headers: { cookie: session.cookie, 'x-csrf-token': session.csrf } });
      expect((await send(sessions.owner)).statusCode).toBe(200);
      expect((await send(sessions.manager)).statusCode).toBe(403);
      expect((await send(sessions.guide)).statusCode).toBe(403);
      expect(
        (await app.inject({ method: 'POST', url: '/api/v2/admin/undeclared', headers: { authorization: `Bearer ${op.adminKey}` } })).statusCode,
      ).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('each role gets each operator route exactly as permissions.ts says: allowed, or 403 problem+json', async () => {
    const routes = operatorRoutes(t.app.routeTable);
    const checked: string[] = [];
    for (const route of routes) {
      const permission = route.config.permission!;
      for (const role of ROLES) {
        const response = await as(
          t,
          sessions[role],
          route.method as 'GET',
          pathOf(route.url),
          route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
        );
        const label = `${role} ${route.method} ${route.url} -> ${response.statusCode}`;
        if (ROLE_PERMISSIONS[role].includes(permission)) {
          expect(response.statusCode, label).not.toBe(403);
          expect(response.statusCode, label).not.toBe(401);
        } else {
          problemOf(response, 403, 'forbidden');
          expect(response.json().detail, label).toContain(permission);
        }
        checked.push(label);
      }
      // An admin key: everything but users.
      const key = await call(
        t.app,
        op.adminKey,
        route.method as 'GET',
        pathOf(route.url),
        route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
      );
      if (ADMIN_KEY_PERMISSIONS.includes(permission)) expect(key.statusCode, `admin key ${route.method} ${route.url}`).not.toBe(403);
      else problemOf(key, 403, 'forbidden');
    }
    expect(checked.length).toBe(routes.length * ROLES.length);
  });

  it('the roles are what the issue asks: guides only check in, front desk has no settings or usage, managers no users or keys', () => {
    expect(ROLE_PERMISSIONS.guide).toEqual(['manifests:today', 'checkin']);
    expect(ROLE_PERMISSIONS['front-desk']).not.toContain('activities:write');
    expect(ROLE_PERMISSIONS['front-desk']).not.toContain('usage:read');
    expect(ROLE_PERMISSIONS['front-desk']).toEqual(expect.arrayContaining(['bookings:write', 'checkin', 'waitlists:write']));
    expect(ROLE_PERMISSIONS.manager).not.toContain('users:manage');
    expect(ROLE_PERMISSIONS.manager).not.toContain('keys:manage');
    expect(ADMIN_KEY_PERMISSIONS).not.toContain('users:manage');
  });

  it('usage is readable by roles with usage:read through the session, not by the front desk', async () => {
    const today = new Date().toISOString().slice(0, 10);
    expect((await as(t, sessions.manager, 'GET', `/api/v2/usage/meters?from=${today}&to=${today}`)).statusCode).toBe(200);
    problemOf(await as(t, sessions['front-desk'], 'GET', `/api/v2/usage/meters?from=${today}&to=${today}`), 403, 'forbidden');
    // Recording usage and the partner API stay for keys.
    problemOf(await as(t, sessions.owner, 'POST', '/api/v2/usage/meters', { Meter: 'x', Usage: 1 }), 401, 'unauthenticated');
    problemOf(await as(t, sessions.owner, 'GET', `/api/v2/ota/${op.partner}/products`), 401, 'unauthenticated');
  });
});
