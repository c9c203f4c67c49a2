// SQL of the rate limits shared by every process (shared-limiter.ts): a row per bucket in rate_limit_buckets.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { UnixMillis } from '../lib/clock.js';

/**
 * Takes `want` permits of the bucket's row, starting a new window at `now` when its window (of `windowMs`)
 * has passed; one upsert. Answers the permits granted in the window by every process, this lease
 * included, and when the window started.
 */
export async function leasePermits(
  db: Kysely<Database>,
  bucket: string,
  want: number,
  now: UnixMillis,
  windowMs: number,
): Promise<{ granted: number; windowStart: number }> {
  const row = await db
    .insertInto('rate_limit_buckets')
    .values({ bucket, window_start: now, granted: want })
    .onConflict((conflict) =>
      conflict.column('bucket').doUpdateSet({
        granted: sql`CASE WHEN rate_limit_buckets.window_start <= ${now - windowMs} THEN excluded.granted ELSE rate_limit_buckets.granted + excluded.granted END`,
        window_start: sql`CASE WHEN rate_limit_buckets.window_start <= ${now - windowMs} THEN excluded.window_start ELSE rate_limit_buckets.window_start END`,
      }),
    )
    .returning(['granted', 'window_start'])
    .executeTakeFirstOrThrow();
  return { granted: Number(row.granted), windowStart: Number(row.window_start) };
}

/** Deletes the buckets whose window started before `before`. */
export async function deleteBucketsBefore(db: Kysely<Database>, before: UnixMillis): Promise<void> {
  await db.deleteFrom('rate_limit_buckets').where('window_start', '<', before).execute();
}
