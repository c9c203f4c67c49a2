// The instance's master secret, kept in the database when SECRET_KEY is not set, so that every process on
// the same database derives the same keys (migration 006).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { nowMillis } from '../lib/clock.js';

const MASTER = 'master';

/** The stored master secret, created on first use; concurrent first uses agree on one (the first insert wins). */
export async function storedMasterSecret(db: Kysely<Database>, fresh: () => string): Promise<string> {
  const existing = await db.selectFrom('instance_secrets').select('value').where('name', '=', MASTER).executeTakeFirst();
  if (existing) return existing.value;
  await db
    .insertInto('instance_secrets')
    .values({ name: MASTER, value: fresh(), created_at: nowMillis() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('instance_secrets').select('value').where('name', '=', MASTER).executeTakeFirstOrThrow();
  return row.value;
}
