// The webhook worker. Every server process runs one; they share nothing but the database. A cycle runs
// the dispatcher (dispatch.ts: lapsed holds, availability notes, fan-out) and delivers what is due
// (deliver.ts); cycles follow each other at once while there is work, and every second otherwise.
//
// Deliveries yield to requests: the worker measures how busy the event loop was while it was not running
// (its own work is all inside a cycle) and, when requests keep it busy, runs one small cycle every two
// seconds. A burst of bookings then pays for writing its events, not for sending them; the backlog goes
// out as soon as the burst is over (docs/webhooks.md, "Scale").
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/connection.js';
import type { InstanceKeys } from '../secrets/keys.js';
import { unixNow } from '../availability/seats.js';
import { newWorkerId } from '../emails/worker.js';
import { dispatchEvents } from './dispatch.js';
import { runDueDeliveries, type DeliveryDeps } from './deliver.js';
import { purgeOldDeliveries } from './delivery-store.js';
import type { Transport } from './transport.js';

const IDLE_MS = 1_000;
/** While requests keep the process busy: a small cycle this often, so that deliveries trickle on (about 25 a second). */
const BUSY_MS = 2_000;
/** The least time between cycles: long enough to see how busy the process is without the worker. */
const MEASURE_MS = 10;
/** Event-loop utilisation, outside the worker, above which the process counts as busy serving requests. */
const BUSY_UTILISATION = 0.5;
const KEEP_DAYS = 30;
const PURGE_EVERY_MS = 3_600_000;

/**
 * Starts this process's worker, sending through `transport` (the app's: in production it reaches only what
 * the address policy allows); returns the function that stops it and waits for a running cycle.
 */
export function startWebhookWorker(db: Db, transport: Transport, keys: InstanceKeys, log: FastifyBaseLogger): () => Promise<void> {
  const deps: DeliveryDeps = { transport, keys, workerId: newWorkerId() };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let lastPurge = 0;

  const cycle = async (busy: boolean): Promise<boolean> => {
    const now = unixNow();
    // Busy serving requests: one small step of each; otherwise as much as a few seconds allow.
    const dispatched = await dispatchEvents(db, now, busy ? 200 : 1000, busy ? 1 : 10);
    const delivered = await runDueDeliveries(db, deps, now, busy ? 50 : 500, busy ? 1 : 10);
    if (Date.now() - lastPurge > PURGE_EVERY_MS) {
      lastPurge = Date.now();
      await purgeOldDeliveries(db, Date.now() - KEEP_DAYS * 86_400_000);
    }
    return dispatched.events + dispatched.availability + delivered.delivered + delivered.retrying + delivered.failed > 0;
  };

  const plan = (delay: number) => {
    if (stopped) return;
    const before = performance.eventLoopUtilization();
    timer = setTimeout(() => {
      const busy = performance.eventLoopUtilization(before).utilization > BUSY_UTILISATION;
      running = cycle(busy)
        .then(
          (worked) => plan(busy ? BUSY_MS : worked ? MEASURE_MS : IDLE_MS),
          (error: unknown) => {
            log.warn({ err: error }, 'webhook worker cycle failed; retrying shortly');
            plan(IDLE_MS);
          },
        )
        .finally(() => (running = undefined));
    }, delay);
    timer.unref();
  };
  plan(IDLE_MS);

  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
