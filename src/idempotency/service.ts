// Idempotent POSTs (contract "Idempotency"). A key counts within its holder's namespace on one route: the
// operator, the holder (an ota key's marketplace, so that a retry through a rotated key of the same
// marketplace replays; otherwise the API key itself; in the public shop, the basket) and the route. Two
// marketplaces, two keys or the shop and a partner can never see or collide with each other's records.
//
// The record is inserted in the same transaction as the write it protects, under the primary key
// (operator, holder, route, key): a retry finds the committed response and replays it, and two concurrent
// requests can never both write. A request that is still running when its twin arrives is detected by a
// lock on the same scope (a PostgreSQL advisory lock, shared by every process, and an in-process set;
// SQLite's write lock already serialises processes, and a twin in another process waits, then replays).
//
// The fingerprint (what makes two requests "the same") is an HMAC under an instance key, so that the
// table alone cannot be used to test guesses of what a body held; the caller leaves secrets such as a
// card number out of the fingerprint altogether (flows/checkout.ts).
// Only successful responses are recorded: a rejected request (422, 409 sold out) wrote nothing, so its
// retry is evaluated afresh, as Stripe does.
import type { Db, Tx } from '../db/connection.js';
import { tryLockForTransaction } from '../db/advisory-lock.js';
import { DomainError, ValidationFailed } from '../http/errors.js';
import type { InstanceKeys } from '../secrets/keys.js';
import { legacyAnswer, purgeLegacyRecords } from './legacy.js';
import { deleteRecord, deleteRecordsBefore, findRecord, insertRecord, type IdempotencyRecord, type RecordScope } from './store.js';
import { IDEMPOTENCY_WINDOW_MS, MAX_KEY_LENGTH, type WriteResult } from './window.js';
import { addMillis, nowMillis } from '../lib/clock.js';

export { IDEMPOTENCY_WINDOW_MS, MAX_KEY_LENGTH, type WriteResult };

/** The HMAC purpose of request fingerprints (src/secrets/keys.ts derives one key per purpose). */
const FINGERPRINT_PURPOSE = 'idempotency-fingerprint';

export interface IdempotentRequest {
  operatorId: number;
  /** The key holder's namespace: `partner:<marketplace>`, `key:<API key ID>` or `basket:<basket ID>`. */
  holder: string;
  /** The method and route pattern, e.g. `POST /api/v2/ota/:partner/booking`. */
  route: string;
  /** The Idempotency-Key header, if sent. */
  key: string | undefined;
  /** What makes two requests "the same": path parameters and body (never a card number). */
  fingerprint: unknown;
  /** Writes of the same group may share a transaction and its commit (Db.writeGrouped). */
  group?: string;
}

/** The namespace of an authenticated caller: its marketplace for an ota key, else the key itself. */
export function holderOf(caller: { keyId: number | null; userId: number | null; partner: string | null }): string {
  if (caller.partner !== null) return `partner:${caller.partner}`;
  return caller.keyId !== null ? `key:${caller.keyId}` : `user:${caller.userId}`;
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

/** Runs `write` in one write transaction, at most once per (operator, holder, route, key) within 24 hours. */
export async function runIdempotently(
  db: Db,
  keys: InstanceKeys,
  request: IdempotentRequest,
  write: (tx: Tx) => Promise<WriteResult>,
): Promise<{ result: WriteResult; replayed: boolean }> {
  const { key, group } = request;
  const inTransaction = <T>(fn: (tx: Tx) => Promise<T>) => (group === undefined ? db.write(fn) : db.writeGrouped(group, fn));
  if (key === undefined) return { result: await inTransaction(write), replayed: false };
  if (key.length < 1 || key.length > MAX_KEY_LENGTH) {
    throw ValidationFailed.field('Idempotency-Key', `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters`);
  }
  const scope: RecordScope = { operatorId: request.operatorId, holder: request.holder, route: request.route, key };
  const hash = keys.hmac(FINGERPRINT_PURPOSE, JSON.stringify(request.fingerprint));

  // The common retry needs no write lock at all.
  const earlier = await findRecord(db.kysely, scope);
  if (earlier && isLive(earlier)) return replay(earlier, hash);
  const old = await legacyAnswer(db, { operatorId: request.operatorId, holder: request.holder, key, fingerprint: legacyFingerprint(request) });
  if (old) return { result: old, replayed: true };

  const slot = JSON.stringify([scope.operatorId, scope.holder, scope.route, scope.key]);
  if (running.has(slot)) throw new IdempotencyInFlight();
  running.add(slot);
  try {
    return await inTransaction(async (tx) => {
      // A grouped write's lock is held until its group commits: a twin in another process meanwhile is in flight.
      if (!(await tryLockForTransaction(tx, `idempotency:${slot}`))) throw new IdempotencyInFlight();
      const existing = await findRecord(tx, scope);
      if (existing && isLive(existing)) return replay(existing, hash);
      if (existing) await deleteRecord(tx, scope);
      const result = await write(tx);
      // A failure that still had to write something (a declined payment's attempt) is answered, not recorded.
      if (result.statusCode >= 400) return { result, replayed: false };
      await insertRecord(tx, {
        operator_id: scope.operatorId,
        holder: scope.holder,
        route: scope.route,
        idempotency_key: key,
        request_hash: hash,
        status_code: result.statusCode,
        response_body: JSON.stringify(result.body),
        response_location: result.location ?? null,
        created_at: nowMillis(),
      });
      return { result, replayed: false };
    });
  } finally {
    running.delete(slot);
  }
}

/** What the records before migration 008 fingerprinted: method, route pattern, then the caller's fingerprint. */
function legacyFingerprint(request: IdempotentRequest): unknown {
  const [method, url] = request.route.split(' ');
  return Array.isArray(request.fingerprint) ? [method, url, ...(request.fingerprint as unknown[])] : request.fingerprint;
}

function isLive(record: IdempotencyRecord): boolean {
  return record.created_at > addMillis(nowMillis(), -IDEMPOTENCY_WINDOW_MS);
}

function replay(record: IdempotencyRecord, hash: string): { result: WriteResult; replayed: boolean } {
  if (record.request_hash !== hash) throw new IdempotencyKeyReuse();
  const result: WriteResult = { statusCode: record.status_code, body: JSON.parse(record.response_body), text: record.response_body };
  if (record.response_location) result.location = record.response_location;
  return { result, replayed: true };
}

/** Deletes records past the 24-hour window; returns how many. */
export async function purgeExpiredKeys(db: Db): Promise<number> {
  await purgeLegacyRecords(db);
  return deleteRecordsBefore(db.kysely, addMillis(nowMillis(), -IDEMPOTENCY_WINDOW_MS));
}
