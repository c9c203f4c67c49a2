// The webhook worker. Every server process runs one; they share nothing but the database. Two loops run
// side by side, so that the database's work of the one overlaps the network's of the other:
//
//   - dispatch (dispatch.ts): lapsed holds, availability notes, and the fan-out of new events into
//     deliveries, a transaction at a time;
//   - delivery (deliver.ts): claim, send and settle due deliveries as a pipeline.
//
// Each loop goes on at once while it has work, waits a second when it has none (the dispatcher wakes the
// delivery loop as soon as it made deliveries), and gives way to requests. While requests keep the process
// busy (RequestGauge: on average one or more requests in flight), the loops take no step at all until the
// requests let up: a burst of bookings pays for writing its events, not for sending them, and the backlog
// goes out at full speed as soon as the burst is over. Under a load that does not end, a loop that has
// waited DEFER_MS takes small steps again, each followed by a rest 19 times as long as the step took, so
// that the two take about a tenth of the process and the backlog still drains (docs/webhooks.md,
// "Delivery").
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/connection.js';
import type { InstanceKeys } from '../../secrets/keys.js';
import type { RequestGauge } from '../../http/request-gauge.js';
import { addMillis, nowMillis, unixNow } from '../../lib/clock.js';
import { tallyQueue } from '../../hooks/tallies.js';
import { newWorkerId } from '../../emails/worker.js';
import { dispatchEvents } from './dispatch.js';
import { runDueDeliveries, type DeliveryDeps } from './deliver.js';
import { purgeOldDeliveries } from './store.js';
import type { Transport } from './transport.js';

const IDLE_MS = 1_000;
/** Requests in flight on average at or above which the server counts as busy. */
const BUSY_LOAD = 1;
/** A loop waits for the requests to let up this long at most, then takes small steps... */
export const DEFER_MS = 30_000;
/** ...each followed by a rest this many times as long as it took (a twentieth of the time each)... */
const BUSY_REST_FACTOR = 19;
/** ...but at least and at most this long (a step that waited on a slow endpoint says little of our cost). */
const BUSY_REST_MIN_MS = 50;
const BUSY_REST_MAX_MS = 2_000;
/** How often a waiting or resting loop looks whether the requests are gone. */
const BUSY_CHECK_MS = 50;
/** A delivery run while not busy ends after this long, so that the next starts from the time then. */
const RUN_MS = 10_000;
const KEEP_DAYS = 30;
const PURGE_EVERY_MS = 3_600_000;

/** How long a loop rests after a step (ms); a busy step is one taken after waiting DEFER_MS (see the header). */
export function restAfter(step: { worked: boolean; busy: boolean; tookMs: number }): number {
  if (!step.worked) return IDLE_MS;
  if (!step.busy) return 0;
  return Math.min(BUSY_REST_MAX_MS, Math.max(BUSY_REST_MIN_MS, step.tookMs * BUSY_REST_FACTOR));
}

export interface WorkerOptions {
  /** How long a loop waits for busy requests to let up before it takes small steps (default DEFER_MS). */
  deferMs?: number;
  /** The service's public address, before the photo addresses of product events (default: none, paths alone). */
  publicUrl?: string;
}

/**
 * Starts this process's worker, sending through `transport` (the app's: in production it reaches only what
 * the address policy allows); returns the function that stops it and waits for the steps under way.
 */
export function startWebhookWorker(
  db: Db,
  transport: Transport,
  keys: InstanceKeys,
  log: FastifyBaseLogger,
  requests: RequestGauge,
  { deferMs = DEFER_MS, publicUrl = '' }: WorkerOptions = {},
): () => Promise<void> {
  const deps: DeliveryDeps = { transport, keys, workerId: newWorkerId() };
  let stopped = false;
  let lastPurge = 0;
  const busy = () => requests.load() >= BUSY_LOAD;

  const dispatching = loop('dispatch', async (busyNow) => {
    const report = await dispatchEvents(db, unixNow(), busyNow ? 200 : 1000, busyNow ? 1 : 3, publicUrl);
    if (report.deliveries > 0) delivering.wake();
    if (Date.now() - lastPurge > PURGE_EVERY_MS) {
      lastPurge = Date.now();
      await purgeOldDeliveries(db, addMillis(nowMillis(), -KEEP_DAYS * 86_400_000));
    }
    return report.expired + report.availability + report.events > 0;
  });
  const delivering = loop('delivery', async (busyNow) => {
    const until = Date.now() + RUN_MS;
    const limits = busyNow ? { room: 100, maxClaims: 1 } : { keepGoing: () => !stopped && !busy() && Date.now() < until };
    const report = await runDueDeliveries(db, deps, unixNow(), limits);
    tallyQueue('webhook', { sent: report.delivered, retrying: report.retrying, failed: report.failed });
    return report.delivered + report.retrying + report.failed > 0;
  });

  /** Runs `step` again and again, waiting and resting as the header says; `wake` cuts an idle rest short. */
  function loop(name: string, step: (busy: boolean) => Promise<boolean>) {
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<void> | undefined;
    let resting = false;
    /** Since when this loop has found the server busy at every look (undefined while it is not). */
    let busySince: number | undefined;
    const later = (run: () => void, delay: number) => {
      timer = setTimeout(run, delay);
      timer.unref();
    };
    const next = (delay: number, busyRest = false) => {
      if (stopped) return;
      resting = delay === IDLE_MS;
      if (!busyRest) return later(run, delay);
      // A rest that yields to requests ends as soon as they are gone: the backlog should not wait.
      const until = performance.now() + delay;
      const check = () => (performance.now() >= until || !busy() ? run() : later(check, BUSY_CHECK_MS));
      later(check, Math.min(delay, BUSY_CHECK_MS));
    };
    const run = () => {
      resting = false;
      if (stopped) return;
      const started = performance.now();
      const busyNow = busy();
      busySince = busyNow ? (busySince ?? started) : undefined;
      // Busy, and not for long yet: no step at all until the requests let up.
      if (busyNow && started - busySince! < deferMs) return later(run, BUSY_CHECK_MS);
      running = step(busyNow)
        .then(
          (worked) => next(restAfter({ worked, busy: busyNow, tookMs: performance.now() - started }), worked && busyNow),
          (error: unknown) => {
            log.warn({ err: error }, `webhook ${name} step failed; retrying shortly`);
            next(IDLE_MS);
          },
        )
        .finally(() => (running = undefined));
    };
    next(IDLE_MS);
    return {
      wake() {
        if (!resting || stopped) return;
        clearTimeout(timer);
        next(0);
      },
      async stop() {
        clearTimeout(timer);
        await running;
      },
    };
  }

  return async () => {
    stopped = true;
    await Promise.all([dispatching.stop(), delivering.stop()]);
  };
}
