// Rate limits that hold across every process on the database, without a database round trip per request.
//
// Each bucket (an API key, a client address, an address's failed sign-ins) has one row in
// rate_limit_buckets: the start of its current window and the permits taken in it by all processes. A
// process takes permits from the row in leases (one upsert each, which also starts a new window when the
// old one has passed) and hands them to requests from memory. Leases start at one permit and double with
// each lease of the bucket, up to a tenth of the limit, and the next lease is taken in the background
// once half of the current one is used: a busy bucket costs its process a few upserts a minute and its
// requests never wait, an idle one costs nothing.
//
// What it promises: no more than `max` permits per window across all processes (the rows are the only
// source of permits). A permit leased but unused when the window ends is lost, so a bucket shared by P
// processes may get up to P leases (P x max / 10) fewer than `max`. A process's clock decides when a window
// it leased in has passed; clocks a few milliseconds apart shift windows by as much. While the database
// does not answer, each process counts alone (so N processes allow N x max), and says so in the log.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/connection.js';
import { deleteBucketsBefore, leasePermits } from './store.js';
import { addMillis, nowMillis } from '../lib/clock.js';

export interface Grant {
  allowed: boolean;
  /** Permits left in the window, as far as this process knows. */
  remaining: number;
  /** Milliseconds until the window ends. */
  resetMs: number;
}

interface Bucket {
  /** When the window this process holds permits of ends (0 before its first lease). */
  windowEnd: number;
  /** Permits this process holds. */
  leased: number;
  /** Permits taken from the row, by every process, as of this process's last lease. */
  granted: number;
  /** Permits this process has handed out in the window (for counting alone while the database is away). */
  used: number;
  /** The row had fewer permits left than this process asked for: the window is used up. */
  exhausted: boolean;
  lastLease: number;
  leasing: Promise<void> | undefined;
}

const MAX_BUCKETS = 100_000;
const PURGE_EVERY_MS = 60_000;
const WARN_EVERY_MS = 10_000;

export class SharedLimiter {
  readonly #db: Db;
  readonly #log: FastifyBaseLogger;
  readonly #buckets = new Map<string, Bucket>();
  #purge: NodeJS.Timeout | undefined;
  #warnedAt = 0;

  constructor(db: Db, log: FastifyBaseLogger) {
    this.#db = db;
    this.#log = log;
  }

  /** Takes one permit of `bucket` (at most `max` per window of `windowMs`): at once when this process holds one. */
  take(bucket: string, max: number, windowMs: number): Grant | Promise<Grant> {
    const now = Date.now();
    const state = this.#bucket(bucket, now);
    if (state.leased > 0) {
      state.leased -= 1;
      state.used += 1;
      if (state.leased < state.lastLease / 2 && !state.leasing && !state.exhausted) void this.#leaseOnce(bucket, state, max, windowMs);
      return this.#grant(true, state, max, now);
    }
    if (state.exhausted) return this.#grant(false, state, max, now);
    return this.#leaseOnce(bucket, state, max, windowMs).then(() => this.take(bucket, max, windowMs));
  }

  /** Whether this process already knows the bucket's window is used up (no database work either way). */
  exhausted(bucket: string): Grant | undefined {
    const now = Date.now();
    const state = this.#buckets.get(bucket);
    return state?.exhausted && state.leased === 0 && now < state.windowEnd
      ? { allowed: false, remaining: 0, resetMs: state.windowEnd - now }
      : undefined;
  }

  stop(): void {
    clearInterval(this.#purge);
    this.#purge = undefined;
  }

  #bucket(name: string, now: number): Bucket {
    let state = this.#buckets.get(name);
    if (state && state.windowEnd !== 0 && now >= state.windowEnd && !state.leasing) {
      Object.assign(state, { windowEnd: 0, leased: 0, granted: 0, used: 0, exhausted: false });
    }
    if (!state) {
      // Crude but bounded: the oldest bucket goes (and with it at most one lease of permits).
      if (this.#buckets.size >= MAX_BUCKETS) this.#buckets.delete(this.#buckets.keys().next().value!);
      state = { windowEnd: 0, leased: 0, granted: 0, used: 0, exhausted: false, lastLease: 0, leasing: undefined };
      this.#buckets.set(name, state);
    }
    return state;
  }

  #grant(allowed: boolean, state: Bucket, max: number, now: number): Grant {
    const remaining = allowed ? Math.max(0, max - Math.min(max, state.granted) + state.leased) : 0;
    return { allowed, remaining, resetMs: Math.max(0, state.windowEnd - now) };
  }

  /** One lease at a time per bucket; callers that arrive meanwhile wait for it. */
  #leaseOnce(bucket: string, state: Bucket, max: number, windowMs: number): Promise<void> {
    state.leasing ??= this.#lease(bucket, state, max, windowMs).finally(() => (state.leasing = undefined));
    return state.leasing;
  }

  async #lease(bucket: string, state: Bucket, max: number, windowMs: number): Promise<void> {
    const want = Math.max(1, Math.min(Math.ceil(max / 10), state.lastLease * 2));
    state.lastLease = want;
    const now = nowMillis();
    try {
      const row = await leasePermits(this.#db.kysely, bucket, want, now, windowMs);
      const windowEnd = row.windowStart + windowMs;
      if (windowEnd !== state.windowEnd) Object.assign(state, { leased: 0, used: 0, exhausted: false, windowEnd });
      const before = row.granted - want;
      const got = Math.max(0, Math.min(want, max - before));
      state.leased += got;
      state.granted = row.granted;
      if (got < want) state.exhausted = true;
    } catch (error) {
      // Counting alone until the database answers again: this process keeps to `max` by itself.
      if (state.windowEnd === 0) state.windowEnd = now + windowMs;
      state.leased += Math.max(0, Math.min(want, max - state.used - state.leased));
      if (state.used + state.leased >= max) state.exhausted = true;
      if (now - this.#warnedAt > WARN_EVERY_MS) {
        this.#warnedAt = now;
        this.#log.warn({ err: error }, 'rate limit: the database does not answer; each process counts alone');
      }
    }
    this.#purge ??= setInterval(() => void this.#purgeOld(windowMs), PURGE_EVERY_MS).unref();
  }

  /** Rows whose window ended a window ago: nobody leases from them any more. */
  async #purgeOld(windowMs: number): Promise<void> {
    await deleteBucketsBefore(this.#db.kysely, addMillis(nowMillis(), -2 * windowMs)).catch(() => undefined);
  }
}
