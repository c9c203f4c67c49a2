// SQL of staff accounts, sessions, one-time tokens and throttles. Tokens (session cookies, e-mailed links)
// are random 256-bit values; only their SHA-256 is stored, so a copy of the database signs nobody in.
import { createHash, randomBytes } from 'node:crypto';
import { sql, type ExpressionBuilder, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Tx } from '../../db/connection.js';
import type { Database, StaffRole, StaffSessionTable, StaffTokenPurpose, StaffUserTable } from '../../db/schema.js';

export type UserRow = Selectable<StaffUserTable>;
export type SessionRow = Selectable<StaffSessionTable>;

export const newToken = (): string => randomBytes(32).toString('base64url');
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export async function findUser(db: Kysely<Database>, operatorId: number, id: number): Promise<UserRow | undefined> {
  return db
    .selectFrom('staff_users')
    .selectAll()
    .where('id', '=', id)
    .where('operator_id', '=', operatorId)
    .where('status', '<>', 'removed')
    .executeTakeFirst();
}

/** An account by its ID alone (a token names it), unless removed. */
export async function findUserById(db: Kysely<Database>, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('staff_users').selectAll().where('id', '=', id).where('status', '<>', 'removed').executeTakeFirst();
}

/** An active account by its ID alone (a TOTP challenge names it). */
export async function findActiveUser(db: Kysely<Database>, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('staff_users').selectAll().where('id', '=', id).where('status', '=', 'active').executeTakeFirst();
}

/** The accounts (of any operator) with this address that are not removed. */
export async function findUsersByEmail(db: Kysely<Database>, email: string): Promise<UserRow[]> {
  return db.selectFrom('staff_users').selectAll().where('email', '=', email).where('status', '<>', 'removed').orderBy('id').limit(20).execute();
}

export async function listUsers(db: Kysely<Database>, operatorId: number): Promise<UserRow[]> {
  return db.selectFrom('staff_users').selectAll().where('operator_id', '=', operatorId).where('status', '<>', 'removed').orderBy('id').execute();
}

export async function insertUser(
  tx: Tx,
  user: { operatorId: number; email: string; name: string; role: StaffRole; status: 'invited' | 'active'; passwordHash: string | null },
): Promise<UserRow | undefined> {
  const now = Date.now();
  return (
    tx
      .insertInto('staff_users')
      .values({
        operator_id: user.operatorId,
        email: user.email,
        name: user.name,
        role: user.role,
        status: user.status,
        password_hash: user.passwordHash,
        totp_secret: null,
        totp_pending: null,
        totp_last_step: null,
        locked_until: null,
        created_at: now,
        updated_at: now,
      })
      // The predicate is written out as in the index: SQLite matches a partial index's WHERE by its text.
      .onConflict((oc) => oc.columns(['operator_id', 'email']).where(sql<boolean>`status <> 'removed'`).doNothing())
      .returningAll()
      .executeTakeFirst()
  );
}

