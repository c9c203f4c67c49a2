// Staff accounts: the owner's user management (invite, change role, remove, sessions) and each user's own
// account (password, TOTP, sessions). Every change writes its audit entry in its own transaction.
import type { FastifyInstance } from 'fastify';
import type { Db, Tx } from '../../db/connection.js';
import type { StaffRole } from '../../db/schema.js';
import { Conflict, NotFound, ValidationFailed } from '../../http/errors.js';
import { audit } from '../../audit/log.js';
import type { Actor } from '../../access/actor.js';
import { operatorName } from '../../operators/service.js';
import { linkFor, queueStaffEmail, type Mailing } from '../users/emails.js';
import { checkNewPassword, hashPassword, verifyPassword } from '../users/passwords.js';
import { matchTotp, newRecoveryCodes, newTotpEnrolment } from '../users/totp.js';
import {
  countOwners,
  expireTokens,
  findUser,
  insertToken,
  insertUser,
  listLiveSessions,
  listUsers,
  refundAccountAttempt,
  revokeSessions,
  updateUser,
  type UserRow,
} from '../users/store.js';
import { refusedGuess, reserveGuess, wrongGuess } from '../sign-in/throttles.js';
import { normaliseEmail, toStaffSession, toStaffUser } from '../view.js';
import type { StaffUser } from '../schemas.js';

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
type User = Actor & { kind: 'user' };

async function requireUser(db: Db['kysely'], operatorId: number, id: number): Promise<UserRow> {
  const user = await findUser(db, operatorId, id);
  if (!user) throw new NotFound(`No user ${id}`);
  return user;
}

/** A new account in the invited state and its invitation link (e-mailed, or printed by the command line). */
export async function addInvitedUser(
  tx: Tx,
  app: Mailing,
  operatorId: number,
  invite: { email: string; name: string; role: StaffRole },
  sendEmail: boolean,
) {
  const email = normaliseEmail(invite.email);
  const user = await insertUser(tx, { operatorId, email, name: invite.name.trim(), role: invite.role, status: 'invited', passwordHash: null });
  if (!user) throw new Conflict(`${email} already has an account with this operator`);
  const link = linkFor(app, 'invitation', await insertToken(tx, user, 'invitation', INVITATION_TTL_MS));
  if (sendEmail) await queueStaffEmail(tx, app, user, 'invitation', link);
  await audit(tx, { operatorId, action: 'user.invite', resource: { type: 'user', id: user.id }, after: toStaffUser(user) });
  return { user, link };
}

export async function inviteUser(
  app: FastifyInstance,
  operatorId: number,
  body: { Email: string; Name: string; Role: StaffRole },
): Promise<StaffUser> {
  if (body.Name.trim() === '') throw ValidationFailed.field('Name', 'Name must not be blank');
  const { user } = await app.db.write((tx) => addInvitedUser(tx, app, operatorId, { email: body.Email, name: body.Name, role: body.Role }, true));
  return toStaffUser(user);
}

/** A new invitation e-mail; the earlier link stops working. */
export async function resendInvitation(app: FastifyInstance, operatorId: number, id: number): Promise<StaffUser> {
  return app.db.write(async (tx) => {
    const user = await requireUser(tx, operatorId, id);
    if (user.status !== 'invited') throw new Conflict(`User ${id} has accepted the invitation already`);
    await expireTokens(tx, user.id, ['invitation']);
    await queueStaffEmail(tx, app, user, 'invitation', linkFor(app, 'invitation', await insertToken(tx, user, 'invitation', INVITATION_TTL_MS)));
    await audit(tx, { operatorId, action: 'user.invitation-resend', resource: { type: 'user', id } });
    return toStaffUser(user);
  });
}

export async function getUsers(db: Db, operatorId: number): Promise<StaffUser[]> {
  return (await listUsers(db.kysely, operatorId)).map(toStaffUser);
}

/** The operator must keep an active owner: the last one cannot be demoted or removed (409). */
async function keepAnOwner(tx: Tx, user: UserRow, what: string): Promise<void> {
  if (user.role === 'owner' && user.status === 'active' && (await countOwners(tx, user.operator_id)) <= 1) {
    throw new Conflict(`User ${user.id} is the only owner and cannot be ${what}; make another user owner first`);
  }
}

