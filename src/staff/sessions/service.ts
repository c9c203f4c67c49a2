// Browser sessions of staff users: an HttpOnly, SameSite=Strict cookie (Secure, with the __Host- prefix,
// when PUBLIC_URL is https) holding a random token whose SHA-256 is the session's row. Every request reads
// the row, so a revoked session, a removed user or a changed role takes effect at once in every process.
//
// CSRF: a request that changes something with the cookie must carry X-CSRF-Token, the session's token
// (an HMAC of the session, given to the dashboard at sign-in and by GET /api/v2/staff/me), and an Origin,
// if the browser sends one, that is this service's own.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/cookie';
import { Forbidden, Unauthenticated } from '../../http/errors.js';
import type { Tx } from '../../db/connection.js';
import { ROLE_PERMISSIONS } from '../../access/permissions.js';
import type { Actor } from '../../access/actor.js';
import { hashToken, newToken, type UserRow } from '../users/store.js';
import { findLiveSession, insertSession, touchSession } from './store.js';
import { addMillis, earliest, nowMillis } from '../../lib/clock.js';

/** A session ends after this long without a request, and at most this long after sign-in. */
export const IDLE_TIMEOUT_MS = 12 * 60 * 60 * 1000;
export const ABSOLUTE_TIMEOUT_MS = 7 * 24 * 60 * 60 * 1000;
// last_seen_at is written at most once a minute per session, not on every request.
const TOUCH_EVERY_MS = 60_000;

export const CSRF_HEADER = 'x-csrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function cookieName(app: FastifyInstance): string {
  return app.config.publicUrl.startsWith('https:') ? '__Host-slotbook_session' : 'slotbook_session';
}

/** The attributes of the dashboard's cookies (the session's, and the known browser's in devices.ts). */
export function cookieOptions(app: FastifyInstance, maxAgeSeconds: number) {
  return { path: '/', httpOnly: true, sameSite: 'strict' as const, secure: app.config.publicUrl.startsWith('https:'), maxAge: maxAgeSeconds };
}

function setCookie(app: FastifyInstance, reply: FastifyReply, value: string, maxAgeSeconds: number): void {
  reply.setCookie(cookieName(app), value, cookieOptions(app, maxAgeSeconds));
}

export function csrfTokenOf(app: FastifyInstance, tokenHash: string): string {
  return app.instanceKeys.hmac('staff-csrf', tokenHash);
}

/** Starts a session for the user in the transaction that signs them in; sets the cookie; answers the CSRF token. */
export async function startSession(
  tx: Tx,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
): Promise<{ sessionId: number; csrfToken: string }> {
  const app = request.server;
  const token = newToken();
  const tokenHash = hashToken(token);
  const now = nowMillis();
  const session = await insertSession(tx, {
    user,
    tokenHash,
    address: request.ip,
    userAgent: String(request.headers['user-agent'] ?? ''),
    expiresAt: earliest(addMillis(now, IDLE_TIMEOUT_MS), addMillis(now, ABSOLUTE_TIMEOUT_MS)),
  });
  setCookie(app, reply, token, ABSOLUTE_TIMEOUT_MS / 1000);
  return { sessionId: session.id, csrfToken: csrfTokenOf(app, tokenHash) };
}

export function clearSessionCookie(app: FastifyInstance, reply: FastifyReply): void {
  setCookie(app, reply, '', 0);
}

export function sessionToken(request: FastifyRequest): string | undefined {
  const value = request.cookies[cookieName(request.server)];
  return value ? value : undefined;
}

/** The browser sent an Origin (or Referer) of another site: refused for anything that changes state. */
export function foreignOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin ?? request.headers.referer;
  if (origin === undefined) return false;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return true;
  }
  return host !== request.headers.host && host !== new URL(request.server.config.publicUrl).host;
}

/**
 * The signed-in user behind the request's cookie, with the CSRF checks for state-changing methods; throws
 * 401 for no or a dead session, 403 for a failed CSRF check. Keeps the session alive (idle timeout).
 */
export async function authenticateSession(request: FastifyRequest, token: string): Promise<Actor & { kind: 'user'; csrfToken: string }> {
  const app = request.server;
  const tokenHash = hashToken(token);
  const now = nowMillis();
  const session = await findLiveSession(app.db.kysely, tokenHash, now);
  if (!session) throw new Unauthenticated('Your session has ended (signed out, revoked or expired): sign in again');
  const csrfToken = csrfTokenOf(app, tokenHash);
  if (!SAFE_METHODS.has(request.method)) {
    if (foreignOrigin(request)) throw new Forbidden('This request came from another site (Origin); it was refused');
    if (request.headers[CSRF_HEADER] !== csrfToken) {
      throw new Forbidden('A request that changes something needs the X-CSRF-Token header of your session (GET /api/v2/staff/me gives it)');
    }
  }
  if (now - Number(session.last_seen_at) > TOUCH_EVERY_MS) {
    await touchSession(
      app.db.kysely,
      session.session_id,
      now,
      earliest(addMillis(now, IDLE_TIMEOUT_MS), addMillis(session.created_at, ABSOLUTE_TIMEOUT_MS)),
    );
  }
  return {
    kind: 'user',
    operatorId: session.operator_id,
    userId: session.user_id,
    label: session.email,
    role: session.role,
    sessionId: session.session_id,
    permissions: ROLE_PERMISSIONS[session.role],
    csrfToken,
  };
}
