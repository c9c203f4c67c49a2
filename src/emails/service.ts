// The operator's view of the outbox: a page of e-mails with the reference of the booking each concerns,
// read from the bookings domain for the whole page at once (two queries, whatever the page's size).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { bookingReferences } from '../bookings/index.js';
import { listEmails, type EmailFilter, type EmailRow } from './store.js';

export type ListedEmail = EmailRow & { booking_reference: string | null };

export async function listOutbox(db: Kysely<Database>, operatorId: number, filter: EmailFilter): Promise<ListedEmail[]> {
  const rows = await listEmails(db, operatorId, filter);
  const bookingIds = rows.flatMap((row) => (row.booking_id === null ? [] : [row.booking_id]));
  const references = await bookingReferences(db, operatorId, bookingIds);
  return rows.map((row) => ({ ...row, booking_reference: row.booking_id === null ? null : (references.get(row.booking_id) ?? null) }));
}
