// The values a workflow template's placeholders take for one booking. Sending (hooks.ts) and the
// dashboard's preview (preview.ts) both read them here, so a preview shows exactly what would be sent.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { MANAGE_BOOKING_MARKER, type Placeholder } from './templates.js';

export interface BookingForTemplate {
  values: Record<Placeholder, string>;
  source: string;
  customerEmail: string;
  startsAt: number;
  endsAt: number;
}

/** The booking's placeholder values; undefined when the operator has no such booking. */
export async function bookingTemplateValues(db: Kysely<Database>, operatorId: number, bookingId: number): Promise<BookingForTemplate | undefined> {
  const details = await db
    .selectFrom('bookings')
    .innerJoin('timeslots', 'timeslots.id', 'bookings.timeslot_id')
    .innerJoin('activities', 'activities.id', 'timeslots.activity_id')
    .innerJoin('operators', 'operators.id', 'bookings.operator_id')
    .select([
      'bookings.reference',
      'bookings.source',
      'bookings.participants',
      'bookings.customer_first_name',
      'bookings.customer_last_name',
      'bookings.customer_email',
      'timeslots.date',
      'timeslots.time',
      'timeslots.starts_at',
      'timeslots.ends_at',
      'activities.name as activity_name',
      'operators.name as operator_name',
      'operators.shop_name',
    ])
    .where('bookings.id', '=', bookingId)
    .where('bookings.operator_id', '=', operatorId)
    .executeTakeFirst();
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
    },
    source: details.source,
    customerEmail: details.customer_email,
    startsAt: Number(details.starts_at),
    endsAt: Number(details.ends_at),
  };
}
