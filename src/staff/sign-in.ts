// Signing in: by password or by a one-time e-mailed link, then (when the user has it on) a TOTP code.
//
// - Nothing tells whether an address has an account: a wrong address and a wrong password get the same
//   401 after the same scrypt work; link and reset requests always answer 202.
// - Lock-out per account: 5 wrong passwords or codes in a row lock it for 15 minutes (its owner is told by
//   e-mail). A locked account answers like a wrong password.
// - Per client address: 20 failures in 15 minutes, then 429 until the window passes, checked before any
//   hashing; e-mail requests: 10 an hour per address (429), 3 an hour per e-mail address (quietly dropped).
// Counters live in the database, so they hold across processes.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Tx } from '../db/connection.js';
import { DomainError, Unauthenticated } from '../http/errors.js';
import { audit, type AuditActor } from '../audit/log.js';
import { queueStaffEmail, linkFor } from './emails.js';
import { checkNewPassword, needsRehash, spendDecoyHash, hashPassword, verifyPassword } from './passwords.js';
import { matchTotp, useRecoveryCode } from './totp.js';
import { startSession } from './sessions.js';
import { countEvent, eventCount, findUsersByEmail, insertToken, peekToken, updateUser, useToken, type UserRow } from './store.js';
import { normaliseEmail, toStaffUser } from './view.js';
import { ROLE_PERMISSIONS } from '../access/permissions.js';

export const MAX_FAILED_ATTEMPTS = 5;
export const LOCK_MS = 15 * 60 * 1000;
export const ADDRESS_FAILURES = { limit: 20, windowMs: 15 * 60 * 1000 };
export const ADDRESS_EMAILS = { limit: 10, windowMs: 60 * 60 * 1000 };
export const ACCOUNT_EMAILS = { limit: 3, windowMs: 60 * 60 * 1000 };
const TTL = { 'sign-in-link': 15 * 60 * 1000, 'password-reset': 60 * 60 * 1000, 'totp-challenge': 5 * 60 * 1000 };

const WRONG = 'The e-mail address or password is not right. After 5 wrong tries in a row an account is locked for 15 minutes.';

export class TooManyAttempts extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super('rate-limited', `Too many failed sign-in attempts from your address; try again in ${Math.ceil(retryAfterSeconds / 60)} minutes`);
  }
}

const userActor = (user: UserRow): AuditActor => ({ type: 'user', id: user.id, label: user.email });
const ANONYMOUS: AuditActor = { type: 'anonymous', id: null, label: 'anonymous' };
const isLocked = (user: UserRow, now: number) => user.locked_until !== null && Number(user.locked_until) > now;

async function checkAddress(request: FastifyRequest, kind: 'failures' | 'emails'): Promise<void> {
  const limits = kind === 'failures' ? ADDRESS_FAILURES : ADDRESS_EMAILS;
  if ((await eventCount(request.server.db.kysely, `${kind}:${request.ip}`, limits.windowMs)) >= limits.limit) {
    throw new TooManyAttempts(limits.windowMs / 1000);
  }
}

/** A wrong password or code for these accounts: counts towards their lock-out and the address's limit. */
async function recordFailure(request: FastifyRequest, users: UserRow[], action: string): Promise<void> {
  const app = request.server;
  await app.db.write(async (tx) => {
    await countEvent(tx, `failures:${request.ip}`, ADDRESS_FAILURES.windowMs);
    for (const user of users) {
      const failed = user.failed_attempts + 1;
      const locks = failed >= MAX_FAILED_ATTEMPTS;
      await updateUser(tx, user.id, locks ? { failed_attempts: 0, locked_until: Date.now() + LOCK_MS } : { failed_attempts: failed });
      await audit(tx, { operatorId: user.operator_id, action, resource: { type: 'user', id: user.id } }, ANONYMOUS);
      if (locks) {
        await audit(tx, { operatorId: user.operator_id, action: 'user.lock', resource: { type: 'user', id: user.id }, after: { LockedForMinutes: LOCK_MS / 60_000 } }, ANONYMOUS);
        await queueStaffEmail(tx, app, user, 'locked');
      }
    }
  });
}

