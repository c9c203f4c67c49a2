// Operator slugs: the readable part of the booking pages' address (/book/{slug}). A new operator's slug is
// derived from its name; the operator may change it later (shop settings). Lower-case ASCII letters, digits
// and single hyphens, 2 to 40 characters, so that it is safe in a URL path without escaping.
import type { Kysely } from 'kysely';
import type { Tx } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { operatorIdOfSlug, slugsStartingWith } from './store.js';
import { isSlug, slugify } from '../lib/slug.js';

export { isSlug, slugify };

/** The name's slug, or the same with "-2", "-3", ... when another operator has it. */
export async function uniqueSlug(tx: Tx, name: string): Promise<string> {
  const base = slugify(name);
  const used = new Set(await slugsStartingWith(tx, base));
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}

export async function operatorIdBySlug(db: Kysely<Database>, slug: string): Promise<number | undefined> {
  if (!isSlug(slug)) return undefined;
  return operatorIdOfSlug(db, slug);
}
