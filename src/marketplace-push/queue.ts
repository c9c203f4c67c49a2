// The one push queue of the marketplaces slotbook connects to (GetYourGuide, Viator): when a mapped
// product's seats change for any reason, the marketplace is told within seconds, never on the booking's
// request path and never as a full dump. The webhooks' dispatcher coalesces the seat notes per timeslot
// and hands the due timeslots to the listeners the composition registered (reactions.ts); each channel
// names the timeslots it sells (`targets`) and they are queued here, one row per channel and timeslot.
// Each process runs each channel's sender: it groups what is due per product, lets the channel render
// each group as it is now (`prepare`), sends urgent ones (a sell-out) first, and retries failures with
// back-off: 10 s doubling to an hour, the marketplace's Retry-After after a 429, dropped after
// MAX_ATTEMPTS; a channel that names its metrics queue has each outcome counted (hooks/tallies.ts) and its
// depth and age read at each scrape (pushQueueStats). What a channel says and how is its own (its body, its
// credentials, its answers, its traces).
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Db, Tx } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { startPeriodic } from '../lib/periodic.js';
import { tallyQueue, type QueueName } from '../hooks/tallies.js';
import { duePushes, finishPushes, postponePushes, queuePushes, type PushRow, type PushTarget } from './store.js';
import { addMillis, nowMillis, type UnixMillis } from '../lib/clock.js';

const BATCH = 200;
const EVERY_MS = 2_000;
/** Back-off after a failure: 10 s, doubling, at most an hour; after MAX_ATTEMPTS the change is dropped. */
const FIRST_RETRY_MS = 10_000;
const MAX_RETRY_MS = 3_600_000;
export const MAX_ATTEMPTS = 10;

/** How a push was answered: 2xx is done; 429 waits for Retry-After; anything else is retried with back-off. */
export interface PushAnswer {
  status: number;
  retryAfter: string | null;
  /** A failure before any answer (connection refused, time-out). */
  error?: string;
}

/** One product's due timeslots, rendered by the channel as they are now. */
export interface PreparedPush {
  /** Sent before the others of the pass (a sell-out: the marketplace must stop selling first). */
  urgent: boolean;
  send(): Promise<PushAnswer>;
}

export interface PushGroup {
  operatorId: number;
  productId: string;
  timeslotIds: number[];
}

export interface PushChannel {
  /** The queue's channel name. */
  name: string;
  /** For the log. */
  label: string;
  /** The `queue` label of its outcomes in the metrics (slotbook_queue_outcomes_total); none: not counted. */
  metric?: QueueName;
  /** Of these changed timeslots, those this channel sells and may push now (a mapped product on a connection that pushes). */
  targets(tx: Tx, timeslotIds: number[]): Promise<PushTarget[]>;
  /** The group as it is now; undefined when there is nothing to tell any more (switched off, unmapped, gone). */
  prepare(db: Kysely<Database>, group: PushGroup, nowMs: UnixMillis): Promise<PreparedPush | undefined>;
}

/** The listener of the webhooks' coalesced availability for one channel (wired in reactions.ts). */
export const queueFor =
  (channel: PushChannel) =>
  async (tx: Tx, timeslotIds: number[], nowMs: UnixMillis): Promise<void> => {
    if (timeslotIds.length === 0) return;
    await queuePushes(tx, channel.name, await channel.targets(tx, timeslotIds), nowMs);
  };

const retryDelay = (attempts: number, retryAfter: string | null): number => {
  const seconds = retryAfter === null ? Number.NaN : Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(MAX_RETRY_MS, seconds * 1000);
  const date = retryAfter === null ? Number.NaN : Date.parse(retryAfter);
  if (Number.isFinite(date)) return Math.min(MAX_RETRY_MS, Math.max(0, date - Date.now()));
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** attempts);
};

/** One pass of a channel's sender: sends what is due, one request per product, urgent ones first. Returns the requests made. */
export async function sendDuePushes(db: Db, channel: PushChannel, log: Pick<FastifyBaseLogger, 'warn'>, nowMs = nowMillis()): Promise<number> {
  const due = await duePushes(db.kysely, channel.name, nowMs, BATCH);
  if (due.length === 0) return 0;
  const groups = new Map<string, { group: PushGroup; pushes: PushRow[] }>();
  for (const push of due) {
    const key = `${push.operator_id} ${push.product_id}`;
    const entry =
      groups.get(key) ??
      groups.set(key, { group: { operatorId: push.operator_id, productId: push.product_id, timeslotIds: [] }, pushes: [] }).get(key)!;
    entry.group.timeslotIds.push(push.timeslot_id);
    entry.pushes.push(push);
  }
  const ready: { group: PushGroup; pushes: PushRow[]; prepared: PreparedPush }[] = [];
  const dropped: PushRow[] = [];
  for (const { group, pushes } of groups.values()) {
    const prepared = await channel.prepare(db.kysely, group, nowMs);
    if (prepared) ready.push({ group, pushes, prepared });
    else dropped.push(...pushes);
  }
  if (dropped.length > 0) await db.write((tx) => finishPushes(tx, dropped));
  ready.sort((a, b) => Number(b.prepared.urgent) - Number(a.prepared.urgent));

  for (const { group, pushes, prepared } of ready) {
    let answer: PushAnswer;
    try {
      answer = await prepared.send();
    } catch (error) {
      answer = { status: 0, retryAfter: null, error: error instanceof Error ? error.message : String(error) };
    }
    if (answer.status >= 200 && answer.status < 300) {
      await db.write((tx) => finishPushes(tx, pushes));
      if (channel.metric) tallyQueue(channel.metric, { sent: 1 });
      continue;
    }
    const attempts = Math.max(...pushes.map((push) => push.attempts));
    const why = answer.error ?? `HTTP ${answer.status}`;
    if (attempts + 1 >= MAX_ATTEMPTS) {
      log.warn({ operatorId: group.operatorId, productId: group.productId, why }, `${channel.label} push given up`);
      await db.write((tx) => finishPushes(tx, pushes));
      if (channel.metric) tallyQueue(channel.metric, { failed: 1 });
      continue;
    }
    if (channel.metric) tallyQueue(channel.metric, { retrying: 1 });
    const next = addMillis(nowMs, retryDelay(attempts, answer.status === 429 ? answer.retryAfter : null));
    await db.write((tx) => postponePushes(tx, pushes, next, why));
  }
  return ready.length;
}

/** The sender of one channel in this process; safe with any number of processes (a push sent twice tells the same). */
export function startPushes(db: Db, channel: PushChannel, log: FastifyBaseLogger): () => Promise<void> {
  return startPeriodic(log, `${channel.label} push`, EVERY_MS, () => sendDuePushes(db, channel, log));
}
