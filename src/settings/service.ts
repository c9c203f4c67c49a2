// The rules of the operator's shop settings: what may change, the audit entry of each change, and the
// view the admin API and the dashboard show (with the booking pages' address and the embed snippet).
import type { Kysely } from 'kysely';
import type { Db, Tx } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { DomainError, NotFound, ValidationFailed } from '../http/errors.js';
import { audit } from '../audit/log.js';
import { lockForTransaction } from '../db/advisory-lock.js';
import type { OperatorSettings, OperatorSettingsChange } from './schemas.js';
import { normaliseBrandColour, normaliseOrigins } from './rules.js';
import { detectLogoType, logoDigest, logoPath } from './logo.js';
import {
  deleteLogo,
  readSettingsRow,
  replaceSlug,
  saveLogo,
  slugHolder,
  updateSettingsRow,
  type SettingsColumns,
  type SettingsRow,
} from './store.js';

class SlugTaken extends DomainError {
  constructor(slug: string) {
    super('conflict', `The slug ${slug} is taken by another operator`, [{ field: 'Slug', message: `${slug} is taken: choose another` }]);
  }
}

export function parseOrigins(stored: string): string[] {
  try {
    const list: unknown = JSON.parse(stored);
    return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

export function embedSnippet(publicUrl: string, slug: string): string {
  return [
    `<script src="${publicUrl}/embed.js" data-operator="${slug}" async></script>`,
    '<!-- a "Book now" button for one activity (its ID from the dashboard): -->',
    `<a href="${publicUrl}/book/${slug}" data-slotbook-activity="s_...">Book now</a>`,
    '<!-- or its calendar right in your page: -->',
    '<div data-slotbook-inline="s_..."></div>',
  ].join('\n');
}

function view(row: SettingsRow, operatorId: number, publicUrl: string): OperatorSettings {
  const slug = row.slug ?? String(operatorId);
  return {
    ShopName: row.shop_name,
    DisplayName: row.shop_name ?? row.name,
    Slug: slug,
    ContactEmail: row.contact_email,
    BrandColour: row.brand_colour,
    LogoUrl: row.logo_digest && row.logo_type ? `${publicUrl}${logoPath(operatorId, row.logo_digest, row.logo_type)}` : null,
    AllowedEmbedOrigins: parseOrigins(row.embed_origins),
    TermsUrl: row.terms_url,
    PrivacyUrl: row.privacy_url,
    BookingPageUrl: `${publicUrl}/book/${slug}`,
    EmbedScriptUrl: `${publicUrl}/embed.js`,
    EmbedSnippet: embedSnippet(publicUrl, slug),
  };
}

async function rowOf(db: Kysely<Database>, operatorId: number): Promise<SettingsRow> {
  const row = await readSettingsRow(db, operatorId);
  if (!row) throw new NotFound(`No operator ${operatorId}`);
  return row;
}

export async function getOperatorSettings(db: Kysely<Database>, operatorId: number, publicUrl: string): Promise<OperatorSettings> {
  return view(await rowOf(db, operatorId), operatorId, publicUrl);
}

/** What the change sets, checked and normalised; throws before anything is written. */
function columnsOf(change: OperatorSettingsChange): SettingsColumns {
  const columns: SettingsColumns = {};
  if (change.ShopName !== undefined) columns.shop_name = change.ShopName === null || change.ShopName.trim() === '' ? null : change.ShopName.trim();
  if (change.Slug !== undefined) {
    // /book/{number} is the operator with that ID: a slug of digits only would shadow one.
    if (/^[0-9]+$/.test(change.Slug)) throw ValidationFailed.field('Slug', "A slug needs at least one letter (/book/{number} is an operator's ID)");
    columns.slug = change.Slug;
  }
  if (change.ContactEmail !== undefined) columns.contact_email = change.ContactEmail === null ? null : change.ContactEmail.trim();
  if (change.BrandColour !== undefined) columns.brand_colour = change.BrandColour === null ? null : normaliseBrandColour(change.BrandColour);
  if (change.TermsUrl !== undefined) columns.terms_url = change.TermsUrl;
  if (change.PrivacyUrl !== undefined) columns.privacy_url = change.PrivacyUrl;
  if (change.AllowedEmbedOrigins !== undefined) columns.embed_origins = JSON.stringify(normaliseOrigins(change.AllowedEmbedOrigins));
  return columns;
}

const isUniqueViolation = (error: unknown) => /unique|duplicate key/i.test(String((error as Error)?.message));

export async function changeOperatorSettings(
  db: Db,
  operatorId: number,
  change: OperatorSettingsChange,
  publicUrl: string,
): Promise<OperatorSettings> {
  const columns = columnsOf(change);
  const slug = columns.slug ?? undefined;
  try {
    await db.write(async (tx) => {
      const row = await rowOf(tx, operatorId);
      const before = view(row, operatorId, publicUrl);
      if (slug !== undefined && slug !== row.slug) await takeSlug(tx, operatorId, row.slug, slug);
      await updateSettingsRow(tx, operatorId, columns);
      const after = view(await rowOf(tx, operatorId), operatorId, publicUrl);
      await audit(tx, {
        operatorId,
        action: 'settings.update',
        resource: { type: 'operator', id: operatorId },
        before: audited(before),
        after: audited(after),
      });
    });
  } catch (error) {
    // Two operators taking one slug at the same moment: the unique index decides, the loser hears 409.
    if (slug !== undefined && isUniqueViolation(error)) throw new SlugTaken(slug);
    throw error;
  }
  return getOperatorSettings(db.kysely, operatorId, publicUrl);
}

async function takeSlug(tx: Tx, operatorId: number, oldSlug: string | null, slug: string): Promise<void> {
  await lockForTransaction(tx, 'operator-slug');
  const holder = await slugHolder(tx, slug);
  if (holder !== undefined && holder !== operatorId) throw new SlugTaken(slug);
  await replaceSlug(tx, operatorId, oldSlug, slug);
}

/** The fields the audit log keeps (the derived addresses and snippet say nothing new). */
function audited(settings: OperatorSettings) {
  const { ShopName, Slug, ContactEmail, BrandColour, LogoUrl, AllowedEmbedOrigins, TermsUrl, PrivacyUrl } = settings;
  return { ShopName, Slug, ContactEmail, BrandColour, LogoUrl, AllowedEmbedOrigins, TermsUrl, PrivacyUrl };
}

export async function replaceLogo(db: Db, operatorId: number, content: Buffer, publicUrl: string): Promise<OperatorSettings> {
  const contentType = await detectLogoType(content);
  await db.write(async (tx) => {
    const before = view(await rowOf(tx, operatorId), operatorId, publicUrl);
    await saveLogo(tx, operatorId, { content_type: contentType, content, digest: logoDigest(content) });
    const after = view(await rowOf(tx, operatorId), operatorId, publicUrl);
    await audit(tx, {
      operatorId,
      action: 'settings.logo-update',
      resource: { type: 'operator', id: operatorId },
      before: { LogoUrl: before.LogoUrl },
      after: { LogoUrl: after.LogoUrl, ContentType: contentType, Size: content.length },
    });
  });
  return getOperatorSettings(db.kysely, operatorId, publicUrl);
}

export async function removeLogo(db: Db, operatorId: number, publicUrl: string): Promise<OperatorSettings> {
  await db.write(async (tx) => {
    const before = view(await rowOf(tx, operatorId), operatorId, publicUrl);
    await deleteLogo(tx, operatorId);
    await audit(tx, {
      operatorId,
      action: 'settings.logo-delete',
      resource: { type: 'operator', id: operatorId },
      before: { LogoUrl: before.LogoUrl },
      after: { LogoUrl: null },
    });
  });
  return getOperatorSettings(db.kysely, operatorId, publicUrl);
}
