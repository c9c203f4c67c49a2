// Staff users and signed-in sessions for tests: users are written straight to the database (with a real
// scrypt hash), sessions come from the real sign-in endpoint, and `as(session)` sends requests the way
// the dashboard does (cookie, X-CSRF-Token, Origin).
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { PUBLIC_URL, type TestApp } from '../helpers/app.js';
import type { StaffRole } from '../../src/db/schema.js';
import { hashPassword } from '../../src/staff/users/passwords.js';
import { insertUser } from '../../src/staff/users/store.js';
import type { RouteInfo } from '../../src/auth/plugin.js';

export const PASSWORD = 'correct horse battery staple';

export interface Session {
  cookie: string;
  csrf: string;
  userId: number;
}

let count = 0;
export async function addUser(t: TestApp, operatorId: number, role: StaffRole, email = `${role}-${++count}@example.com`, password = PASSWORD) {
  const passwordHash = await hashPassword(password);
  const user = await t.db.write((tx) => insertUser(tx, { operatorId, email, name: `${role} ${count}`, role, status: 'active', passwordHash }));
  return { id: user!.id, email, password };
}

/** The session cookie (name=value) of a Set-Cookie answer. */
export function sessionCookie(response: LightMyRequestResponse): string {
  const header = [response.headers['set-cookie']].flat().find((c) => c?.includes('slotbook_session='));
  if (!header) throw new Error(`no session cookie in ${response.statusCode} ${response.body}`);
  return header.split(';')[0]!;
}

export function post(t: TestApp, url: string, body: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url, payload: body as InjectOptions['payload'], headers: { origin: PUBLIC_URL, ...headers } });
}

/** Signs in with a password through the API (no TOTP). */
export async function signIn(t: TestApp, email: string, password = PASSWORD): Promise<Session> {
  const response = await post(t, '/api/v2/staff/sign-in', { Email: email, Password: password });
  expect(response.statusCode, response.body).toBe(200);
  const data = response.json().data;
  expect(data.Status).toBe('signed-in');
  return { cookie: sessionCookie(response), csrf: data.Me.CsrfToken, userId: data.Me.User.ID };
}

export async function userSession(t: TestApp, operatorId: number, role: StaffRole): Promise<Session> {
  const user = await addUser(t, operatorId, role);
  return signIn(t, user.email);
}

/** A request as the dashboard sends it for this session (cookie, CSRF header, same Origin). */
export function as(t: TestApp, session: Session, method: InjectOptions['method'], url: string, body?: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({
    method,
    url,
    headers: { cookie: session.cookie, 'x-csrf-token': session.csrf, origin: PUBLIC_URL, ...headers },
    ...(body !== undefined && { payload: body as InjectOptions['payload'] }),
  });
}

/** The token of the link in a received e-mail. */
export function tokenIn(text: string): string {
  const match = /#token=([A-Za-z0-9_-]+)/.exec(text);
  if (!match) throw new Error(`no link in: ${text}`);
  return match[1]!;
}

/** Operator routes as the router has them (without the HEAD twins of GET routes). */
export function operatorRoutes(table: RouteInfo[]): RouteInfo[] {
  return table.filter((route) => route.url.startsWith('/api/v2/admin/') && route.method !== 'HEAD' && route.method !== 'OPTIONS');
}

export function undeclared(routes: RouteInfo[]): string[] {
  return routes.filter((route) => route.config.permission === undefined).map((route) => `${route.method} ${route.url}`);
}
