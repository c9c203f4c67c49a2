// Signing in: by password or by a one-time e-mailed link, then (when the user has it on) a TOTP code.
//
// - Nothing tells whether an address has an account: a wrong address and a wrong password get the same
//   401 after the same scrypt work; link and reset requests always answer 202.
// - Every guess is counted before it is checked (throttles.ts): 5 wrong passwords or codes in a row lock
//   the account for 15 minutes (its owner is told by e-mail; a locked account answers like a wrong
//   password); a client address's failures over all accounts slow it down past 20 in 15 minutes (429 with
//   a growing Retry-After), except for accounts its browser signed in to before (devices.ts).
// - Reset and invitation links: the token is checked before the new password is hashed; made-up tokens
//   count as failures of the address. E-mail requests: 10 an hour per address (429), 3 an hour per e-mail
//   address (quietly dropped).
// Counters live in the database, so they hold across processes.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Tx } from '../../db/connection.js';
import type { StaffTokenPurpose } from '../../db/schema.js';
import { Unauthenticated } from '../../http/errors.js';
import { audit, type AuditActor } from '../../audit/log.js';
import { queueStaffEmail, linkFor } from '../users/emails.js';
import { checkNewPassword, needsRehash, spendDecoyHash, hashPassword, verifyPassword } from '../users/passwords.js';
import { matchTotp, useRecoveryCode } from '../users/totp.js';
import { startSession } from '../sessions/service.js';
import { knownAccounts, rememberBrowser } from './devices.js';
import { reserveGuess, takeAddressAttempt, TooManyAttempts, wrongGuess } from './throttles.js';
import {
  findActiveUser,
  findUserById,
  findUsersByEmail,
  insertToken,
  peekToken,
  refundAccountAttempt,
  updateUser,
  useSecondFactor,
  useToken,
  type UserRow,
} from '../users/store.js';
import { revokeSessions } from '../sessions/store.js';
import { backoffFailed, countEvent, refundBackoffAttempt } from './store.js';
import { normaliseEmail, toStaffUser } from '../view.js';
import { ROLE_PERMISSIONS } from '../../access/permissions.js';
import { operatorName, operatorNames } from '../../operators/service.js';

export const ADDRESS_EMAILS = { limit: 10, windowMs: 60 * 60 * 1000 };
export const ACCOUNT_EMAILS = { limit: 3, windowMs: 60 * 60 * 1000 };
const TTL = { 'sign-in-link': 15 * 60 * 1000, 'password-reset': 60 * 60 * 1000, 'totp-challenge': 5 * 60 * 1000 };

const WRONG = 'The e-mail address or password is not right. After 5 wrong tries in a row an account is locked for 15 minutes.';

const userActor = (user: UserRow): AuditActor => ({ type: 'user', id: user.id, label: user.email });
const ANONYMOUS: AuditActor = { type: 'anonymous', id: null, label: 'anonymous' };

/** The answer that starts a session, for the transaction that signs the user in. */
async function signInAnswer(tx: Tx, request: FastifyRequest, reply: FastifyReply, user: UserRow, how: string) {
  const { sessionId, csrfToken } = await startSession(tx, request, reply, user);
  rememberBrowser(request, reply, user.id);
  await audit(
    tx,
    { operatorId: user.operator_id, action: 'session.sign-in', resource: { type: 'session', id: sessionId }, after: { Method: how } },
    userActor(user),
  );
  return {
    Status: 'signed-in' as const,
    Me: {
      User: toStaffUser(user),
      Operator: { ID: user.operator_id, Name: await operatorName(tx, user.operator_id) },
      Permissions: [...ROLE_PERMISSIONS[user.role]],
      CsrfToken: csrfToken,
    },
  };
}

/** After a first factor (password, link, reset, invitation): a session, or the TOTP step when the user has it on. */
async function afterFirstFactor(tx: Tx, request: FastifyRequest, reply: FastifyReply, user: UserRow, how: string) {
  if (user.totp_secret !== null)
    return { Status: 'totp-required' as const, Challenge: await insertToken(tx, user, 'totp-challenge', TTL['totp-challenge']) };
  return signInAnswer(tx, request, reply, user, how);
}

