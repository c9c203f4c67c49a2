// Starts the service: database (migrated), the app and first-start steps the command line gives, listen; and shuts down
// gracefully on SIGTERM/SIGINT: stop accepting and stop the workers taking work, let the requests and the
// workers' last steps under way finish within
// SHUTDOWN_TIMEOUT_SECONDS, then close the connections that remain, and close the database on every way
// out (a clean drain, a forced one, a failed start, an uncaught error).
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { openDatabase, type Db, type QueryObserver } from './db/connection.js';
import { migrate } from './db/migrate.js';
import { purgeExpiredKeys } from './idempotency/service.js';
import { startEmailWorker } from './emails/worker.js';
import { startWaitlistOffers } from './waitlists/jobs.js';
import { startRefundSender } from './payments/jobs.js';
import { startDigests } from './notices/digest.js';
import { startBalanceLinks } from './flows/balance-links.js';
import { startUploadSweep } from './questions/upload-sweep.js';
import { startWebhookWorker } from './webhooks/deliveries/worker.js';
import { gygPushChannel } from './getyourguide/push.js';
import { startPushes } from './marketplace-push/queue.js';
import { viatorPushChannel } from './viator/push.js';
import { watchRequests } from './http/request-gauge.js';
import { startGuestRetention } from './guests/retention.js';

// After the grace period: how long the cut connections' handlers and the database get to finish.
const CLOSE_CONNECTIONS_MS = 2_000;
const CLOSE_DATABASE_MS = 5_000;

