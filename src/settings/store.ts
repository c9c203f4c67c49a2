// SQL of the operator's shop settings: columns of `operators` (shop_name, slug, contact_email — the same
// column the webhook settings edit —, brand_colour, embed_origins), its logo and its former slugs.
import type { Kysely } from 'kysely';
import type { Tx } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { nowMillis } from '../lib/clock.js';

export interface SettingsRow {
  name: string;
  shop_name: string | null;
  slug: string | null;
  contact_email: string | null;
  brand_colour: string | null;
  embed_origins: string;
  terms_url: string | null;
  privacy_url: string | null;
  logo_digest: string | null;
  logo_type: string | null;
}

export async function readSettingsRow(db: Kysely<Database>, operatorId: number): Promise<SettingsRow | undefined> {
  return db
    .selectFrom('operators')
    .leftJoin('operator_logos', 'operator_logos.operator_id', 'operators.id')
    .select([
      'operators.name',
      'operators.shop_name',
      'operators.slug',
      'operators.contact_email',
      'operators.brand_colour',
      'operators.embed_origins',
      'operators.terms_url',
      'operators.privacy_url',
      'operator_logos.digest as logo_digest',
      'operator_logos.content_type as logo_type',
    ])
    .where('operators.id', '=', operatorId)
    .executeTakeFirst();
}

/** The operator's current slug: undefined for no operator, null for a row written by hand without one. */
export async function readSlug(db: Kysely<Database>, operatorId: number): Promise<string | null | undefined> {
  return (await db.selectFrom('operators').select('slug').where('id', '=', operatorId).executeTakeFirst())?.slug;
}

/** The stored list of websites that may frame the booking pages (JSON), alone: one small read. */
export async function readEmbedOrigins(db: Kysely<Database>, operatorId: number): Promise<string | undefined> {
  return (await db.selectFrom('operators').select('embed_origins').where('id', '=', operatorId).executeTakeFirst())?.embed_origins;
}

export type SettingsColumns = Partial<
  Pick<SettingsRow, 'shop_name' | 'slug' | 'contact_email' | 'brand_colour' | 'embed_origins' | 'terms_url' | 'privacy_url'>
>;

export async function updateSettingsRow(tx: Tx, operatorId: number, values: SettingsColumns): Promise<void> {
  if (Object.keys(values).length === 0) return;
  await tx.updateTable('operators').set(values).where('id', '=', operatorId).execute();
}

/** The operator whose current slug this is, if any. */
export async function slugHolder(db: Kysely<Database>, slug: string): Promise<number | undefined> {
  return (await db.selectFrom('operators').select('id').where('slug', '=', slug).executeTakeFirst())?.id;
}

/** The old slug keeps pointing to its operator; a slug taken (again) as a current one is no longer former. */
export async function replaceSlug(tx: Tx, operatorId: number, oldSlug: string | null, newSlug: string): Promise<void> {
  await tx.deleteFrom('former_slugs').where('slug', '=', newSlug).execute();
  if (oldSlug === null) return;
  const values = { operator_id: operatorId, replaced_at: nowMillis() };
  await tx
    .insertInto('former_slugs')
    .values({ slug: oldSlug, ...values })
    .onConflict((oc) => oc.column('slug').doUpdateSet(values))
    .execute();
}

export async function formerSlugHolder(db: Kysely<Database>, slug: string): Promise<number | undefined> {
  return (await db.selectFrom('former_slugs').select('operator_id').where('slug', '=', slug).executeTakeFirst())?.operator_id;
}

export async function saveLogo(tx: Tx, operatorId: number, logo: { content_type: string; content: Buffer; digest: string }): Promise<void> {
  const values = { ...logo, updated_at: nowMillis() };
  await tx
    .insertInto('operator_logos')
    .values({ operator_id: operatorId, ...values })
    .onConflict((oc) => oc.column('operator_id').doUpdateSet(values))
    .execute();
}

export async function deleteLogo(tx: Tx, operatorId: number): Promise<void> {
  await tx.deleteFrom('operator_logos').where('operator_id', '=', operatorId).execute();
}

export async function readLogo(
  db: Kysely<Database>,
  operatorId: number,
): Promise<{ content_type: string; content: Buffer; digest: string } | undefined> {
  return db.selectFrom('operator_logos').select(['content_type', 'content', 'digest']).where('operator_id', '=', operatorId).executeTakeFirst();
}
