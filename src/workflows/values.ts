// The values a workflow template's placeholders take for one booking. Sending (hooks.ts) and the
// dashboard's preview (preview.ts) both read them here, so a preview shows exactly what would be sent.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { findBookingForEmail } from '../bookings/store.js';
import { COMPLETE_WAIVER_MARKER, MANAGE_BOOKING_MARKER, type Placeholder } from './templates.js';

export interface BookingForTemplate {
  values: Record<Placeholder, string>;
  source: string;
  customerEmail: string;
  startsAt: number;
  endsAt: number;
}

/** The booking's placeholder values; undefined when the operator has no such booking. */
export async function bookingTemplateValues(db: Kysely<Database>, operatorId: number, bookingId: number): Promise<BookingForTemplate | undefined> {
  const details = await findBookingForEmail(db, operatorId, bookingId);
  if (!details) return undefined;
  return {
    values: {
      FirstName: details.customer_first_name,
      LastName: details.customer_last_name,
      BookingReference: details.reference,
      ActivityName: details.activity_name,
      Date: details.date,
      Time: details.time,
      Participants: String(details.participants),
      // The name guests know the shop by (shop settings), else the operator's.
      OperatorName: details.shop_name ?? details.operator_name,
      // Left for the sending worker, which holds the keys the link's token needs (storefront/email-links.ts).
      ManageBookingUrl: MANAGE_BOOKING_MARKER,
      CompleteWaiverUrl: COMPLETE_WAIVER_MARKER,
    },
    source: details.source,
    customerEmail: details.customer_email,
    startsAt: Number(details.starts_at),
    endsAt: Number(details.ends_at),
  };
}
