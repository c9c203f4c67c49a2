// The sign-in throttles. Every guess at a password or a code is counted in the database BEFORE the work
// that checks it (scrypt, a TOTP code), each by one atomic statement, so that N parallel guesses count N,
// in one process or several, and no more are ever checked than the limits allow. A guess that turns out
// right is taken back afterwards.
//
// - Per account: 5 wrong passwords or codes in a row (at sign-in, or a signed-in user's current password)
//   lock it for 15 minutes, and its owner is e-mailed; a guess beyond the fifth is refused unchecked. A
//   completed sign-in starts the count afresh; a right password whose sign-in still waits for its TOTP
//   code does not (else each password would buy 4 more codes). Owners can lift a lock.
// - Per client address, over all accounts: 20 failures in 15 minutes are free. Past them the address waits
//   before each further attempt: 15 s after the 20th failure, twice as long after each further one, at most
//   5 minutes (429 with Retry-After), until it has gone 15 minutes without a failure. That slows a guesser
//   to about a dozen tries an hour without shutting out an office behind one address for a quarter of an
//   hour, and a browser that signed in to an account before is not held up for it at all (devices.ts).
// - Made-up e-mailed tokens count as failures of the address too; a real one is never held up.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Tx } from '../../db/connection.js';
import { RetryLater } from '../../http/errors.js';
import { audit, type AuditActor } from '../../audit/log.js';
import { queueStaffEmail, type Mailing } from '../users/emails.js';
import { lockAccount, lockedUntil, reserveAccountAttempt, type UserRow } from '../users/store.js';
import { takeBackoffAttempt, type BackoffPolicy } from './store.js';
import { addMillis, nowMillis } from '../../lib/clock.js';

export const MAX_FAILED_ATTEMPTS = 5;
export const LOCK_MS = 15 * 60 * 1000;
export const ADDRESS_FAILURES: BackoffPolicy = { limit: 20, windowMs: 15 * 60 * 1000, firstWaitMs: 15_000, maxWaitMs: 5 * 60 * 1000 };

const inWords = (ms: number) => (ms < 90_000 ? `${Math.ceil(ms / 1000)} seconds` : `${Math.ceil(ms / 60_000)} minutes`);

export class TooManyAttempts extends RetryLater {
  constructor(message: string, retryAfterMs: number) {
    super('rate-limited', message, retryAfterMs / 1000);
  }
}

/** Counts a failure-to-be of the client's address, answering its throttle's key; 429 (nothing counted) while the address must wait. */
export async function takeAddressAttempt(db: Kysely<Database>, ip: string): Promise<string> {
  const key = `failures:${ip}`;
  const waitMs = await takeBackoffAttempt(db, key, ADDRESS_FAILURES);
  if (waitMs > 0) throw new TooManyAttempts(`Too many failed sign-in attempts from your address; try again in ${inWords(waitMs)}`, waitMs);
  return key;
}

/**
 * Counts a guess at the account's password or code before it is checked: its number in the account's run
 * of failures, or undefined when the account is locked or has its 5 guesses on their way already.
 */
export function reserveGuess(db: Kysely<Database>, user: UserRow): Promise<number | undefined> {
  return reserveAccountAttempt(db, user.id, MAX_FAILED_ATTEMPTS);
}

/** A wrong guess, number `attempt` in a row: audited; the fifth locks the account and e-mails its owner. */
export async function wrongGuess(tx: Tx, app: Mailing, user: UserRow, attempt: number, action: string, actor?: AuditActor): Promise<void> {
  const resource = { type: 'user', id: user.id };
  await audit(tx, { operatorId: user.operator_id, action, resource }, actor);
  if (attempt < MAX_FAILED_ATTEMPTS || !(await lockAccount(tx, user.id, addMillis(nowMillis(), LOCK_MS)))) return;
  await audit(tx, { operatorId: user.operator_id, action: 'user.lock', resource, after: { LockedForMinutes: LOCK_MS / 60_000 } }, actor);
  await queueStaffEmail(tx, app, user, 'locked');
}

/** The 429 for a signed-in user's guess refused unchecked: the account is locked (for how long), or has its guesses on their way. */
export async function refusedGuess(db: Kysely<Database>, userId: number): Promise<TooManyAttempts> {
  const waitMs = Math.max(1000, Number((await lockedUntil(db, userId)) ?? 0) - Date.now());
  return new TooManyAttempts(`Too many wrong passwords or codes in a row: your account is locked; try again in ${inWords(waitMs)}`, waitMs);
}
