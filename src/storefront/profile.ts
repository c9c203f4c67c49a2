// The ONE place the booking pages learn how to present an operator: its display name and slug now, its
// brand colour and logo once the operator settings (issue 13 item 5) store them. Pages, the public shop
// endpoint and (later) e-mails all go through storefrontProfile, so that branding is added in one spot.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { NotFound } from '../http/errors.js';
import { shopProfile } from '../settings/profile.js';

export interface StorefrontProfile {
  Name: string;
  Slug: string;
  /** A CSS colour (#rrggbb) the pages use as their accent, or null for the default. */
  BrandColour: string | null;
  /** The operator's logo (a path on this service, /branding/...), or null. */
  LogoUrl: string | null;
}

export async function storefrontProfile(db: Kysely<Database>, operatorId: number): Promise<StorefrontProfile> {
  // The shop settings (src/settings) decide the name, colour and logo; the logo is served by slotbook
  // itself, so its same-origin path works on every page (and in img-src 'self').
  const profile = await shopProfile(db, operatorId, '');
  if (!profile) throw new NotFound(`No shop ${operatorId}`);
  return { Name: profile.name, Slug: profile.slug, BrandColour: profile.brandColour, LogoUrl: profile.logoUrl };
}
