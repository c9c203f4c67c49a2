// The Prometheus metrics of a process (docs/observability.md), through prom-client: requests per route
// pattern (rate and latency), database statements and the pool, the business as it happens (bookings and
// cancellations per channel, seats sold, holds lapsed: hooks/tallies.ts), the queues of e-mails, webhook
// deliveries and GetYourGuide pushes (its channel of the marketplaces' push queue), payments and refunds
// per state, and the process itself (event-loop lag, memory, CPU: prom-client's defaults). Counters count
// what this process did; what every process shares (queue depths, states) is read from the database when
// Prometheus scrapes, with indexed queries the stores publish. Built only when METRICS_PORT is set.
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db, QueryObserver } from '../db/connection.js';
import { installTallies } from '../hooks/tallies.js';
import { nowMillis, toMillis, toSeconds, type UnixMillis, type UnixSeconds } from '../lib/clock.js';
import { emailQueueStats } from '../emails/index.js';
import { deliveryQueueStats } from '../webhooks/index.js';
import { pushQueueStats } from '../marketplace-push/index.js';
import { GYG_CHANNEL } from '../getyourguide/push.js';
import { moneyCountsByStatus } from '../payments/index.js';
import { holdCounts } from '../bookings/index.js';

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const QUERY_BUCKETS = [0.0002, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
/** Scrapes closer together than this (several Prometheus servers) share one read of the database. */
const SHARED_READ_MS = 1_000;

export interface Metrics {
  readonly registry: Registry;
  /** Times every statement (give it to openDatabase). */
  readonly queries: QueryObserver;
  /** Counts the app's requests by route pattern; call before the routes are registered. */
  instrument(app: FastifyInstance): void;
  /** Reads the shared state (queues, pool, payments) from this database at each scrape. */
  watch(db: Db): void;
  close(): void;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  const on = { registers: [registry] };

  const requests = new Histogram({
    name: 'slotbook_http_request_duration_seconds',
    help: 'Requests by method, route pattern and status: their count (rate) and how long they took',
    labelNames: ['method', 'route', 'status'],
    buckets: HTTP_BUCKETS,
    ...on,
  });
  const queries = new Histogram({
    name: 'slotbook_db_query_duration_seconds',
    help: 'Database statements by operation and outcome, and how long they took',
    labelNames: ['operation', 'outcome'],
    buckets: QUERY_BUCKETS,
    ...on,
  });
  const bookings = new Counter({
    name: 'slotbook_bookings_total',
    help: 'Bookings confirmed and cancelled by this process, per channel',
    labelNames: ['channel', 'change'],
    ...on,
  });
  const seats = new Counter({
    name: 'slotbook_seats_sold_total',
    help: 'Seats of the bookings confirmed, per channel',
    labelNames: ['channel'],
    ...on,
  });
  const lapsed = new Counter({ name: 'slotbook_holds_lapsed_total', help: 'Holds whose time ran out, released by this process', ...on });
  const outcomes = new Counter({
    name: 'slotbook_queue_outcomes_total',
    help: 'Attempts of the e-mail, webhook and GetYourGuide queues by outcome (sent, retrying, failed: given up)',
    labelNames: ['queue', 'outcome'],
    ...on,
  });
  const readFailures = new Counter({ name: 'slotbook_metrics_read_failures_total', help: 'Scrapes whose database read failed', ...on });

  // The hot path pays for a map lookup and a bucket increment: one child per route, status and operation.
  const requestChildren = new Map<string, ReturnType<typeof requests.labels>>();
  const queryChildren = new Map<string, ReturnType<typeof queries.labels>>();
  const queryChild = (operation: string, outcome: string) => {
    const key = `${operation} ${outcome}`;
    let child = queryChildren.get(key);
    if (!child) queryChildren.set(key, (child = queries.labels(operation, outcome)));
    return child;
  };

  installTallies({
    booking(change, channel, count) {
      bookings.inc({ channel, change });
      if (change === 'confirmed') seats.inc({ channel }, count);
    },
    holdsLapsed: (count) => lapsed.inc(count),
    queue: (queue, outcome, count) => outcomes.inc({ queue, outcome }, count),
  });

  return {
    registry,
    queries: {
      start(operation) {
        const started = performance.now();
        return (error) => queryChild(operation, error === undefined ? 'ok' : 'error').observe((performance.now() - started) / 1000);
      },
    },
    instrument(app) {
      app.addHook('onResponse', (request, reply, done) => {
        const route = request.routeOptions.url;
        // An unmatched request's method is whatever the client sent: not a label.
        const key = route === undefined ? `unmatched ${reply.statusCode}` : `${request.method} ${route} ${reply.statusCode}`;
        let child = requestChildren.get(key);
        if (!child) {
          child =
            route === undefined
              ? requests.labels('other', 'unmatched', String(reply.statusCode))
              : requests.labels(request.method, route, String(reply.statusCode));
          requestChildren.set(key, child);
        }
        child.observe(reply.elapsedTime / 1000);
        done();
      });
    },
    watch(db) {
      watchDatabase(db, registry, readFailures);
    },
    close() {
      installTallies(undefined);
      registry.clear();
    },
  };
}

interface SharedState {
  email: { due: number; oldestDueAt: UnixSeconds | null; failed: number };
  webhook: { due: number; oldestDueAt: UnixSeconds | null };
  gyg: { due: number; oldestDueAt: UnixMillis | null };
  money: { payments: Record<string, number>; refunds: Record<string, number> };
  holds: { live: number; lapsed: number };
  nowMs: UnixMillis;
}

function watchDatabase(db: Db, registry: Registry, readFailures: Counter): void {
  let last: { at: number; read: Promise<SharedState | undefined> } | undefined;
  const readState = (): Promise<SharedState | undefined> => {
    const now = nowMillis();
    if (last && now - last.at < SHARED_READ_MS) return last.read;
    const read = (async () => {
      const seconds = toSeconds(now);
      const [email, webhook, gyg, money, holds] = await Promise.all([
        emailQueueStats(db.kysely, seconds),
        deliveryQueueStats(db.kysely, seconds),
        pushQueueStats(db.kysely, GYG_CHANNEL, now),
        moneyCountsByStatus(db.kysely),
        holdCounts(db.kysely, seconds),
      ]);
      return { email, webhook, gyg, money, holds, nowMs: now };
    })().catch(() => {
      // The database is unavailable: the gauges keep their last values, and this counter says why.
      readFailures.inc();
      return undefined;
    });
    last = { at: now, read };
    return read;
  };
  const on = { registers: [registry] };
  const age = (nowMs: UnixMillis, oldestMs: UnixMillis | null) => (oldestMs === null ? 0 : Math.max(0, (nowMs - oldestMs) / 1000));

  new Gauge({
    name: 'slotbook_queue_depth',
    help: 'Items due now and not yet done: e-mails, webhook deliveries, GetYourGuide pushes (all processes)',
    labelNames: ['queue'],
    ...on,
    async collect() {
      const state = await readState();
      if (!state) return;
      this.set({ queue: 'email' }, state.email.due);
      this.set({ queue: 'webhook' }, state.webhook.due);
      this.set({ queue: 'gyg_push' }, state.gyg.due);
    },
  });
  new Gauge({
    name: 'slotbook_queue_oldest_age_seconds',
    help: 'How long the oldest item due has waited past its due time (0: none waiting)',
    labelNames: ['queue'],
    ...on,
    async collect() {
      const state = await readState();
      if (!state) return;
      this.set({ queue: 'email' }, age(state.nowMs, state.email.oldestDueAt === null ? null : toMillis(state.email.oldestDueAt)));
      this.set({ queue: 'webhook' }, age(state.nowMs, state.webhook.oldestDueAt === null ? null : toMillis(state.webhook.oldestDueAt)));
      this.set({ queue: 'gyg_push' }, age(state.nowMs, state.gyg.oldestDueAt));
    },
  });
  new Gauge({
    name: 'slotbook_emails_failed',
    help: 'E-mails given up on after their last attempt (all processes)',
    ...on,
    async collect() {
      const state = await readState();
      if (state) this.set(state.email.failed);
    },
  });
  for (const kind of ['payments', 'refunds'] as const) {
    new Gauge({
      name: `slotbook_${kind}`,
      help: `${kind === 'payments' ? 'Payments' : 'Refunds'} by state (all processes)`,
      labelNames: ['state'],
      ...on,
      async collect() {
        const state = await readState();
        if (!state) return;
        this.reset();
        for (const [status, count] of Object.entries(state.money[kind])) this.set({ state: status }, count);
      },
    });
  }
  new Gauge({
    name: 'slotbook_holds',
    help: 'Holds now: live, and lapsed but not yet released (all processes)',
    labelNames: ['state'],
    ...on,
    async collect() {
      const state = await readState();
      if (!state) return;
      this.set({ state: 'live' }, state.holds.live);
      this.set({ state: 'lapsed' }, state.holds.lapsed);
    },
  });
  new Gauge({
    name: 'slotbook_db_pool_connections',
    help: "This process's database connections: open, idle, and requests waiting for one",
    labelNames: ['state'],
    ...on,
    collect() {
      const pool = db.pool();
      this.set({ state: 'open' }, pool.total);
      this.set({ state: 'idle' }, pool.idle);
      this.set({ state: 'waiting' }, pool.waiting);
    },
  });
}
