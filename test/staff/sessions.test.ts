// Sessions in cookies: their attributes, CSRF on every change, listing and revoking (refused at once),
// role changes and removals taking effect on the next request, and keys and sessions kept apart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, PUBLIC_URL, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { addUser, as, post, sessionCookie, signIn, userSession, type Session } from './fixtures.js';

let t: TestApp;
let op: TestOperator;
const activity = { Name: 'Kayak', DurationMinutes: 60, Timezone: 'Europe/Berlin', Currency: 'EUR', UnitPrice: 1000 };

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
});
afterAll(() => t.close());

describe('sessions', () => {
  it('sets an HttpOnly, SameSite=Strict cookie; /me tells the user, role, permissions and CSRF token', async () => {
    const user = await addUser(t, op.operatorId, 'manager');
    const response = await post(t, '/api/v2/staff/sign-in', { Email: user.email.toUpperCase(), Password: user.password });
    expect(response.statusCode, response.body).toBe(200);
    const cookie = [response.headers['set-cookie']].flat()[0]!;
    expect(cookie).toMatch(/^slotbook_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/); // PUBLIC_URL is http in the tests
    const session: Session = { cookie: sessionCookie(response), csrf: response.json().data.Me.CsrfToken, userId: user.id };
    const me = await t.app.inject({ method: 'GET', url: '/api/v2/staff/me', headers: { cookie: session.cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json().data).toMatchObject({
      User: { Email: user.email, Role: 'manager', Status: 'active', TwoFactor: false },
      Operator: { ID: op.operatorId },
      CsrfToken: session.csrf,
    });
    expect(me.json().data.Permissions).toContain('activities:write');
    expect(me.json().data.Permissions).not.toContain('users:manage');
  });

  it('is Secure with the __Host- prefix when PUBLIC_URL is https', async () => {
    const secure = await createTestApp({ PUBLIC_URL: 'https://slotbook.example' });
    try {
      const operator = await secure.newOperator();
      const user = await addUser(secure, operator.operatorId, 'owner');
      const response = await secure.app.inject({
        method: 'POST',
        url: '/api/v2/staff/sign-in',
        payload: { Email: user.email, Password: user.password },
      });
      const cookie = [response.headers['set-cookie']].flat()[0]!;
      expect(cookie).toMatch(/^__Host-slotbook_session=/);
      expect(cookie).toMatch(/Secure/);
    } finally {
      await secure.close();
    }
  });

  it('refuses a change made with the cookie but without the CSRF token, with a wrong one, or from another site', async () => {
    const session = await userSession(t, op.operatorId, 'manager');
    const url = '/api/v2/admin/activities';
    problemOf(
      await t.app.inject({ method: 'POST', url, payload: activity, headers: { cookie: session.cookie, origin: PUBLIC_URL } }),
      403,
      'forbidden',
    );
    problemOf(await as(t, session, 'POST', url, activity, { 'x-csrf-token': 'x'.repeat(64) }), 403, 'forbidden');
    problemOf(await as(t, session, 'POST', url, activity, { origin: 'https://evil.example' }), 403, 'forbidden');
    // Reads need no token; the right token from this site changes.
    expect((await t.app.inject({ method: 'GET', url, headers: { cookie: session.cookie } })).statusCode).toBe(200);
    expect((await as(t, session, 'POST', url, activity)).statusCode).toBe(201);
    // Another session's token is not this one's.
    const other = await userSession(t, op.operatorId, 'manager');
    problemOf(await as(t, session, 'POST', url, activity, { 'x-csrf-token': other.csrf }), 403, 'forbidden');
    // Signing in from another site's page is refused as well (login CSRF).
    problemOf(
      await post(t, '/api/v2/staff/sign-in', { Email: 'a@example.com', Password: 'x' }, { origin: 'https://evil.example' }),
      403,
      'forbidden',
    );
    // A bearer key needs no CSRF token (browsers never add it by themselves).
    expect((await call(t.app, op.adminKey, 'POST', url, activity)).statusCode).toBe(201);
  });

  it('lists my sessions and revokes one: it is refused at once; signing out ends this one', async () => {
    const user = await addUser(t, op.operatorId, 'front-desk');
    const phone = await signIn(t, user.email);
    const desk = await signIn(t, user.email);
    const list = await as(t, desk, 'GET', '/api/v2/staff/sessions');
    expect(list.json().data).toHaveLength(2);
    const phoneId = list.json().data.find((s: { Current: boolean }) => !s.Current).ID;
    expect((await as(t, desk, 'DELETE', `/api/v2/staff/sessions/${phoneId}`)).statusCode).toBe(204);
    problemOf(await as(t, phone, 'GET', '/api/v2/admin/bookings'), 401, 'unauthenticated');
    expect((await as(t, desk, 'GET', '/api/v2/admin/bookings')).statusCode).toBe(200);
    problemOf(await as(t, desk, 'DELETE', `/api/v2/staff/sessions/${phoneId}`), 404, 'not-found');

    const signOut = await as(t, desk, 'POST', '/api/v2/staff/sign-out');
    expect(signOut.statusCode).toBe(204);
    expect([signOut.headers['set-cookie']].flat()[0]).toMatch(/Max-Age=0/);
    problemOf(await as(t, desk, 'GET', '/api/v2/staff/me'), 401, 'unauthenticated');
  });

  it("an owner lists and ends another user's sessions; a role change and a removal apply on the next request", async () => {
    const owner = await userSession(t, op.operatorId, 'owner');
    const guide = await addUser(t, op.operatorId, 'guide');
    const guideSession = await signIn(t, guide.email);
    problemOf(await as(t, guideSession, 'GET', '/api/v2/admin/bookings'), 403, 'forbidden');
    expect((await as(t, owner, 'PATCH', `/api/v2/admin/users/${guide.id}`, { Role: 'front-desk' })).statusCode).toBe(200);
    expect((await as(t, guideSession, 'GET', '/api/v2/admin/bookings')).statusCode).toBe(200);

    const sessions = await as(t, owner, 'GET', `/api/v2/admin/users/${guide.id}/sessions`);
    expect(sessions.json().data).toHaveLength(1);
    expect((await as(t, owner, 'DELETE', `/api/v2/admin/users/${guide.id}/sessions/${sessions.json().data[0].ID}`)).statusCode).toBe(204);
    problemOf(await as(t, guideSession, 'GET', '/api/v2/admin/bookings'), 401, 'unauthenticated');

    const again = await signIn(t, guide.email);
    expect((await as(t, owner, 'DELETE', `/api/v2/admin/users/${guide.id}`)).statusCode).toBe(204);
    problemOf(await as(t, again, 'GET', '/api/v2/staff/me'), 401, 'unauthenticated');
    problemOf(await post(t, '/api/v2/staff/sign-in', { Email: guide.email, Password: guide.password }), 401, 'unauthenticated');
  });

  it('keeps an owner: the only one cannot be demoted or removed', async () => {
    const solo = await t.newOperator();
    const owner = await addUser(t, solo.operatorId, 'owner');
    const session = await signIn(t, owner.email);
    problemOf(await as(t, session, 'PATCH', `/api/v2/admin/users/${owner.id}`, { Role: 'manager' }), 409, 'conflict');
    problemOf(await as(t, session, 'DELETE', `/api/v2/admin/users/${owner.id}`), 409, 'conflict');
  });

  it("keeps operators apart: another operator's user is a 404", async () => {
    const other = await t.newOperator();
    const stranger = await addUser(t, other.operatorId, 'guide');
    const owner = await userSession(t, op.operatorId, 'owner');
    problemOf(await as(t, owner, 'PATCH', `/api/v2/admin/users/${stranger.id}`, { Role: 'owner' }), 404, 'not-found');
    problemOf(await as(t, owner, 'DELETE', `/api/v2/admin/users/${stranger.id}/sessions`), 404, 'not-found');
    expect((await as(t, owner, 'GET', '/api/v2/admin/users')).json().data.map((u: { Email: string }) => u.Email)).not.toContain(stranger.email);
  });

  it('keeps keys and sessions apart: keys have no /me, sessions do not open the partner or usage-recording API', async () => {
    problemOf(await call(t.app, op.adminKey, 'GET', '/api/v2/staff/me'), 403, 'forbidden');
    problemOf(await t.app.inject({ method: 'GET', url: '/api/v2/staff/me' }), 401, 'unauthenticated');
    problemOf(
      await t.app.inject({ method: 'GET', url: '/api/v2/admin/bookings', headers: { cookie: 'slotbook_session=forged' } }),
      401,
      'unauthenticated',
    );
    // A bearer key wins over a cookie: a revoked key is refused even with a live session beside it.
    const session = await userSession(t, op.operatorId, 'owner');
    problemOf(
      await t.app.inject({ method: 'GET', url: '/api/v2/admin/bookings', headers: { cookie: session.cookie, authorization: 'Bearer sbk_nope' } }),
      401,
      'unauthenticated',
    );
  });
});
