// SQL of staff accounts (staff_users) and their one-time tokens (staff_tokens). Tokens (session cookies,
// e-mailed links) are random 256-bit values; only their SHA-256 is stored, so a copy of the database signs
// nobody in.
import { createHash, randomBytes } from 'node:crypto';
import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Tx } from '../../db/connection.js';
import type { Database, StaffRole, StaffTokenPurpose, StaffUserTable } from '../../db/schema.js';
import { addMillis, nowMillis, type UnixMillis } from '../../lib/clock.js';
export type UserRow = Selectable<StaffUserTable>;

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
  const now = nowMillis();
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
    .set({ ...changes, updated_at: nowMillis() })
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
      updated_at: nowMillis(),
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

// ---- one-time tokens ----

export async function insertToken(tx: Tx, user: UserRow, purpose: StaffTokenPurpose, ttlMs: number): Promise<string> {
  const token = newToken();
  const now = nowMillis();
  await tx
    .insertInto('staff_tokens')
    .values({
      operator_id: user.operator_id,
      user_id: user.id,
      purpose,
      token_hash: hashToken(token),
      created_at: now,
      expires_at: addMillis(now, ttlMs),
      used_at: null,
    })
    .execute();
  return token;
}

/** Uses a live token of this purpose, once: of two requests racing with the same token, one gets the row. */
export async function useToken(tx: Tx, token: string, purpose: StaffTokenPurpose): Promise<{ user_id: number; operator_id: number } | undefined> {
  const now = nowMillis();
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
    .where('expires_at', '>', nowMillis())
    .executeTakeFirst();
}

/** Withdraws the user's unused tokens of a purpose (a new invitation replaces the old one). */
export async function expireTokens(tx: Tx, userId: number, purposes: StaffTokenPurpose[]): Promise<void> {
  await tx
    .updateTable('staff_tokens')
    .set({ used_at: nowMillis() })
    .where('user_id', '=', userId)
    .where('purpose', 'in', purposes)
    .where('used_at', 'is', null)
    .execute();
}

// ---- the account's attempt counters ----
// Single statements, atomic by themselves: callers run them on their own, outside a transaction, so that a
// burst of parallel guesses holds the user's row for one statement each (sign-in/throttles.ts).

/**
 * Counts a guess at the account's password or code before it is checked, in one statement: answers its
 * number in the account's run of failures, or undefined (nothing counted) when the account is locked or
 * `max` guesses are counted already, settled or on their way. So parallel guesses count one by one.
 */
export async function reserveAccountAttempt(db: Kysely<Database>, userId: number, max: number, now = nowMillis()): Promise<number | undefined> {
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
export async function lockAccount(tx: Tx, userId: number, until: UnixMillis, now = nowMillis()): Promise<boolean> {
  const locked = await tx
    .updateTable('staff_users')
    .set({ failed_attempts: 0, locked_until: until, updated_at: now })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .returning('id')
    .executeTakeFirst();
  return locked !== undefined;
}
