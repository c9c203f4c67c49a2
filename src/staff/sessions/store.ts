// SQL of staff sessions (staff_sessions): a row per signed-in browser, found by its cookie's token hash.
import type { Kysely, Selectable } from 'kysely';
import type { Tx } from '../../db/connection.js';
import type { Database, StaffSessionTable } from '../../db/schema.js';
import type { UserRow } from '../users/store.js';
import { nowMillis, type UnixMillis } from '../../lib/clock.js';

export type SessionRow = Selectable<StaffSessionTable>;

export async function insertSession(
  tx: Tx,
  session: { user: UserRow; tokenHash: string; address: string; userAgent: string; expiresAt: UnixMillis },
): Promise<SessionRow> {
  const now = nowMillis();
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
export async function findLiveSession(db: Kysely<Database>, tokenHash: string, now: UnixMillis) {
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

export async function touchSession(db: Kysely<Database>, id: number, now: UnixMillis, expiresAt: UnixMillis): Promise<void> {
  await db
    .updateTable('staff_sessions')
    .set({ last_seen_at: now, expires_at: expiresAt })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function listLiveSessions(db: Kysely<Database>, userId: number, now: UnixMillis): Promise<SessionRow[]> {
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
  let query = tx.updateTable('staff_sessions').set({ revoked_at: nowMillis() }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (which.id !== undefined) query = query.where('id', '=', which.id);
  if (which.except !== undefined) query = query.where('id', '<>', which.except);
  return (await query.returning('id').execute()).map((row) => row.id);
}
