// SQL of the operators table: a new operator, and the reads other domains publish through here (whether an
// operator exists, its name, the operator of a slug). The shop settings' columns of the row (shop name,
// slug, contact e-mail, brand colour, embed origins) are written and read by settings/store.ts.
import type { Kysely } from 'kysely';
import type { Tx } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { nowMillis } from '../lib/clock.js';

export async function insertOperatorRow(tx: Tx, operator: { name: string; slug: string }): Promise<number> {
  const row = await tx
    .insertInto('operators')
    .values({ ...operator, created_at: nowMillis() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function countOperators(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('operators')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function operatorExists(db: Kysely<Database>, operatorId: number): Promise<boolean> {
  return (await db.selectFrom('operators').select('id').where('id', '=', operatorId).executeTakeFirst()) !== undefined;
}

/** The operator's name (as created; the name guests see is the shop name of settings/profile.ts). */
export async function operatorName(db: Kysely<Database>, operatorId: number): Promise<string> {
  const row = await db.selectFrom('operators').select('name').where('id', '=', operatorId).executeTakeFirstOrThrow();
  return row.name;
}

/** The names of several operators, by ID, in one read. */
export async function operatorNames(db: Kysely<Database>, operatorIds: number[]): Promise<Map<number, string>> {
  if (operatorIds.length === 0) return new Map();
  const rows = await db.selectFrom('operators').select(['id', 'name']).where('id', 'in', operatorIds).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** The slugs taken that start with `prefix` (a new slug picks the first free one). */
export async function slugsStartingWith(db: Kysely<Database>, prefix: string): Promise<string[]> {
  const rows = await db.selectFrom('operators').select('slug').where('slug', 'like', `${prefix}%`).execute();
  return rows.flatMap((row) => (row.slug === null ? [] : [row.slug]));
}

export async function operatorIdOfSlug(db: Kysely<Database>, slug: string): Promise<number | undefined> {
  return (await db.selectFrom('operators').select('id').where('slug', '=', slug).executeTakeFirst())?.id;
}