async function operatorNames(request: FastifyRequest, ids: number[]): Promise<Map<number, string>> {
  const rows = await request.server.db.kysely.selectFrom('operators').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** The answer that starts a session, for the transaction that signs the user in. */
async function signInAnswer(tx: Tx, request: FastifyRequest, reply: FastifyReply, user: UserRow, how: string) {
  const { sessionId, csrfToken } = await startSession(tx, request, reply, user);
  await audit(tx, { operatorId: user.operator_id, action: 'session.sign-in', resource: { type: 'session', id: sessionId }, after: { Method: how } }, userActor(user));
  const operator = await tx.selectFrom('operators').select(['id', 'name']).where('id', '=', user.operator_id).executeTakeFirstOrThrow();
  return {
    Status: 'signed-in' as const,
    Me: { User: toStaffUser(user), Operator: { ID: operator.id, Name: operator.name }, Permissions: [...ROLE_PERMISSIONS[user.role]], CsrfToken: csrfToken },
  };
}

/** After a first factor (password, link, reset, invitation): a session, or the TOTP step when the user has it on. */
async function afterFirstFactor(tx: Tx, request: FastifyRequest, reply: FastifyReply, user: UserRow, how: string) {
  if (user.totp_secret !== null) return { Status: 'totp-required' as const, Challenge: await insertToken(tx, user, 'totp-challenge', TTL['totp-challenge']) };
  return signInAnswer(tx, request, reply, user, how);
}

export async function signInWithPassword(request: FastifyRequest, reply: FastifyReply, body: { Email: string; Password: string; OperatorID?: number }) {
  const app = request.server;
  await checkAddress(request, 'failures');
  const now = Date.now();
  const candidates = (await findUsersByEmail(app.db.kysely, normaliseEmail(body.Email))).filter(
    (user) => user.status === 'active' && user.password_hash !== null && (body.OperatorID === undefined || user.operator_id === body.OperatorID),
  );
  if (candidates.length === 0) {
    await spendDecoyHash(body.Password);
    await recordFailure(request, [], 'session.sign-in-failed');
    throw new Unauthenticated(WRONG);
  }
  const matching: UserRow[] = [];
  for (const user of candidates) if ((await verifyPassword(body.Password, user.password_hash!)) && !isLocked(user, now)) matching.push(user);
  if (matching.length === 0) {
    await recordFailure(request, candidates.filter((user) => !isLocked(user, now)), 'session.sign-in-failed');
    throw new Unauthenticated(WRONG);
  }
  if (matching.length > 1) {
    const names = await operatorNames(request, matching.map((user) => user.operator_id));
    return { Status: 'choose-operator' as const, Operators: matching.map((user) => ({ OperatorID: user.operator_id, Name: names.get(user.operator_id) ?? '' })) };
  }
  const user = matching[0]!;
  const rehashed = needsRehash(user.password_hash!) ? await hashPassword(body.Password) : undefined;
  return app.db.write(async (tx) => {
    const fresh = await updateUser(tx, user.id, { failed_attempts: 0, locked_until: null, ...(rehashed && { password_hash: rehashed }) });
    return afterFirstFactor(tx, request, reply, fresh, 'password');
  });
}

export async function signInWithTotp(request: FastifyRequest, reply: FastifyReply, body: { Challenge: string; Code?: string; RecoveryCode?: string }) {
  const app = request.server;
  await checkAddress(request, 'failures');
  const invalid = () => new Unauthenticated('This sign-in has expired or is not valid any more: start again with your password or a new link');
  const challenge = await peekToken(app.db.kysely, body.Challenge, 'totp-challenge');
  const user = challenge && (await app.db.kysely.selectFrom('staff_users').selectAll().where('id', '=', challenge.user_id).where('status', '=', 'active').executeTakeFirst());
  if (!challenge || !user || user.totp_secret === null || isLocked(user, Date.now())) throw invalid();
  const step = body.Code === undefined ? undefined : matchTotp(app.instanceKeys, user.totp_secret, body.Code, user.totp_last_step === null ? null : Number(user.totp_last_step));
  const remainingCodes = step === undefined && body.RecoveryCode !== undefined ? useRecoveryCode(user, body.RecoveryCode) : undefined;
  if (step === undefined && remainingCodes === undefined) {
    await recordFailure(request, [user], 'session.totp-failed');
    throw new Unauthenticated('The code is not right (or was used already). After 5 wrong tries in a row the account is locked for 15 minutes.');
  }
  return app.db.write(async (tx) => {
    if (!(await useToken(tx, body.Challenge, 'totp-challenge'))) throw invalid();
    // Conditional on the step, so that two requests with the same code cannot both pass.
    const updated = await tx
      .updateTable('staff_users')
      .set({ failed_attempts: 0, ...(step !== undefined ? { totp_last_step: step } : { recovery_codes: remainingCodes! }), updated_at: Date.now() })
      .where('id', '=', user.id)
      .where((eb) => (step !== undefined ? eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]) : eb('recovery_codes', '=', user.recovery_codes)))
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw invalid();
    if (remainingCodes !== undefined) {
      await audit(tx, { operatorId: user.operator_id, action: 'user.recovery-code-use', resource: { type: 'user', id: user.id }, after: { RecoveryCodesLeft: (JSON.parse(remainingCodes) as string[]).length } }, userActor(user));
    }
    return signInAnswer(tx, request, reply, updated, remainingCodes !== undefined ? 'recovery-code' : 'totp');
  });
}