export async function updateUser(tx: Tx, id: number, changes: Updateable<StaffUserTable>): Promise<UserRow> {
  return tx
    .updateTable('staff_users')
    .set({ ...changes, updated_at: Date.now() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * The second factor of a sign-in used: a TOTP step newer than the last one used, or a recovery code taken
 * (the codes left replace the codes as the user row had them). Conditional on that, so that of two
 * requests with the same code only one gets the row; undefined for the other. Starts the run of failures afresh.
 */
export async function useSecondFactor(tx: Tx, user: UserRow, used: { step: number } | { remainingCodes: string }): Promise<UserRow | undefined> {
  return tx
    .updateTable('staff_users')
    .set({
      failed_attempts: 0,
      ...('step' in used ? { totp_last_step: used.step } : { recovery_codes: used.remainingCodes }),
      updated_at: Date.now(),
    })
    .where('id', '=', user.id)
    .where((eb) =>
      'step' in used
        ? eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', used.step)])
        : eb('recovery_codes', '=', user.recovery_codes),
    )
    .returningAll()
    .executeTakeFirst();
}

export async function countOwners(tx: Tx, operatorId: number): Promise<number> {
  const row = await tx
    .selectFrom('staff_users')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('operator_id', '=', operatorId)
    .where('role', '=', 'owner')
    .where('status', '=', 'active')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// ---- sessions ----

export async function insertSession(
  tx: Tx,
  session: { user: UserRow; tokenHash: string; address: string; userAgent: string; expiresAt: number },
): Promise<SessionRow> {
  const now = Date.now();
  return tx
    .insertInto('staff_sessions')
    .values({
      operator_id: session.user.operator_id,
      user_id: session.user.id,
      token_hash: session.tokenHash,
      address: session.address,
      user_agent: session.userAgent.slice(0, 300),
      created_at: now,
      last_seen_at: now,
      expires_at: session.expiresAt,
      revoked_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A live session and its active user, by the cookie's token hash. */
export async function findLiveSession(db: Kysely<Database>, tokenHash: string, now: number) {
  return db
    .selectFrom('staff_sessions as s')
    .innerJoin('staff_users as u', 'u.id', 's.user_id')
    .select([
      's.id as session_id',
      's.operator_id',
      's.created_at',
      's.last_seen_at',
      's.expires_at',
      'u.id as user_id',
      'u.email',
      'u.role',
      'u.name',
    ])
    .where('s.token_hash', '=', tokenHash)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', now)
    .where('u.status', '=', 'active')
    .executeTakeFirst();
}

export async function touchSession(db: Kysely<Database>, id: number, now: number, expiresAt: number): Promise<void> {
  await db
    .updateTable('staff_sessions')
    .set({ last_seen_at: now, expires_at: expiresAt })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function listLiveSessions(db: Kysely<Database>, userId: number, now: number): Promise<SessionRow[]> {
  return db
    .selectFrom('staff_sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('id', 'desc')
    .execute();
}

/** Revokes the user's live sessions (one, or all but `except`); answers the IDs revoked. */
export async function revokeSessions(tx: Tx, userId: number, which: { id?: number; except?: number } = {}): Promise<number[]> {
  let query = tx.updateTable('staff_sessions').set({ revoked_at: Date.now() }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (which.id !== undefined) query = query.where('id', '=', which.id);
  if (which.except !== undefined) query = query.where('id', '<>', which.except);
  return (await query.returning('id').execute()).map((row) => row.id);
}

// ---- one-time tokens ----

export async function insertToken(tx: Tx, user: UserRow, purpose: StaffTokenPurpose, ttlMs: number): Promise<string> {
  const token = newToken();
  const now = Date.now();
  await tx
    .insertInto('staff_tokens')
    .values({
      operator_id: user.operator_id,
      user_id: user.id,
      purpose,
      token_hash: hashToken(token),
      created_at: now,
      expires_at: now + ttlMs,
      used_at: null,
    })
    .execute();
  return token;
}

/** Uses a live token of this purpose, once: of two requests racing with the same token, one gets the row. */
export async function useToken(tx: Tx, token: string, purpose: StaffTokenPurpose): Promise<{ user_id: number; operator_id: number } | undefined> {
  const now = Date.now();
  return tx
    .updateTable('staff_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', hashToken(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'operator_id'])
    .executeTakeFirst();
}

/** A live token of this purpose, without using it (the TOTP step may be retried after a wrong code). */
export async function peekToken(
  db: Kysely<Database>,
  token: string,
  purpose: StaffTokenPurpose,
): Promise<{ id: number; user_id: number } | undefined> {
  return db
    .selectFrom('staff_tokens')
    .select(['id', 'user_id'])
    .where('token_hash', '=', hashToken(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', Date.now())
    .executeTakeFirst();
}

/** Withdraws the user's unused tokens of a purpose (a new invitation replaces the old one). */
export async function expireTokens(tx: Tx, userId: number, purposes: StaffTokenPurpose[]): Promise<void> {
  await tx
    .updateTable('staff_tokens')
    .set({ used_at: Date.now() })
    .where('user_id', '=', userId)
    .where('purpose', 'in', purposes)
    .where('used_at', 'is', null)
    .execute();
}

// ---- throttles ----

/**
 * Counts one event against `key` in a fixed window; answers the count including this one. The window
 * starts again once it has passed. One statement, so concurrent requests count exactly.
 */
export async function countEvent(tx: Tx, key: string, windowMs: number, now = Date.now()): Promise<number> {
  const row = await tx
    .insertInto('staff_throttles')
    .values({ key, count: 1, window_started_at: now })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet((eb) => ({
        count: eb
          .case()
          .when('staff_throttles.window_started_at', '<=', now - windowMs)
          .then(1)
          .else(eb('staff_throttles.count', '+', 1))
          .end(),
        window_started_at: eb
          .case()
          .when('staff_throttles.window_started_at', '<=', now - windowMs)
          .then(now)
          .else(eb.ref('staff_throttles.window_started_at'))
          .end(),
      })),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Failures allowed freely per window, then a wait before each further attempt that starts at
 * `firstWaitMs` and doubles with each failure, up to `maxWaitMs`. A run of failures ends a window after its
 * first failure while within the limit, and a window after its last one once past it (so a steady guesser
 * never starts afresh).
 */
export interface BackoffPolicy {
  limit: number;
  windowMs: number;
  firstWaitMs: number;
  maxWaitMs: number;
}

/** The wait after `failures` failures in a run. */
export function backoffWait(failures: number, policy: BackoffPolicy): number {
  return failures < policy.limit ? 0 : Math.min(policy.firstWaitMs * 2 ** (failures - policy.limit), policy.maxWaitMs);
}

// The attempt counters below are single statements, atomic by themselves: callers run them on their own,
// outside a transaction, so that a burst of parallel attempts holds a counter's row for one statement each
// rather than for a whole transaction (PostgreSQL requests would queue for connections behind that lock).

/** Within the limit a run of failures lasts a window from its first; past it, until a window without one. */
function liveRun(eb: ExpressionBuilder<Database, 'staff_throttles'>, policy: BackoffPolicy, now: number) {
  return eb.or([
    eb.and([eb('staff_throttles.count', '<', policy.limit), eb('staff_throttles.window_started_at', '>', now - policy.windowMs)]),
    eb.and([eb('staff_throttles.count', '>=', policy.limit), eb('staff_throttles.last_at', '>', now - policy.windowMs)]),
  ]);
}

/** backoffWait in SQL: the doublings as literal steps, so that both databases type them as numbers. */
function waitInSql(eb: ExpressionBuilder<Database, 'staff_throttles'>, policy: BackoffPolicy) {
  let steps = eb.case().when('staff_throttles.count', '<', policy.limit).then(eb.lit<number>(0));
  for (let failures = policy.limit; backoffWait(failures, policy) < policy.maxWaitMs; failures++) {
    steps = steps.when('staff_throttles.count', '=', failures).then(eb.lit(backoffWait(failures, policy)));
  }
  return steps.else(eb.lit(policy.maxWaitMs)).end();
}

/**
 * Counts an attempt against `key` before it is made, unless the key must still wait: then counts nothing
 * and answers the wait in milliseconds (0 when counted). One statement, so that concurrent attempts in
 * every process are counted one by one and none passes a wait another started.
 */
export async function takeBackoffAttempt(db: Kysely<Database>, key: string, policy: BackoffPolicy, now = Date.now()): Promise<number> {
  const counted = await db
    .insertInto('staff_throttles')
    .values({ key, count: 1, window_started_at: now, last_at: now })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet((eb) => ({
          count: eb
            .case()
            .when(liveRun(eb, policy, now))
            .then(eb('staff_throttles.count', '+', 1))
            .else(1)
            .end(),
          window_started_at: eb
            .case()
            .when(liveRun(eb, policy, now))
            .then(eb.ref('staff_throttles.window_started_at'))
            .else(now)
            .end(),
          last_at: now,
        }))
        .where((eb) =>
          eb.or([
            eb.not(liveRun(eb, policy, now)),
            eb('staff_throttles.count', '<', policy.limit),
            eb(eb('staff_throttles.last_at', '+', waitInSql(eb, policy)), '<=', now),
          ]),
        ),
    )
    .returning('count')
    .executeTakeFirst();
  if (counted) return 0;
  // For Retry-After only: the decision above was the statement's.
  const row = await db.selectFrom('staff_throttles').select(['count', 'last_at']).where('key', '=', key).executeTakeFirst();
  return Math.max(1000, Number(row?.last_at ?? now) + backoffWait(Number(row?.count ?? 0), policy) - now);
}

/** A counted attempt failed: the wait after it runs from its answer (a password takes a while to check). */
export async function backoffFailed(db: Kysely<Database>, key: string, now = Date.now()): Promise<void> {
  await db.updateTable('staff_throttles').set({ last_at: now }).where('key', '=', key).where('last_at', '<', now).execute();
}

/** Takes back a counted attempt that was no failure (a right password). */
export async function refundBackoffAttempt(db: Kysely<Database>, key: string): Promise<void> {
  await db
    .updateTable('staff_throttles')
    .set((eb) => ({ count: eb('count', '-', 1) }))
    .where('key', '=', key)
    .where('count', '>', 0)
    .execute();
}

/**
 * Counts a guess at the account's password or code before it is checked, in one statement: answers its
 * number in the account's run of failures, or undefined (nothing counted) when the account is locked or
 * `max` guesses are counted already, settled or on their way. So parallel guesses count one by one.
 */
export async function reserveAccountAttempt(db: Kysely<Database>, userId: number, max: number, now = Date.now()): Promise<number | undefined> {
  const row = await db
    .updateTable('staff_users')
    .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
    .where('id', '=', userId)
    .where('failed_attempts', '<', max)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .returning('failed_attempts')
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.failed_attempts);
}

/** Takes back a guess that was right, without starting the run of failures afresh (that takes a completed sign-in). */
export async function refundAccountAttempt(db: Kysely<Database>, userId: number): Promise<void> {
  await db
    .updateTable('staff_users')
    .set((eb) => ({ failed_attempts: eb('failed_attempts', '-', 1) }))
    .where('id', '=', userId)
    .where('failed_attempts', '>', 0)
    .execute();
}

/** Until when the account is locked (Unix ms; null: not locked). */
export async function lockedUntil(db: Kysely<Database>, userId: number) {
  return (await db.selectFrom('staff_users').select('locked_until').where('id', '=', userId).executeTakeFirst())?.locked_until ?? null;
}

/** Locks the account until `until` unless it is locked already; answers whether this call locked it. */
export async function lockAccount(tx: Tx, userId: number, until: number, now = Date.now()): Promise<boolean> {
  const locked = await tx
    .updateTable('staff_users')
    .set({ failed_attempts: 0, locked_until: until, updated_at: now })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .returning('id')
    .executeTakeFirst();
  return locked !== undefined;
}
