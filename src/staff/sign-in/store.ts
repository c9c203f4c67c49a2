// SQL of the sign-in throttles (staff_throttles): counters per key (a client address, an e-mail address)
// in fixed windows, and the address's back-off after failures (throttles.ts says what they limit).
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Tx } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';
import { addMillis, nowMillis, type UnixMillis } from '../../lib/clock.js';

/**
 * Counts one event against `key` in a fixed window; answers the count including this one. The window
 * starts again once it has passed. One statement, so concurrent requests count exactly.
 */
export async function countEvent(tx: Tx, key: string, windowMs: number, now = nowMillis()): Promise<number> {
  const row = await tx
    .insertInto('staff_throttles')
    .values({ key, count: 1, window_started_at: now })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet((eb) => ({
        count: eb
          .case()
          .when('staff_throttles.window_started_at', '<=', addMillis(now, -windowMs))
          .then(1)
          .else(eb('staff_throttles.count', '+', 1))
          .end(),
        window_started_at: eb
          .case()
          .when('staff_throttles.window_started_at', '<=', addMillis(now, -windowMs))
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
function liveRun(eb: ExpressionBuilder<Database, 'staff_throttles'>, policy: BackoffPolicy, now: UnixMillis) {
  return eb.or([
    eb.and([eb('staff_throttles.count', '<', policy.limit), eb('staff_throttles.window_started_at', '>', addMillis(now, -policy.windowMs))]),
    eb.and([eb('staff_throttles.count', '>=', policy.limit), eb('staff_throttles.last_at', '>', addMillis(now, -policy.windowMs))]),
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
export async function takeBackoffAttempt(db: Kysely<Database>, key: string, policy: BackoffPolicy, now = nowMillis()): Promise<number> {
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
            // An instant plus a wait, compared as numbers of milliseconds.
            eb(eb(eb.ref('staff_throttles.last_at').$castTo<number>(), '+', waitInSql(eb, policy)), '<=', now),
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
export async function backoffFailed(db: Kysely<Database>, key: string, now = nowMillis()): Promise<void> {
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