/**
 * Queues a one-time link (sign-in or password reset) to every account with this address. Always the same
 * answer for the caller; an address that asked too often this hour gets nothing more.
 */
export async function sendLinks(request: FastifyRequest, email: string, purpose: 'sign-in-link' | 'password-reset'): Promise<void> {
  const app = request.server;
  await checkAddress(request, 'emails');
  const address = normaliseEmail(email);
  const users = (await findUsersByEmail(app.db.kysely, address)).filter((user) => user.status === 'active');
  await app.db.write(async (tx) => {
    await countEvent(tx, `emails:${request.ip}`, ADDRESS_EMAILS.windowMs);
    if (users.length === 0 || (await countEvent(tx, `account-emails:${address}`, ACCOUNT_EMAILS.windowMs)) > ACCOUNT_EMAILS.limit) return;
    for (const user of users) {
      const token = await insertToken(tx, user, purpose, TTL[purpose]);
      await queueStaffEmail(tx, app, user, purpose, linkFor(app, purpose, token));
      await audit(tx, { operatorId: user.operator_id, action: purpose === 'sign-in-link' ? 'session.link-request' : 'user.password-reset-request', resource: { type: 'user', id: user.id } }, ANONYMOUS);
    }
  });
}

const badLink = () => new Unauthenticated('This link is not valid: it was used already, has expired, or was replaced by a newer one. Ask for a new one.');

async function activeUser(tx: Tx, id: number): Promise<UserRow | undefined> {
  return tx.selectFrom('staff_users').selectAll().where('id', '=', id).where('status', '<>', 'removed').executeTakeFirst();
}

export async function signInWithLink(request: FastifyRequest, reply: FastifyReply, token: string) {
  return request.server.db.write(async (tx) => {
    const used = await useToken(tx, token, 'sign-in-link');
    const user = used && (await activeUser(tx, used.user_id));
    if (!user || user.status !== 'active') throw badLink();
    return afterFirstFactor(tx, request, reply, user, 'e-mail link');
  });
}

/** A new password from a reset link: every session of the user ends, and the lock-out is lifted. */
export async function completeReset(request: FastifyRequest, reply: FastifyReply, token: string, password: string) {
  checkNewPassword(password);
  const hash = await hashPassword(password);
  return request.server.db.write(async (tx) => {
    const used = await useToken(tx, token, 'password-reset');
    const user = used && (await activeUser(tx, used.user_id));
    if (!user || user.status !== 'active') throw badLink();
    await tx.updateTable('staff_sessions').set({ revoked_at: Date.now() }).where('user_id', '=', user.id).where('revoked_at', 'is', null).execute();
    const updated = await updateUser(tx, user.id, { password_hash: hash, failed_attempts: 0, locked_until: null });
    await audit(tx, { operatorId: user.operator_id, action: 'user.password-reset', resource: { type: 'user', id: user.id } }, userActor(user));
    return afterFirstFactor(tx, request, reply, updated, 'password reset');
  });
}

/** Accepting an invitation (or the owner's first link from `slotbook operator create`): password, then signed in. */
export async function acceptInvitation(request: FastifyRequest, reply: FastifyReply, body: { Token: string; Password: string; Name?: string }) {
  checkNewPassword(body.Password);
  const hash = await hashPassword(body.Password);
  return request.server.db.write(async (tx) => {
    const used = await useToken(tx, body.Token, 'invitation');
    const user = used && (await activeUser(tx, used.user_id));
    if (!user || user.status !== 'invited') throw badLink();
    const updated = await updateUser(tx, user.id, { status: 'active', password_hash: hash, ...(body.Name && { name: body.Name.trim() }) });
    await audit(tx, { operatorId: user.operator_id, action: 'user.invitation-accept', resource: { type: 'user', id: user.id }, before: toStaffUser(user), after: toStaffUser(updated) }, userActor(user));
    return afterFirstFactor(tx, request, reply, updated, 'invitation');
  });
}
