// SQL of the guests' acceptances of the shop's terms and privacy pages (migration 034), one per booking.
import type { Kysely } from 'kysely';
import type { Tx } from '../db/connection.js';
import type { BookingTermsAcceptanceTable, Database } from '../db/schema.js';

export type AcceptanceRow = BookingTermsAcceptanceTable;

export async function readShopTerms(
  db: Kysely<Database>,
  operatorId: number,
): Promise<{ terms_url: string | null; privacy_url: string | null } | undefined> {
  return db.selectFrom('operators').select(['terms_url', 'privacy_url']).where('id', '=', operatorId).executeTakeFirst();
}

/** The acceptance of each booking, the latest one given (a checkout tried again accepts again). */
export async function saveAcceptances(tx: Tx, rows: AcceptanceRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx
    .insertInto('booking_terms_acceptances')
    .values(rows)
    .onConflict((oc) =>
      oc.column('booking_id').doUpdateSet((eb) => ({
        accepted_at: eb.ref('excluded.accepted_at'),
        terms_url: eb.ref('excluded.terms_url'),
        privacy_url: eb.ref('excluded.privacy_url'),
      })),
    )
    .execute();
}

export async function readAcceptance(db: Kysely<Database>, operatorId: number, bookingId: number): Promise<AcceptanceRow | undefined> {
  return db
    .selectFrom('booking_terms_acceptances')
    .selectAll()
    .where('booking_id', '=', bookingId)
    .where('operator_id', '=', operatorId)
    .executeTakeFirst();
}
