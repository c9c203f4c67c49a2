// Known browsers. After a sign-in the browser keeps a cookie that lists the accounts signed in on it (the
// last 10), each signed with the instance key over the browser's own random ID. A client address that must
// wait after many failures (throttles.ts) does not hold up a known browser for those accounts: the people
// of an office keep signing in while someone behind the same address guesses. The accounts' own lock-out
// still applies, and the cookie opens nothing by itself.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { cookieOptions } from '../sessions/service.js';

const MAX_ACCOUNTS = 10;
const MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
const BROWSER_ID = /^[A-Za-z0-9_-]{16}$/;
const ENTRY = /^(\d{1,15})-([0-9a-f]{32})$/;

function cookieName(app: FastifyInstance): string {
  return app.config.publicUrl.startsWith('https:') ? '__Host-slotbook_device' : 'slotbook_device';
}

const signature = (app: FastifyInstance, browserId: string, userId: number) =>
  app.instanceKeys.hmac('staff-device', `${browserId}:${userId}`).slice(0, 32);

/** The browser's ID and the accounts in its cookie whose signatures hold. */
function readCookie(request: FastifyRequest): { browserId: string; accounts: number[] } | undefined {
  const [browserId, ...entries] = (request.cookies[cookieName(request.server)] ?? '').split('.');
  if (browserId === undefined || !BROWSER_ID.test(browserId)) return undefined;
  const accounts = entries.flatMap((entry) => {
    const match = ENTRY.exec(entry);
    if (!match) return [];
    const userId = Number(match[1]);
    return timingSafeEqual(Buffer.from(match[2]!), Buffer.from(signature(request.server, browserId, userId))) ? [userId] : [];
  });
  return { browserId, accounts };
}

/** The accounts this browser signed in to before. */
export function knownAccounts(request: FastifyRequest): number[] {
  return readCookie(request)?.accounts ?? [];
}

/** Puts the account first in the browser's cookie. */
export function rememberBrowser(request: FastifyRequest, reply: FastifyReply, userId: number): void {
  const app = request.server;
  const known = readCookie(request);
  const browserId = known?.browserId ?? randomBytes(12).toString('base64url');
  const accounts = [userId, ...(known?.accounts ?? []).filter((id) => id !== userId)].slice(0, MAX_ACCOUNTS);
  const value = [browserId, ...accounts.map((id) => `${id}-${signature(app, browserId, id)}`)].join('.');
  reply.setCookie(cookieName(app), value, cookieOptions(app, MAX_AGE_SECONDS));
}
