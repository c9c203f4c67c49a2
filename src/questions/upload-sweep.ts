// Deletes the uploads that no confirmed booking names once they are UPLOAD_UNATTACHED_HOURS old, and as long
// after the expiry of any hold that named them (a live hold's file stays until it is confirmed, or lapses).
// Ending a hold writes nothing here: its files are simply due once its expiry is that far past. Safe with
// any number of processes: each pass deletes at most a batch per transaction, the DELETE checks again that
// a file is still unattached and old enough (a booking that attached or held it meanwhile wins: on
// PostgreSQL it holds the row until it commits, and the DELETE then sees it attached or held), and two
// processes deleting the same rows delete them once. No file is deleted under a hold that can still be
// confirmed: it can only be confirmed before its expiry, and the sweep waits at least an hour past it.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/connection.js';
import { deleteUnattachedBefore } from './upload-store.js';
import { addMillis, nowMillis } from '../lib/clock.js';

const BATCH = 500;
const EVERY_MS = 10 * 60 * 1000;

/** One pass: deletes every unattached upload created (and last held) before now minus the retention; answers how many. */
export async function sweepUnattachedUploads(db: Db, unattachedHours: number, now = nowMillis()): Promise<number> {
  const cutoff = addMillis(now, -unattachedHours * 3_600_000);
  let deleted = 0;
  for (;;) {
    const batch = await db.write((tx) => deleteUnattachedBefore(tx, cutoff, BATCH));
    deleted += batch;
    if (batch < BATCH) return deleted;
  }
}

/** Sweeps every ten minutes (from a random moment, so that processes started together do not sweep together). */
export function startUploadSweep(db: Db, config: Config, log: FastifyBaseLogger): () => void {
  const sweep = () => {
    sweepUnattachedUploads(db, config.uploads.unattachedHours)
      .then((deleted) => deleted > 0 && log.info({ deleted }, 'deleted unattached uploads'))
      .catch((error: unknown) => log.warn({ err: error }, 'upload sweep failed; retrying on the next one'));
  };
  let timer: NodeJS.Timeout | undefined;
  const first = setTimeout(
    () => {
      sweep();
      timer = setInterval(sweep, EVERY_MS);
      timer.unref();
    },
    Math.floor(Math.random() * 60_000),
  );
  first.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
