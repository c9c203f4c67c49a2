// The operator's view of the outbox: a page of e-mails, each with the reference of the booking it concerns
// (one query: the store joins the booking in).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { listEmails, type EmailFilter, type EmailRow } from './store.js';

export type ListedEmail = EmailRow & { booking_reference: string | null };

export function listOutbox(db: Kysely<Database>, operatorId: number, filter: EmailFilter): Promise<ListedEmail[]> {
  return listEmails(db, operatorId, filter);
}