/** Whether `promise` settled within `ms` (or `hurry` came first); never rejects. */
async function settlesWithin(promise: Promise<unknown>, ms: number, hurry?: Promise<void>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      timeout,
      ...(hurry ? [hurry.then(() => false)] : []),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** What the server needs of metrics and traces (observability/telemetry.ts's startTelemetry gives it). */
export interface ServerTelemetry {
  readonly queries: QueryObserver | undefined;
  instrument(app: FastifyInstance): Promise<void>;
  listen(db: Db): Promise<void>;
  stop(): Promise<void>;
}

/** What the command line (cli.ts) decides about the process it starts. */
export interface Startup {
  /** Started first: it sees the database's statements and the app's requests. */
  telemetry: ServerTelemetry;
  /** Builds the app on the migrated database, with the request hooks of metrics and traces (app.ts's buildApp). */
  build: (db: Db, instrument: (app: FastifyInstance) => Promise<void>) => Promise<FastifyInstance>;
  /** Runs before the server listens (a first start's demo); answers what to do once it listens. */
  beforeListening?: (db: Db, log: FastifyBaseLogger) => Promise<(() => void) | undefined>;
}

export async function startServer(config: Config, { telemetry, build, beforeListening }: Startup): Promise<void> {
  const db = openDatabase(config.database, telemetry.queries);
  let app: FastifyInstance;
  try {
    await migrate(db);
    app = await build(db, (instance) => telemetry.instrument(instance));
  } catch (error) {
    await db.close().catch(() => undefined);
    await telemetry.stop();
    throw error;
  }
  const log = app.log;

  // Expired idempotency records are already ignored; this only keeps the table small.
  const purge = setInterval(
    () => {
      purgeExpiredKeys(db).catch((error: unknown) => log.warn({ err: error }, 'idempotency purge failed'));
    },
    60 * 60 * 1000,
  );
  purge.unref();
  let stopEmailWorker: (() => Promise<void>) | undefined;
  let stopWaitlistOffers: (() => Promise<void>) | undefined;
  let stopRefundSender: (() => Promise<void>) | undefined;
  let stopDigests: (() => Promise<void>) | undefined;
  let stopBalanceLinks: (() => Promise<void>) | undefined;
  let stopUploadSweep: (() => void) | undefined;
  let stopWebhookWorker: (() => Promise<void>) | undefined;
  let stopGygPushes: (() => Promise<void>) | undefined;
  let stopViatorPushes: (() => Promise<void>) | undefined;
  let stopViatorPricing: (() => Promise<void>) | undefined;
  let stopGuestRetention: (() => Promise<void>) | undefined;

  let closing = false;
  let hurry!: () => void;
  const hurried = new Promise<void>((resolve) => (hurry = resolve));
  const shutdown = async (reason: string, failed: boolean) => {
    if (closing) {
      hurry(); // a second signal: stop waiting for requests under way
      return;
    }
    closing = true;
    log.info({ reason }, 'shutting down');
    clearInterval(purge);
    stopUploadSweep?.();
    // The workers stop taking work now, while the requests drain: each finishes what it is doing (the
    // e-mail being sent, the webhook attempts under way, with their outcomes recorded) and claims nothing
    // more; whatever is left waits in the database for another process or the next start.
    const workers = Promise.all(
      [
        stopWaitlistOffers,
        stopRefundSender,
        stopDigests,
        stopBalanceLinks,
        stopEmailWorker,
        stopWebhookWorker,
        stopGygPushes,
        stopViatorPushes,
        stopViatorPricing,
        stopGuestRetention,
      ].map((stop) => stop?.().catch((error: unknown) => log.warn({ err: error }, 'a worker failed while stopping'))),
    );
    const closed = app.close(); // stops accepting; idle keep-alive connections close, new requests there get 503
    const deadline = Date.now() + config.shutdownTimeoutSeconds * 1000;
    if (!(await settlesWithin(closed, config.shutdownTimeoutSeconds * 1000, hurried))) {
      log.warn({ seconds: config.shutdownTimeoutSeconds }, 'requests still under way after the shutdown timeout: closing their connections');
      app.server.closeAllConnections();
      await settlesWithin(closed, CLOSE_CONNECTIONS_MS);
    }
    // The same bound for the workers' last step (an SMTP server or a webhook endpoint that does not answer).
    if (!(await settlesWithin(workers, Math.max(CLOSE_CONNECTIONS_MS, deadline - Date.now()), hurried))) {
      log.warn('a worker was still sending after the shutdown timeout: what it sent is sent again later (at least once)');
    }
    await telemetry.stop();
    // Waits for statements under way (their requests may have been cut) to finish, within a bound.
    const dbClosed = await settlesWithin(db.close(), CLOSE_DATABASE_MS);
    if (dbClosed) log.info('database closed');
    else log.error('the database did not close in time');
    process.exit(failed || !dbClosed ? 1 : 0);
  };
  const fatal = (kind: string) => (error: unknown) => {
    log.fatal({ err: error }, kind);
    void shutdown(kind, true);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM', false));
  process.on('SIGINT', () => void shutdown('SIGINT', false));
  process.on('uncaughtException', fatal('uncaught exception'));
  process.on('unhandledRejection', fatal('unhandled rejection'));

  try {
    const listening = await beforeListening?.(db, log);
    // Waitlist offers and e-mail delivery (docs/platform-events.md); safe with any number of processes.
    stopWaitlistOffers = startWaitlistOffers(db, config, log);
    // Stripe refunds recorded but not yet sent (docs/payments.md, Refunds); safe with any number of processes.
    stopRefundSender = startRefundSender(db, app.instanceKeys, config, log);
    // Staff's daily booking digests (docs/staff.md, Booking e-mails); safe with any number of processes.
    stopDigests = startDigests(db, log);
    // Balance links of bookings that paid a deposit, once each (docs/payments.md, Deposits and balances).
    stopBalanceLinks = startBalanceLinks(db, log);
    stopEmailWorker = startEmailWorker(db, config, log);
    // Webhook dispatch and delivery (docs/webhooks.md); also safe with any number of processes.
    stopWebhookWorker = startWebhookWorker(db, app.webhooks.transport, app.instanceKeys, log, watchRequests(app.server), {
      publicUrl: config.publicUrl,
    });
    // Availability pushed to GetYourGuide (docs/channels/getyourguide.md) and Viator's event notifications
    // (docs/channels/viator.md), each a channel of the marketplaces' one push queue; safe with any number of processes.
    stopGygPushes = startPushes(db, gygPushChannel(app.instanceKeys, config), log);
    stopViatorPushes = startPushes(db, viatorPushChannel(db, app.instanceKeys, config), log);
    stopViatorPricing = startPushes(db, viatorPushChannel(db, app.instanceKeys, config, undefined, 'pricing'), log);
    // Uploads that no confirmed booking names are deleted after UPLOAD_UNATTACHED_HOURS; safe with any number of processes.
    stopUploadSweep = startUploadSweep(db, config, log);
    // Guests' personal data erased GUEST_RETENTION_DAYS after their last activity (docs/privacy.md); off unless set.
    stopGuestRetention = startGuestRetention(db, config.guestRetentionDays, log);
    await app.listen({ port: config.port, host: config.host });
    await telemetry.listen(db);
    listening?.();
  } catch (error) {
    closing = true;
    stopUploadSweep?.();
    await stopWaitlistOffers?.().catch(() => undefined);
    await stopRefundSender?.().catch(() => undefined);
    await stopDigests?.().catch(() => undefined);
    await stopEmailWorker?.().catch(() => undefined);
    await stopWebhookWorker?.().catch(() => undefined);
    await stopGygPushes?.().catch(() => undefined);
    await stopViatorPushes?.().catch(() => undefined);
    await stopViatorPricing?.().catch(() => undefined);
    await stopGuestRetention?.().catch(() => undefined);
    await app.close().catch(() => undefined);
    await telemetry.stop().catch(() => undefined);
    await db.close().catch(() => undefined);
    throw error;
  }
}
