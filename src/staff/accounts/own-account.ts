// Staff accounts, the user's own side: password, two-factor, signing out. Every change writes its audit
// entry in its own transaction.
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/connection.js';
import { Conflict, ValidationFailed } from '../../http/errors.js';
import { audit } from '../../audit/log.js';
import type { Actor } from '../../access/actor.js';
import { operatorName } from '../../operators/service.js';
import { checkNewPassword, hashPassword, verifyPassword } from '../users/passwords.js';
import { matchTotp, newRecoveryCodes, newTotpEnrolment } from '../users/totp.js';
import { refundAccountAttempt, updateUser, type UserRow } from '../users/store.js';
import { revokeSessions } from '../sessions/store.js';
import { refusedGuess, reserveGuess, wrongGuess } from '../sign-in/throttles.js';
import { requireUser } from './service.js';

type User = Actor & { kind: 'user' };

async function me(tx: Db['kysely'], actor: User): Promise<UserRow> {
  return requireUser(tx, actor.operatorId, actor.userId);
}

/**
 * The signed-in user's current password, counted like a sign-in guess before it is hashed (throttles.ts):
 * 5 wrong in a row lock the account (429 meanwhile), so a borrowed session cannot guess it.
 */
async function checkPassword(app: FastifyInstance, user: UserRow, password: string, field: string): Promise<void> {
  const attempt = await reserveGuess(app.db.kysely, user);
  if (attempt === undefined) throw await refusedGuess(app.db.kysely, user.id);
  if (user.password_hash !== null && (await verifyPassword(password, user.password_hash))) {
    await refundAccountAttempt(app.db.kysely, user.id);
    return;
  }
  await app.db.write((tx) => wrongGuess(tx, app, user, attempt, 'user.password-check-failed'));
  throw ValidationFailed.field(field, `${field} is not your current password`);
}

/** A new password; the user's other sessions end (this one stays). */
export async function changeOwnPassword(app: FastifyInstance, actor: User, current: string, next: string): Promise<void> {
  const db = app.db;
  const user = await me(db.kysely, actor);
  checkNewPassword(next, 'NewPassword', user.email);
  await checkPassword(app, user, current, 'CurrentPassword');
  const hash = await hashPassword(next);
  await db.write(async (tx) => {
    await updateUser(tx, user.id, { password_hash: hash });
    await revokeSessions(tx, user.id, { except: actor.sessionId });
    await audit(tx, { operatorId: actor.operatorId, action: 'user.password-change', resource: { type: 'user', id: user.id } });
  });
}

/** Starts TOTP enrolment (after the password): a new secret, pending until a code from it is confirmed. */
export async function beginTotp(app: FastifyInstance, actor: User, password: string) {
  await checkPassword(app, await me(app.db.kysely, actor), password, 'Password');
  return app.db.write(async (tx) => {
    const user = await me(tx, actor);
    if (user.totp_secret !== null) throw new Conflict('Two-factor authentication is on already; turn it off first to enrol another app');
    const enrolment = newTotpEnrolment(app.instanceKeys, user.email, await operatorName(tx, actor.operatorId));
    await updateUser(tx, user.id, { totp_pending: enrolment.sealed });
    return { Secret: enrolment.secret, Uri: enrolment.uri, QrSvg: enrolment.qrSvg };
  });
}

/** Turns TOTP on with the pending secret once a code from it matches; answers the recovery codes (shown once). */
export async function confirmTotp(app: FastifyInstance, actor: User, code: string): Promise<string[]> {
  return app.db.write(async (tx) => {
    const user = await me(tx, actor);
    if (user.totp_pending === null) throw new Conflict('Start the enrolment first (POST /api/v2/staff/me/totp)');
    const step = matchTotp(app.instanceKeys, user.totp_pending, code, null);
    if (step === undefined) throw ValidationFailed.field('Code', 'Code does not match: check the time on your phone and type the current code');
    const recovery = newRecoveryCodes();
    await updateUser(tx, user.id, { totp_secret: user.totp_pending, totp_pending: null, totp_last_step: step, recovery_codes: recovery.hashes });
    await audit(tx, {
      operatorId: actor.operatorId,
      action: 'user.totp-enable',
      resource: { type: 'user', id: user.id },
      before: { TwoFactor: false },
      after: { TwoFactor: true },
    });
    return recovery.codes;
  });
}

export async function disableTotp(app: FastifyInstance, actor: User, password: string): Promise<void> {
  const user = await me(app.db.kysely, actor);
  await checkPassword(app, user, password, 'Password');
  await app.db.write(async (tx) => {
    await updateUser(tx, user.id, { totp_secret: null, totp_pending: null, totp_last_step: null, recovery_codes: '[]' });
    await audit(tx, {
      operatorId: actor.operatorId,
      action: 'user.totp-disable',
      resource: { type: 'user', id: user.id },
      before: { TwoFactor: user.totp_secret !== null },
      after: { TwoFactor: false },
    });
  });
}

export async function signOut(db: Db, actor: User): Promise<void> {
  await db.write(async (tx) => {
    await revokeSessions(tx, actor.userId, { id: actor.sessionId });
    await audit(tx, { operatorId: actor.operatorId, action: 'session.sign-out', resource: { type: 'session', id: actor.sessionId } });
  });
}
