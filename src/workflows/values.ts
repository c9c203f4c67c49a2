// The values a workflow template's placeholders take for one booking. Sending (hooks.ts) and the
// dashboard's preview (preview.ts) both read them here, so a preview shows exactly what would be sent.
// Greeting, Headline, Intro and When are in the guest's language (the booking's Locale), from the words
// the booking pages use too (src/lib/guest-messages.ts); Date and Time stay as stored (ISO date, HH:MM).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { findBookingForEmail } from '../bookings/index.js';
import { GUEST_MESSAGES, guestLanguage, longDate, type GuestLanguage } from '../lib/guest-messages.js';
import { COMPLETE_WAIVER_MARKER, MANAGE_BOOKING_MARKER, type Placeholder } from './templates.js';
import type { WorkflowChannel, WorkflowEvent } from './schemas.js';
import type { UnixSeconds } from '../lib/clock.js';

export interface BookingForTemplate {
  /** The values for a booking-confirmed e-mail; valuesFor(event) for another event. */
  values: Record<Placeholder, string>;
  valuesFor(event: WorkflowEvent): Record<Placeholder, string>;
  channel: WorkflowChannel;
  language: GuestLanguage;
  customerEmail: string;
  startsAt: UnixSeconds;
  endsAt: UnixSeconds;
}

export interface GuestWords {
  firstName: string;
  activityName: string;
  date: string;
  time: string;
  timezone: string;
}

/** The placeholders said in the guest's language, for one event. */
export function guestWords(language: GuestLanguage, event: WorkflowEvent, booking: GuestWords) {
  const m = GUEST_MESSAGES[language];
  const when = m.when(longDate(language, booking.date), booking.time, booking.timezone);
  return {
    Greeting: m.emailGreeting(booking.firstName),
    Headline: m.emailHeadline[event],
    Intro: m.emailIntro[event](booking.activityName, when),
    When: when,
    Timezone: booking.timezone,
  };
}

/** The booking's placeholder values; undefined when the operator has no such booking. */
export async function bookingTemplateValues(db: Kysely<Database>, operatorId: number, bookingId: number): Promise<BookingForTemplate | undefined> {
  const details = await findBookingForEmail(db, operatorId, bookingId);
  if (!details) return undefined;
  const language = guestLanguage(details.locale);
  const valuesFor = (event: WorkflowEvent): Record<Placeholder, string> => ({
    FirstName: details.customer_first_name,
    LastName: details.customer_last_name,
    BookingReference: details.reference,
    ActivityName: details.activity_name,
    Date: details.date,
    Time: details.time,
    Participants: String(details.participants),
    // The name guests know the shop by (shop settings), else the operator's.
    OperatorName: details.shop_name ?? details.operator_name,
    ...guestWords(language, event, {
      firstName: details.customer_first_name,
      activityName: details.activity_name,
      date: details.date,
      time: details.time,
      timezone: details.timezone,
    }),
    // Left for the sending worker, which holds the keys the link's token needs (storefront/email-links.ts).
    ManageBookingUrl: MANAGE_BOOKING_MARKER,
    CompleteWaiverUrl: COMPLETE_WAIVER_MARKER,
  });
  return {
    values: valuesFor('booking-confirmed'),
    valuesFor,
    channel: details.source === 'partner' ? (details.octo === 1 ? 'octo' : 'partner') : details.source === 'pos' ? 'pos' : 'online',
    language,
    customerEmail: details.customer_email,
    startsAt: details.starts_at,
    endsAt: details.ends_at,
  };
}
