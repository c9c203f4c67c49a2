// A short-lived, in-process cache of API key rows by lookup id, so that the key check on every request
// does not cost a database query. Profiling the partner reads put the lookup at about 5% of the busy time
// (docs/benchmarks.md).
//
// What it may and may not change:
// - The secret is still compared (in constant time) on every request against the cached hash, so a wrong
//   secret is refused exactly as before. Unknown keys are not cached, so garbage keys cannot fill it.
// - Revoking through this process (DELETE /api/v2/admin/keys/{ID}) drops the key here at once, and the
//   revocation is signalled to the other processes on the database (db/signals.ts), which drop it as they
//   hear it: within milliseconds on PostgreSQL, within 100 ms on SQLite. Should a signal be lost (the
//   database away, a listener reconnecting), a cached row is still re-read after KEY_CACHE_TTL_MS: that
//   is the bound we promise whatever happens.
// - One cache per database handle, so that two apps in one process (tests) never share keys.
import type { Db, Signal } from '../db/connection.js';
import { findKeyByLookupId, type ApiKeyRecord } from './store.js';

export const KEY_CACHE_TTL_MS = 5_000;
const MAX_CACHED_KEYS = 10_000;
const KEY_REVOKED = 'key-revoked';

interface Cached {
  record: ApiKeyRecord;
  expiresAt: number;
}

interface KeyCache {
  keys: Map<string, Cached>;
  /** Bumped by every revocation, so that a read that started before it never caches what it read. */
  generation: number;
}

const caches = new WeakMap<Db, KeyCache>();

function cacheOf(db: Db): KeyCache {
  let cache = caches.get(db);
  if (!cache) {
    const created: KeyCache = { keys: new Map(), generation: 0 };
    db.signals.subscribe((signal: Signal | undefined) => {
      if (!signal) forgetAll(created);
      else if (signal.topic === KEY_REVOKED) forget(created, signal.id);
    });
    caches.set(db, (cache = created));
  }
  return cache;
}

/** The key's row, from the cache while it is fresh, else from the database. */
export async function findKeyCached(db: Db, lookupId: string): Promise<ApiKeyRecord | undefined> {
  const cache = cacheOf(db);
  const now = Date.now();
  const hit = cache.keys.get(lookupId);
  if (hit && hit.expiresAt > now) return hit.record;
  const generation = cache.generation;
  const record = await findKeyByLookupId(db.kysely, lookupId);
  if (!record || record.revokedAt !== null || generation !== cache.generation) {
    cache.keys.delete(lookupId);
    return record;
  }
  // Crude but bounded: a process that has seen this many distinct keys in 5 seconds starts over.
  if (cache.keys.size >= MAX_CACHED_KEYS) cache.keys.clear();
  cache.keys.set(lookupId, { record, expiresAt: now + KEY_CACHE_TTL_MS });
  return record;
}

/** Forgets the key with this row ID here and in every other process (it was revoked here). */
export function forgetRevokedKey(db: Db, keyId: number): void {
  const cache = caches.get(db);
  if (cache) forget(cache, keyId);
  db.signals.publish(KEY_REVOKED, keyId);
}

function forget(cache: KeyCache, keyId: number): void {
  cache.generation += 1;
  for (const [lookupId, cached] of cache.keys) if (cached.record.id === keyId) cache.keys.delete(lookupId);
}

function forgetAll(cache: KeyCache): void {
  cache.generation += 1;
  cache.keys.clear();
}
