// {{ManageBookingUrl}} in workflow e-mails: the guest's link to view (and, where allowed, cancel) their
// booking. The template is rendered when the e-mail is queued, but this one placeholder is left in place
// then (workflows/hooks.ts) and filled only when the e-mail is sent (wired as the workflow e-mails'
// text at sending, emails/kinds.ts): the capability token is never
// stored in the outbox that the operator's staff can read, and it needs the instance keys, which the
// sending worker has.
import type { SendingContext } from '../emails/kinds.js';
import type { EmailRow } from '../emails/index.js';
import { COMPLETE_WAIVER_MARKER, MANAGE_BOOKING_MARKER } from '../workflows/templates.js';
import { manageToken } from './manage.js';
import { manageBookingUrl } from '../settings/links.js';
import { profileSlug } from '../settings/profile.js';
import { bookingReferences } from '../bookings/index.js';

/** A workflow e-mail's text as sent: its body with the manage link (and the waiver link, the same plus /waiver) filled in. */
export async function fillManageBookingUrl({ db, keys, publicUrl }: SendingContext, email: EmailRow): Promise<string> {
  const text = email.body;
  if (email.booking_id === null || (!text.includes(MANAGE_BOOKING_MARKER) && !text.includes(COMPLETE_WAIVER_MARKER))) return text;
  const reference = (await bookingReferences(db, email.operator_id, [email.booking_id])).get(email.booking_id);
  if (reference === undefined) return text;
  const url = manageBookingUrl(publicUrl, await profileSlug(db, email.operator_id), manageToken(keys, email.operator_id, reference));
  return text.split(MANAGE_BOOKING_MARKER).join(url).split(COMPLETE_WAIVER_MARKER).join(`${url}/waiver`);
}
