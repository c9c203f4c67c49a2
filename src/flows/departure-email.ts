// The e-mail of a cancelled departure (a step of departure-cancellation.ts): each guest with an address gets the
// operator's message and a link to the activity's booking page to book another time, queued in the
// cancellation's transaction (so it exists exactly when the cancellation committed). Plain text, as every
// e-mail slotbook sends: the operator's words cannot turn into markup in a mail client.
import type { Tx } from '../db/connection.js';
import { queueEmail } from '../emails/outbox.js';
import { findBookingForEmail } from '../bookings/index.js';
import { bookingPagesUrl } from '../settings/links.js';
import { profileSlug } from '../settings/profile.js';
import type { UnixSeconds } from '../lib/clock.js';

/** Where a guest books the activity again: its booking page. */
export const rebookUrl = (publicUrl: string, slug: string, activityId: string): string =>
  `${bookingPagesUrl(publicUrl, slug)}/activities/${encodeURIComponent(activityId)}`;

/** What a cancelled departure tells its guests: the operator's words, and where to book again. */
export interface CancelledDeparture {
  /** The operator's message to the guests (plain text). */
  message: string;
  /** The activity's public ID, for the link to book another time. */
  activityId: string;
  /** PUBLIC_URL, for that link. */
  publicUrl: string;
}

export async function emailCancelledDeparture(
  tx: Tx,
  booking: { operator_id: number; id: number },
  departure: CancelledDeparture,
  now: UnixSeconds,
): Promise<void> {
  const details = await findBookingForEmail(tx, booking.operator_id, booking.id);
  if (!details || details.customer_email.trim() === '') return;
  const operator = details.shop_name ?? details.operator_name;
  const link = rebookUrl(departure.publicUrl, await profileSlug(tx, booking.operator_id), departure.activityId);
  const body = [
    `Hello ${details.customer_first_name},`,
    '',
    `${operator} has cancelled ${details.activity_name} on ${details.date} at ${details.time}, which you booked (${details.reference}).`,
    '',
    departure.message,
    '',
    'Your booking is cancelled. Whatever you paid online for it is refunded in full.',
    `Book another time: ${link}`,
  ].join('\n');
  await queueEmail(tx, {
    operatorId: booking.operator_id,
    kind: 'departure',
    bookingId: booking.id,
    to: details.customer_email,
    subject: `Cancelled: ${details.activity_name} on ${details.date} at ${details.time}`,
    body,
    sendAt: now,
    meter: null,
    meterExtraInfo: null,
  });
}
