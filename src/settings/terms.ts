// The shop's terms and privacy pages: while the operator has set either, a guest accepts
// them before paying: the booking form's checkbox, and the shop API's checkout refuses to go on without
// AcceptTerms: true (422 naming it), on every payment provider. The acceptance (when, and the addresses
// accepted, as they were then) is kept with each booking of the basket and shown to staff (AdminBooking).
import type { Kysely } from 'kysely';
import type { Tx } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { ValidationFailed } from '../http/errors.js';
import { readAcceptance, readShopTerms, saveAcceptances } from './terms-store.js';
import type { TermsAcceptance } from './schemas.js';
import type { UnixMillis } from '../lib/clock.js';

export interface ShopTerms {
  termsUrl: string | null;
  privacyUrl: string | null;
}

/** The pages a guest must accept before paying, or undefined while the shop has none. */
export async function termsToAccept(db: Kysely<Database>, operatorId: number): Promise<ShopTerms | undefined> {
  const row = await readShopTerms(db, operatorId);
  if (!row || (row.terms_url === null && row.privacy_url === null)) return undefined;
  return { termsUrl: row.terms_url, privacyUrl: row.privacy_url };
}

/** Refuses a checkout that did not accept the shop's pages, naming the field the form's checkbox sends. */
export function requireAcceptance(terms: ShopTerms | undefined, accepted: boolean | undefined): void {
  if (terms === undefined || accepted === true) return;
  const pages = [terms.termsUrl && 'terms', terms.privacyUrl && 'privacy notice'].filter(Boolean).join(' and ');
  throw ValidationFailed.field('AcceptTerms', `Accept the shop's ${pages} before paying (AcceptTerms: true)`);
}

export async function recordAcceptance(tx: Tx, operatorId: number, bookingIds: number[], terms: ShopTerms, at: UnixMillis): Promise<void> {
  await saveAcceptances(
    tx,
    bookingIds.map((bookingId) => ({
      booking_id: bookingId,
      operator_id: operatorId,
      accepted_at: at,
      terms_url: terms.termsUrl,
      privacy_url: terms.privacyUrl,
    })),
  );
}

export async function termsAcceptanceOf(db: Kysely<Database>, operatorId: number, bookingId: number): Promise<TermsAcceptance> {
  const row = await readAcceptance(db, operatorId, bookingId);
  return row ? { AcceptedAt: new Date(Number(row.accepted_at)).toISOString(), TermsUrl: row.terms_url, PrivacyUrl: row.privacy_url } : null;
}
