// Starts the service: configuration, database (migrated), first-start demo data, listen; and shuts down
// gracefully on SIGTERM/SIGINT (stop accepting, finish in-flight requests, close the database).
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { openDatabase } from './db/connection.js';
import { migrate } from './db/migrate.js';
import { seedDemoOnFirstStart } from './demo/seed.js';
import { announceDemo } from './demo/announce.js';
import { purgeExpiredKeys } from './idempotency/service.js';
import { startEmailWorker } from './emails/worker.js';
import { startUploadSweep } from './questions/upload-sweep.js';

export async function startServer(config: Config): Promise<void> {
  const db = openDatabase(config.database);
  await migrate(db);
  const app = await buildApp({ db, config });
  if (!config.production) {
    const demo = await seedDemoOnFirstStart(db);
    if (demo) announceDemo(demo, config, app.log);
  }

  // Expired idempotency records are already ignored; this only keeps the table small.
  const purge = setInterval(() => {
    purgeExpiredKeys(db).catch((error: unknown) => app.log.warn({ err: error }, 'idempotency purge failed'));
  }, 60 * 60 * 1000);
  purge.unref();
  // Waitlist offers and e-mail delivery (docs/platform-events.md); safe with any number of processes.
  const stopEmailWorker = startEmailWorker(db, config, app.log);
  // Uploads that no booking names are deleted after UPLOAD_UNATTACHED_HOURS; safe with any number of processes.
  const stopUploadSweep = startUploadSweep(db, config, app.log);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    clearInterval(purge);
    stopUploadSweep();
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await stopEmailWorker().catch(() => undefined);
    try {
      await app.close();
      await db.close();
    } finally {
      process.exit(0);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
}
