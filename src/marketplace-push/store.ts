// SQL of the shared marketplace push queue (migration 040): one row per channel and timeslot.
import type { Kysely, Selectable } from 'kysely';
import type { Tx } from '../db/connection.js';
import type { Database, MarketplacePushTable } from '../db/schema.js';
import { asUnixMillis, type UnixMillis } from '../lib/clock.js';

export type PushRow = Selectable<MarketplacePushTable>;

export interface PushTarget {
  timeslotId: number;
  operatorId: number;
  productId: string;
}

/**
 * Queues a push of each target for `channel`. A timeslot already queued keeps one row, due now again with
 * its attempts reset: its latest state is sent.
 */
export async function queuePushes(tx: Tx, channel: string, targets: PushTarget[], nowMs: UnixMillis): Promise<void> {
  if (targets.length === 0) return;
  await tx
    .insertInto('marketplace_pushes')
    .values(
      targets.map((target) => ({
        channel,
        timeslot_id: target.timeslotId,
        operator_id: target.operatorId,
        product_id: target.productId,
        queued_at: nowMs,
        next_attempt_at: nowMs,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['channel', 'timeslot_id']).doUpdateSet((eb) => ({
        operator_id: eb.ref('excluded.operator_id'),
        product_id: eb.ref('excluded.product_id'),
        queued_at: eb.ref('excluded.queued_at'),
        next_attempt_at: eb.ref('excluded.next_attempt_at'),
        attempts: 0,
        last_error: null,
      })),
    )
    .execute();
}

/** The channel's pushes due at `nowMs`, oldest first. */
export async function duePushes(db: Kysely<Database>, channel: string, nowMs: UnixMillis, limit: number): Promise<PushRow[]> {
  return db
    .selectFrom('marketplace_pushes')
    .selectAll()
    .where('channel', '=', channel)
    .where('next_attempt_at', '<=', nowMs)
    .orderBy('next_attempt_at')
    .orderBy('timeslot_id')
    .limit(limit)
    .execute();
}

/** Done: removed, unless a newer change was queued for the timeslot meanwhile (then that one is still due). */
export async function finishPushes(tx: Tx, pushes: Pick<PushRow, 'channel' | 'timeslot_id' | 'queued_at'>[]): Promise<void> {
  for (const push of pushes) {
    await tx
      .deleteFrom('marketplace_pushes')
      .where('channel', '=', push.channel)
      .where('timeslot_id', '=', push.timeslot_id)
      .where('queued_at', '=', push.queued_at)
      .execute();
  }
}

/** Tried again at `nextAttemptAt`, unless a newer change was queued meanwhile (due at once anyway). */
export async function postponePushes(
  tx: Tx,
  pushes: Pick<PushRow, 'channel' | 'timeslot_id' | 'queued_at'>[],
  nextAttemptAt: UnixMillis,
  error: string,
): Promise<void> {
  for (const push of pushes) {
    await tx
      .updateTable('marketplace_pushes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1), next_attempt_at: nextAttemptAt, last_error: error.slice(0, 500) }))
      .where('channel', '=', push.channel)
      .where('timeslot_id', '=', push.timeslot_id)
      .where('queued_at', '=', push.queued_at)
      .execute();
  }
}

/** How many pushes of the channel are waiting, per operator (the connection page's "queued"). */
export async function countQueued(db: Kysely<Database>, channel: string, operatorId: number): Promise<number> {
  const row = await db
    .selectFrom('marketplace_pushes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('channel', '=', channel)
    .where('operator_id', '=', operatorId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The channel's pushes due now, for the metrics, and the oldest one's due time (Unix ms). Index marketplace_pushes_due. */
export async function pushQueueStats(
  db: Kysely<Database>,
  channel: string,
  nowMs: UnixMillis,
): Promise<{ due: number; oldestDueAt: UnixMillis | null }> {
  const row = await db
    .selectFrom('marketplace_pushes')
    .select((eb) => [eb.fn.countAll<number>().as('due'), eb.fn.min('next_attempt_at').as('oldest')])
    .where('channel', '=', channel)
    .where('next_attempt_at', '<=', nowMs)
    .executeTakeFirstOrThrow();
  return { due: Number(row.due), oldestDueAt: row.oldest === null ? null : asUnixMillis(Number(row.oldest)) };
}