export async function signInWithPassword(
  request: FastifyRequest,
  reply: FastifyReply,
  body: { Email: string; Password: string; OperatorID?: number },
) {
  const app = request.server;
  const candidates = (await findUsersByEmail(app.db.kysely, normaliseEmail(body.Email))).filter(
    (user) => user.status === 'active' && user.password_hash !== null && (body.OperatorID === undefined || user.operator_id === body.OperatorID),
  );
  // Counted before any hashing (throttles.ts): the address (429 while it must wait), unless this browser
  // signed in to one of these accounts before, and each account (undefined: locked, or 5 guesses on their way).
  const known = knownAccounts(request);
  const address = candidates.some((user) => known.includes(user.id)) ? undefined : await takeAddressAttempt(app.db.kysely, request.ip);
  const attempts: (number | undefined)[] = [];
  for (const user of candidates) attempts.push(await reserveGuess(app.db.kysely, user));
  // The same scrypt work for every account, checked or not, and for an address without one.
  const right: boolean[] = [];
  for (const [i, user] of candidates.entries()) {
    if (attempts[i] === undefined) await spendDecoyHash(body.Password);
    right.push(attempts[i] !== undefined && (await verifyPassword(body.Password, user.password_hash!)));
  }
  if (candidates.length === 0) await spendDecoyHash(body.Password);
  const matching = candidates.filter((_, i) => right[i]);
  if (matching.length === 0) {
    if (address) await backoffFailed(app.db.kysely, address);
    const checked = candidates.flatMap((user, i) => (attempts[i] === undefined ? [] : [{ user, attempt: attempts[i]! }]));
    if (checked.length > 0) {
      await app.db.write(async (tx) => {
        for (const { user, attempt } of checked) await wrongGuess(tx, app, user, attempt, 'session.sign-in-failed', ANONYMOUS);
      });
    }
    throw new Unauthenticated(WRONG);
  }
  /** The password was right: its guesses are taken back (the address's too), and the run of failures goes on until the sign-in completes. */
  const refund = async (tx: Tx) => {
    if (address) await refundBackoffAttempt(tx, address);
    for (const [i, user] of candidates.entries()) if (attempts[i] !== undefined) await refundAccountAttempt(tx, user.id);
  };
  if (matching.length > 1) {
    await app.db.write(refund);
    const names = await operatorNames(
      app.db.kysely,
      matching.map((user) => user.operator_id),
    );
    return {
      Status: 'choose-operator' as const,
      Operators: matching.map((user) => ({ OperatorID: user.operator_id, Name: names.get(user.operator_id) ?? '' })),
    };
  }
  const user = matching[0]!;
  const rehashed = needsRehash(user.password_hash!) ? await hashPassword(body.Password) : undefined;
  return app.db.write(async (tx) => {
    await refund(tx);
    const fresh = await updateUser(tx, user.id, {
      ...(user.totp_secret === null && { failed_attempts: 0, locked_until: null }),
      ...(rehashed && { password_hash: rehashed }),
    });
    return afterFirstFactor(tx, request, reply, fresh, 'password');
  });
}

