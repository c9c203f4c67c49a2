// The ONE place the booking pages learn how to present an operator: its display name and slug now, its
// brand colour and logo once the operator settings (issue 13 item 5) store them. Pages, the public shop
// endpoint and (later) e-mails all go through storefrontProfile, so that branding is added in one spot.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { NotFound } from '../http/errors.js';

export interface StorefrontProfile {
  Name: string;
  Slug: string;
  /** A CSS colour (#rrggbb) the pages use as their accent, or null for the default. */
  BrandColour: string | null;
  /** An absolute URL of the operator's logo, or null. */
  LogoUrl: string | null;
}

export async function storefrontProfile(db: Kysely<Database>, operatorId: number): Promise<StorefrontProfile> {
  const row = await db.selectFrom('operators').select(['name', 'slug']).where('id', '=', operatorId).executeTakeFirst();
  if (!row) throw new NotFound(`No shop ${operatorId}`);
  // Rows written by hand before migration 013 may lack a slug: the numeric address always works.
  return { Name: row.name, Slug: row.slug ?? String(operatorId), BrandColour: null, LogoUrl: null };
}
