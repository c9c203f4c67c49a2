// Transaction-scoped locks on a name, for writes whose rule spans rows no single row lock covers (what one
// client holds over all its baskets, one address's payments, one idempotency scope). On PostgreSQL an
// advisory lock, released by the transaction's end, visible to every process; on SQLite nothing is needed:
// a write transaction (BEGIN IMMEDIATE) already holds the whole database.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { dialectOf, type Tx } from './connection.js';

/** A 64-bit lock ID from a name (hashtext's 32 bits would make unrelated names collide far sooner). */
const lockId = (name: string): string => createHash('sha256').update(name).digest().readBigInt64BE(0).toString();

/** Waits for the lock of `name` until the transaction ends. Only for locks held briefly. */
export async function lockForTransaction(tx: Tx, name: string): Promise<void> {
  if (dialectOf(tx) === 'postgres') await sql`SELECT pg_advisory_xact_lock(${lockId(name)}::bigint)`.execute(tx);
}

/** Takes the lock of `name` until the transaction ends if nobody holds it; false (at once) when someone does. */
export async function tryLockForTransaction(tx: Tx, name: string): Promise<boolean> {
  if (dialectOf(tx) !== 'postgres') return true;
  const { rows } = await sql<{ locked: boolean }>`SELECT pg_try_advisory_xact_lock(${lockId(name)}::bigint) AS locked`.execute(tx);
  return rows[0]?.locked === true;
}