export async function signInWithTotp(
  request: FastifyRequest,
  reply: FastifyReply,
  body: { Challenge: string; Code?: string; RecoveryCode?: string },
) {
  const app = request.server;
  const invalid = () => new Unauthenticated('This sign-in has expired or is not valid any more: start again with your password or a new link');
  const challenge = await peekToken(app.db.kysely, body.Challenge, 'totp-challenge');
  const user = challenge && (await findActiveUser(app.db.kysely, challenge.user_id));
  if (!challenge || !user || user.totp_secret === null) throw invalid();
  // Counted before the code is checked: a locked account, or one with 5 codes on their way, is refused.
  // (No per-address limit here: a challenge takes the right password, which has one.)
  const attempt = await reserveGuess(app.db.kysely, user);
  if (attempt === undefined) throw invalid();
  const step =
    body.Code === undefined
      ? undefined
      : matchTotp(app.instanceKeys, user.totp_secret, body.Code, user.totp_last_step === null ? null : Number(user.totp_last_step));
  const remainingCodes = step === undefined && body.RecoveryCode !== undefined ? useRecoveryCode(user, body.RecoveryCode) : undefined;
  if (step === undefined && remainingCodes === undefined) {
    await app.db.write((tx) => wrongGuess(tx, app, user, attempt, 'session.totp-failed', ANONYMOUS));
    throw new Unauthenticated('The code is not right (or was used already). After 5 wrong tries in a row the account is locked for 15 minutes.');
  }
  return app.db.write(async (tx) => {
    if (!(await useToken(tx, body.Challenge, 'totp-challenge'))) throw invalid();
    // Conditional on the step (or the codes left), so that two requests with the same code cannot both pass.
    const updated = await useSecondFactor(tx, user, step !== undefined ? { step } : { remainingCodes: remainingCodes! });
    if (!updated) throw invalid();
    if (remainingCodes !== undefined) {
      await audit(
        tx,
        {
          operatorId: user.operator_id,
          action: 'user.recovery-code-use',
          resource: { type: 'user', id: user.id },
          after: { RecoveryCodesLeft: (JSON.parse(remainingCodes) as string[]).length },
        },
        userActor(user),
      );
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
  const address = normaliseEmail(email);
  const users = (await findUsersByEmail(app.db.kysely, address)).filter((user) => user.status === 'active');
  await app.db.write(async (tx) => {
    // Counted and checked in one statement, so that parallel requests cannot all pass a count read before.
    if ((await countEvent(tx, `emails:${request.ip}`, ADDRESS_EMAILS.windowMs)) > ADDRESS_EMAILS.limit) {
      throw new TooManyAttempts('Too many e-mails were asked for from your address this hour; try again later', ADDRESS_EMAILS.windowMs);
    }
    if (users.length === 0 || (await countEvent(tx, `account-emails:${address}`, ACCOUNT_EMAILS.windowMs)) > ACCOUNT_EMAILS.limit) return;
    for (const user of users) {
      const token = await insertToken(tx, user, purpose, TTL[purpose]);
      await queueStaffEmail(tx, app, user, purpose, linkFor(app, purpose, token));
      await audit(
        tx,
        {
          operatorId: user.operator_id,
          action: purpose === 'sign-in-link' ? 'session.link-request' : 'user.password-reset-request',
          resource: { type: 'user', id: user.id },
        },
        ANONYMOUS,
      );
    }
  });
}

const badLink = () =>
  new Unauthenticated('This link is not valid: it was used already, has expired, or was replaced by a newer one. Ask for a new one.');

/**
 * Refuses a made-up or dead token before any hashing, as a failure of the client's address (429 once the
 * address must wait). A live token is never held up: it proves the mailbox.
 */
async function requireLiveToken(request: FastifyRequest, token: string, purpose: StaffTokenPurpose): Promise<void> {
  if (await peekToken(request.server.db.kysely, token, purpose)) return;
  await takeAddressAttempt(request.server.db.kysely, request.ip);
  throw badLink();
}

export async function signInWithLink(request: FastifyRequest, reply: FastifyReply, token: string) {
  await requireLiveToken(request, token, 'sign-in-link');
  return request.server.db.write(async (tx) => {
    const used = await useToken(tx, token, 'sign-in-link');
    const user = used && (await findUserById(tx, used.user_id));
    if (user?.status !== 'active') throw badLink();
    return afterFirstFactor(tx, request, reply, user, 'e-mail link');
  });
}

/** A new password from a reset link: every session of the user ends, and the lock-out is lifted. */
export async function completeReset(request: FastifyRequest, reply: FastifyReply, token: string, password: string) {
  checkNewPassword(password);
  await requireLiveToken(request, token, 'password-reset');
  const hash = await hashPassword(password);
  return request.server.db.write(async (tx) => {
    const used = await useToken(tx, token, 'password-reset');
    const user = used && (await findUserById(tx, used.user_id));
    if (user?.status !== 'active') throw badLink();
    await revokeSessions(tx, user.id);
    const updated = await updateUser(tx, user.id, { password_hash: hash, failed_attempts: 0, locked_until: null });
    await audit(tx, { operatorId: user.operator_id, action: 'user.password-reset', resource: { type: 'user', id: user.id } }, userActor(user));
    return afterFirstFactor(tx, request, reply, updated, 'password reset');
  });
}

/** Accepting an invitation (or the owner's first link from `slotbook operator create`): password, then signed in. */
export async function acceptInvitation(request: FastifyRequest, reply: FastifyReply, body: { Token: string; Password: string; Name?: string }) {
  checkNewPassword(body.Password);
  await requireLiveToken(request, body.Token, 'invitation');
  const hash = await hashPassword(body.Password);
  return request.server.db.write(async (tx) => {
    const used = await useToken(tx, body.Token, 'invitation');
    const user = used && (await findUserById(tx, used.user_id));
    if (user?.status !== 'invited') throw badLink();
    const updated = await updateUser(tx, user.id, { status: 'active', password_hash: hash, ...(body.Name && { name: body.Name.trim() }) });
    await audit(
      tx,
      {
        operatorId: user.operator_id,
        action: 'user.invitation-accept',
        resource: { type: 'user', id: user.id },
        before: toStaffUser(user),
        after: toStaffUser(updated),
      },
      userActor(user),
    );
    return afterFirstFactor(tx, request, reply, updated, 'invitation');
  });
}
