// {{ManageBookingUrl}} in workflow e-mails: the guest's link to view (and, where allowed, cancel) their
// booking. The template is rendered when the e-mail is queued, but this one placeholder is left in place
// then (workflows/events.ts) and filled only when the e-mail is sent: the capability token is never
// stored in the outbox that the operator's staff can read, and it needs the instance keys, which the
// sending worker has.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { InstanceKeys } from '../secrets/keys.js';
import { manageToken } from './manage.js';
import { manageBookingUrl } from './links.js';

export const MANAGE_BOOKING_MARKER = '{{ManageBookingUrl}}';

export async function fillManageBookingUrl(
  db: Kysely<Database>,
  links: { keys: InstanceKeys; publicUrl: string },
  email: { booking_id: number | null; operator_id: number },
  text: string,
): Promise<string> {
  if (email.booking_id === null || !text.includes(MANAGE_BOOKING_MARKER)) return text;
  const row = await db
    .selectFrom('bookings')
    .innerJoin('operators', 'operators.id', 'bookings.operator_id')
    .select(['bookings.reference', 'operators.slug'])
    .where('bookings.id', '=', email.booking_id)
    .where('bookings.operator_id', '=', email.operator_id)
    .executeTakeFirst();
  if (!row) return text;
  const url = manageBookingUrl(links.publicUrl, row.slug ?? String(email.operator_id), manageToken(links.keys, email.operator_id, row.reference));
  return text.split(MANAGE_BOOKING_MARKER).join(url);
}
