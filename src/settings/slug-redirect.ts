// Old links keep working after an operator changes its slug: /book/{old}/... answers a permanent redirect
// to /book/{current}/..., until another operator takes the old slug (then the link is theirs).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { isSlug } from '../lib/slug.js';
import { formerSlugHolder, readSlug } from './store.js';

/** Where `url` (a /book/{slug}... address) moved, or undefined when `slug` was nobody's. */
export async function movedBookingPath(db: Kysely<Database>, slug: string, url: string): Promise<string | undefined> {
  if (!isSlug(slug)) return undefined;
  const operatorId = await formerSlugHolder(db, slug);
  if (operatorId === undefined) return undefined;
  const current = await readSlug(db, operatorId);
  if (!current) return undefined;
  const prefix = `/book/${slug}`;
  return url.startsWith(prefix) ? `/book/${current}${url.slice(prefix.length)}` : `/book/${current}`;
}
