// The ONE place that says how an operator presents itself to guests: the name, slug, brand colour and logo
// that the booking pages, the embed and the guest e-mails show. One query; the logo's address names its
// digest. The booking pages show it as their StorefrontProfile (storefront/view.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { NotFound } from '../http/errors.js';
import { logoPath } from './logo.js';
import { readEmbedOrigins, readSettingsRow, readSlug } from './store.js';
import { parseOrigins } from './service.js';

export interface ShopProfile {
  name: string;
  slug: string;
  brandColour: string | null;
  /** Where guests' replies go (the Reply-To of their e-mails); null when the operator set none. */
  contactEmail: string | null;
  /** Absolute (publicUrl + path) when a logo is set. */
  logoUrl: string | null;
  /** The websites that may frame the booking pages; empty: any. */
  embedOrigins: string[];
  /** The shop's terms and privacy pages; while either is set, guests accept them before paying (settings/terms.ts). */
  termsUrl: string | null;
  privacyUrl: string | null;
}

export async function shopProfile(db: Kysely<Database>, operatorId: number, publicUrl: string): Promise<ShopProfile | undefined> {
  const row = await readSettingsRow(db, operatorId);
  if (!row) return undefined;
  return {
    name: row.shop_name ?? row.name,
    slug: row.slug ?? String(operatorId),
    brandColour: row.brand_colour,
    contactEmail: row.contact_email,
    logoUrl: row.logo_digest && row.logo_type ? `${publicUrl}${logoPath(operatorId, row.logo_digest, row.logo_type)}` : null,
    embedOrigins: parseOrigins(row.embed_origins),
    termsUrl: row.terms_url,
    privacyUrl: row.privacy_url,
  };
}

/** The operator's profile, or 404 (an operator with no such shop). */
export async function requireShopProfile(db: Kysely<Database>, operatorId: number, publicUrl: string): Promise<ShopProfile> {
  const profile = await shopProfile(db, operatorId, publicUrl);
  if (!profile) throw new NotFound(`No shop ${operatorId}`);
  return profile;
}

/** The slug of the operator's booking pages (its ID when it has none), without the rest of the profile. */
export async function profileSlug(db: Kysely<Database>, operatorId: number): Promise<string> {
  return (await readSlug(db, operatorId)) ?? String(operatorId);
}

/** The websites that may frame the operator's booking pages (empty: any), without the rest of the profile. */
export async function profileEmbedOrigins(db: Kysely<Database>, operatorId: number): Promise<string[]> {
  return parseOrigins((await readEmbedOrigins(db, operatorId)) ?? '[]');
}
