// Staff accounts, the owner's side: user management (invite, change role, remove, unlock, sessions) and the
// owner of a new operator. A user's own account is own-account.ts. Every change writes its audit entry in
// its own transaction.
import type { FastifyInstance } from 'fastify';
import type { Db, Tx } from '../../db/connection.js';
import type { StaffRole } from '../../db/schema.js';
import { Conflict, NotFound, ValidationFailed } from '../../http/errors.js';
import { audit } from '../../audit/log.js';
import { linkFor, queueStaffEmail, type Mailing } from '../users/emails.js';
import { hashPassword } from '../users/passwords.js';
import { countOwners, expireTokens, findUser, insertToken, insertUser, listUsers, updateUser, type UserRow } from '../users/store.js';
import { listLiveSessions, revokeSessions } from '../sessions/store.js';
import { normaliseEmail, toStaffSession, toStaffUser } from '../view.js';
import type { StaffUser } from '../schemas.js';
import { nowMillis } from '../../lib/clock.js';

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export async function requireUser(db: Db['kysely'], operatorId: number, id: number): Promise<UserRow> {
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
  return (await listLiveSessions(db.kysely, userId, nowMillis())).map((row) => toStaffSession(row, currentSessionId));
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
