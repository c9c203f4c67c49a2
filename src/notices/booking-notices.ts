// Staff who asked for it (their account's "Booking e-mails: each booking") get an e-mail per booking that
// is confirmed, moved or cancelled, of every channel. A reaction to bookings: queued in
// the booking's own transaction through the outbox, so a notice exists exactly when its change committed,
// and sent by the e-mail worker. New bookings of an operator whose staff asked for none cost nothing more
// (`interested`, folded into the booking's first query). Plain text, names as the guest typed them.
import type { Tx } from '../db/connection.js';
import type { BookingChange, BookingReaction, ChangedBooking } from '../hooks/platform-hooks.js';
import { queueEmail } from '../emails/outbox.js';
import { findBookingForEmail, type BookingForEmail } from '../bookings/index.js';
import { anyoneNoticesEachBooking, recipientsOfEachBooking } from '../staff/index.js';
import { channelName } from '../lib/marketplaces.js';
import type { UnixSeconds } from '../lib/clock.js';

const WHAT: Record<BookingChange, string> = { confirmed: 'New booking', rescheduled: 'Booking moved', cancelled: 'Booking cancelled' };

export const bookingNotices: BookingReaction = {
  react: queueBookingNotices,
  interested: anyoneNoticesEachBooking,
};

async function queueBookingNotices(tx: Tx, booking: ChangedBooking, change: BookingChange, now: UnixSeconds): Promise<void> {
  const recipients = await recipientsOfEachBooking(tx, booking.operator_id);
  if (recipients.length === 0) return;
  const details = await findBookingForEmail(tx, booking.operator_id, booking.id);
  if (!details) return;
  const subject = `${WHAT[change]} ${details.reference}: ${details.activity_name}, ${details.date} ${details.time}`;
  for (const recipient of recipients) {
    await queueEmail(tx, {
      operatorId: booking.operator_id,
      kind: 'booking-notice',
      bookingId: booking.id,
      to: recipient.email,
      subject,
      body: noticeBody(change, details),
      sendAt: now,
      meter: null,
      meterExtraInfo: null,
    });
  }
}

export function noticeBody(change: BookingChange, booking: BookingForEmail): string {
  return [
    `${WHAT[change]}: ${booking.reference}`,
    '',
    `Activity: ${booking.activity_name}`,
    `When: ${booking.date} ${booking.time} (${booking.timezone})`,
    `People: ${booking.participants}`,
    `Guest: ${booking.customer_first_name} ${booking.customer_last_name}`,
    `Channel: ${channelName(booking.source, booking.partner)}`,
    '',
    'You get this e-mail because you asked for one per booking (My account, Booking e-mails).',
  ].join('\n');
}