export async function changeUser(db: Db, operatorId: number, id: number, body: { Role?: StaffRole; Name?: string }): Promise<StaffUser> {
  if (body.Name !== undefined && body.Name.trim() === '') throw ValidationFailed.field('Name', 'Name must not be blank');
  return db.write(async (tx) => {
    const user = await requireUser(tx, operatorId, id);
    if (body.Role !== undefined && body.Role !== 'owner') await keepAnOwner(tx, user, 'given another role');
    const updated = await updateUser(tx, id, {
      ...(body.Role !== undefined && { role: body.Role }),
      ...(body.Name !== undefined && { name: body.Name.trim() }),
    });
    await audit(tx, { operatorId, action: 'user.update', resource: { type: 'user', id }, before: toStaffUser(user), after: toStaffUser(updated) });
    return toStaffUser(updated);
  });
}

/** Removes the account: its sessions end at once and its links stop working; the row stays for the audit log. */
export async function removeUser(db: Db, operatorId: number, id: number): Promise<void> {
  await db.write(async (tx) => {
    const user = await requireUser(tx, operatorId, id);
    await keepAnOwner(tx, user, 'removed');
    await updateUser(tx, id, { status: 'removed' });
    await revokeSessions(tx, id);
    await expireTokens(tx, id, ['invitation', 'password-reset', 'sign-in-link', 'totp-challenge']);
    await audit(tx, { operatorId, action: 'user.remove', resource: { type: 'user', id }, before: toStaffUser(user) });
  });
}

/** Lifts the lock-out of a user (an owner who knows it was them, or who has dealt with the guesser). */
export async function unlockUser(db: Db, operatorId: number, id: number): Promise<StaffUser> {
  return db.write(async (tx) => {
    const user = await requireUser(tx, operatorId, id);
    const updated = await updateUser(tx, id, { failed_attempts: 0, locked_until: null });
    await audit(tx, {
      operatorId,
      action: 'user.unlock',
      resource: { type: 'user', id },
      before: { LockedUntil: toStaffUser(user).LockedUntil },
      after: { LockedUntil: null },
    });
    return toStaffUser(updated);
  });
}

/**
 * Turns off a member's two-factor (a lost phone): they sign in with the password alone until they enrol
 * again, and are told by e-mail, so that a reset they did not ask for does not go unnoticed.
 */
export async function resetTwoFactor(app: FastifyInstance, operatorId: number, id: number): Promise<StaffUser> {
  return app.db.write(async (tx) => {
    const user = await requireUser(tx, operatorId, id);
    const updated = await updateUser(tx, id, { totp_secret: null, totp_pending: null, totp_last_step: null, recovery_codes: '[]' });
    await expireTokens(tx, id, ['totp-challenge']);
    if (user.totp_secret !== null && user.status === 'active') await queueStaffEmail(tx, app, user, 'totp-reset');
    await audit(tx, {
      operatorId,
      action: 'user.totp-reset',
      resource: { type: 'user', id },
      before: { TwoFactor: user.totp_secret !== null },
      after: { TwoFactor: false },
    });
    return toStaffUser(updated);
  });
}

export async function userSessions(db: Db, operatorId: number, userId: number, currentSessionId?: number) {
  await requireUser(db.kysely, operatorId, userId);
  return (await listLiveSessions(db.kysely, userId, Date.now())).map((row) => toStaffSession(row, currentSessionId));
}

/** Ends one session of the user (or all of them without `sessionId`); 404 for a session that is not live. */
export async function endSessions(db: Db, operatorId: number, userId: number, sessionId?: number): Promise<void> {
  await db.write(async (tx) => {
    await requireUser(tx, operatorId, userId);
    const revoked = await revokeSessions(tx, userId, { id: sessionId });
    if (sessionId !== undefined && revoked.length === 0) throw new NotFound(`No live session ${sessionId}`);
    for (const id of revoked) await audit(tx, { operatorId, action: 'session.revoke', resource: { type: 'session', id }, after: { UserID: userId } });
  });
}

// ---- a user's own account ----

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

/** The owner of a new operator (command line, demo): active with a password, or invited with a link. */
export async function createOwner(tx: Tx, operatorId: number, email: string, how: { password: string } | { mailing: Mailing }) {
  if ('mailing' in how) return addInvitedUser(tx, how.mailing, operatorId, { email, name: 'Owner', role: 'owner' }, false);
  const user = await insertUser(tx, {
    operatorId,
    email: normaliseEmail(email),
    name: 'Owner',
    role: 'owner',
    status: 'active',
    passwordHash: await hashPassword(how.password),
  });
  if (!user) throw new Conflict(`${email} already has an account with this operator`);
  await audit(tx, { operatorId, action: 'user.create', resource: { type: 'user', id: user.id }, after: toStaffUser(user) });
  return { user, link: undefined };
}
