// Records written before migration 008, when a key counted for the whole operator and the fingerprint was
// an unsalted SHA-256. They live at most 24 hours, and a retry that arrives across the upgrade must still
// find its first answer (else a booking could be made twice), so they are kept in a table of their own
// and read until the last of them lapses; then this costs nothing (the window is read once per process).
//
// What they may answer: only a request with the same fingerprint (method, route, path parameters, body),
// and a partner booking only to its own marketplace (its Location names it). A different request with the
// same key is not refused as a reuse: the record may be another holder's, whose namespace is not ours.
// The shop's records were deleted by the migration (their fingerprints could hold a card number).
import { createHash } from 'node:crypto';
import type { Db } from '../db/connection.js';
import { IDEMPOTENCY_WINDOW_MS, type WriteResult } from './window.js';
import { deleteLegacyRecordsBefore, findLegacyRecord, newestLegacyRecord } from './store.js';
import { addMillis, nowMillis } from '../lib/clock.js';

const windows = new WeakMap<Db, Promise<number>>();

/** Until when (Unix ms) a legacy record may still be live; 0 when there are none. */
function legacyUntil(db: Db): Promise<number> {
  let until = windows.get(db);
  if (!until) {
    until = newestLegacyRecord(db.kysely).then((newest) => (newest === undefined ? 0 : newest + IDEMPOTENCY_WINDOW_MS));
    windows.set(db, until);
  }
  return until;
}

/** The first answer to this request if a live record from before the upgrade holds it. */
export async function legacyAnswer(
  db: Db,
  request: { operatorId: number; holder: string; key: string; fingerprint: unknown },
): Promise<WriteResult | undefined> {
  const now = nowMillis();
  if ((await legacyUntil(db)) <= now) return undefined;
  const record = await findLegacyRecord(db.kysely, request.operatorId, request.key, addMillis(now, -IDEMPOTENCY_WINDOW_MS));
  if (!record) return undefined;
  if (record.request_hash !== createHash('sha256').update(JSON.stringify(request.fingerprint)).digest('hex')) return undefined;
  const marketplace = /^\/api\/v2\/ota\/([^/]+)\//.exec(record.response_location ?? '')?.[1];
  if (marketplace !== undefined && request.holder !== `partner:${marketplace}`) return undefined;
  const result: WriteResult = { statusCode: record.status_code, body: JSON.parse(record.response_body), text: record.response_body };
  if (record.response_location) result.location = record.response_location;
  return result;
}

/** Deletes legacy records past the 24-hour window (the table stays, empty, until a later migration drops it). */
export async function purgeLegacyRecords(db: Db): Promise<void> {
  await deleteLegacyRecordsBefore(db.kysely, addMillis(nowMillis(), -IDEMPOTENCY_WINDOW_MS));
}
