// Idempotent POSTs (contract "Idempotency"). The record of a key is inserted in the same transaction as
// the write it protects, under the primary key (operator, key): a retry finds the committed response and
// replays it, and two concurrent requests can never both write. A request that is still running when its
// twin arrives is detected by a lock on the key (a PostgreSQL advisory lock, shared by every process; on
// SQLite an in-process set, since SQLite's write lock already serialises processes, and a twin in another
// process simply waits and then replays).
// Only successful responses are recorded: a rejected request (422, 409 sold out) wrote nothing, so its
// retry is evaluated afresh, as Stripe does.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db, Tx } from '../db/connection.js';
import { DomainError, ValidationFailed } from '../http/errors.js';
import { deleteRecord, deleteRecordsBefore, findRecord, insertRecord, type IdempotencyRecord } from './store.js';

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
export const MAX_KEY_LENGTH = 255;

export interface WriteResult {
  statusCode: number;
  body: unknown;
  location?: string;
}

export interface IdempotentRequest {
  operatorId: number;
  /** The Idempotency-Key header, if sent. */
  key: string | undefined;
  /** What makes two requests "the same": method, route and body. */
  fingerprint: unknown;
  /** Writes of the same group may share a transaction and its commit (Db.writeGrouped). */
  group?: string;
}

export class IdempotencyKeyReuse extends DomainError {
  constructor() {
    super('idempotency-key-reuse', 'This Idempotency-Key was already used with a different request; use a new key');
  }
}

export class IdempotencyInFlight extends DomainError {
  constructor() {
    super('idempotency-in-flight', 'A request with this Idempotency-Key is still being processed; retry shortly');
  }
}

const running = new Set<string>();

/** Runs `write` in one write transaction, at most once per (operator, key) within 24 hours. */
export async function runIdempotently(
  db: Db,
  request: IdempotentRequest,
  write: (tx: Tx) => Promise<WriteResult>,
): Promise<{ result: WriteResult; replayed: boolean }> {
  const { key, operatorId, group } = request;
  const inTransaction = <T>(fn: (tx: Tx) => Promise<T>) => (group === undefined ? db.write(fn) : db.writeGrouped(group, fn));
  if (key === undefined) return { result: await inTransaction(write), replayed: false };
  if (key.length < 1 || key.length > MAX_KEY_LENGTH) {
    throw ValidationFailed.field('Idempotency-Key', `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters`);
  }
  const hash = createHash('sha256').update(JSON.stringify(request.fingerprint)).digest('hex');

  // The common retry needs no write lock at all.
  const earlier = await findRecord(db.kysely, operatorId, key);
  if (earlier && isLive(earlier)) return replay(earlier, hash);

  const slot = `${operatorId}:${key}`;
  if (running.has(slot)) throw new IdempotencyInFlight();
  running.add(slot);
  try {
    return await inTransaction(async (tx) => {
      // A grouped write's lock is held until its group commits: a twin in another process meanwhile is in flight.
      if (db.dialect === 'postgres') await lockKeyOrFail(tx, slot);
      const existing = await findRecord(tx, operatorId, key);
      if (existing && isLive(existing)) return replay(existing, hash);
      if (existing) await deleteRecord(tx, operatorId, key);
      const result = await write(tx);
      await insertRecord(tx, {
        operator_id: operatorId,
        idempotency_key: key,
        request_hash: hash,
        status_code: result.statusCode,
        response_body: JSON.stringify(result.body),
        response_location: result.location ?? null,
        created_at: Date.now(),
      });
      return { result, replayed: false };
    });
  } finally {
    running.delete(slot);
  }
}

function isLive(record: IdempotencyRecord): boolean {
  return record.created_at > Date.now() - IDEMPOTENCY_WINDOW_MS;
}

function replay(record: IdempotencyRecord, hash: string): { result: WriteResult; replayed: boolean } {
  if (record.request_hash !== hash) throw new IdempotencyKeyReuse();
  const result: WriteResult = { statusCode: record.status_code, body: JSON.parse(record.response_body) };
  if (record.response_location) result.location = record.response_location;
  return { result, replayed: true };
}

/** Another process holding the key's lock is running the same request right now. */
async function lockKeyOrFail(tx: Tx, slot: string): Promise<void> {
  const { rows } = await sql<{ locked: boolean }>`SELECT pg_try_advisory_xact_lock(hashtext(${slot})) AS locked`.execute(tx);
  if (!rows[0]?.locked) throw new IdempotencyInFlight();
}

/** Deletes records past the 24-hour window; returns how many. */
export async function purgeExpiredKeys(db: Db): Promise<number> {
  return deleteRecordsBefore(db.kysely, Date.now() - IDEMPOTENCY_WINDOW_MS);
}
