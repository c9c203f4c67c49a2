// Turns a stored booking into the API's Booking.
import { unixToZonedIso } from '../calendar/zoned-time.js';
import type { Booking, BookingSource, BookingStatus } from './schemas.js';
import type { BookingRecord } from './store.js';
import { toBookedTicket } from '../catalog/tickets/view.js';
import type { BookingTicketRow } from '../catalog/index.js';
import type { UnixSeconds } from '../lib/clock.js';

/**
 * The status a client should see. A hold whose time has run out is expired from that second on, even
 * while the row still says on_hold because no write has released it yet: its seats are already free
 * for everyone else (the availability readers do the same sum), so it must not look reserved.
 */
export function effectiveStatus(row: { status: string; hold_expires_at: number | null }, now: UnixSeconds): BookingStatus {
  if (row.status === 'on_hold' && row.hold_expires_at !== null && row.hold_expires_at <= now) return 'expired';
  return row.status as BookingStatus;
}

/** The booking with its tickets (bookingTicketsOf), as the API shows it. */
export function toBooking(record: BookingRecord, tickets: BookingTicketRow[], now: UnixSeconds): Booking {
  return {
    BookingReference: record.reference,
    Status: effectiveStatus(record, now),
    Source: record.source as BookingSource,
    Partner: record.partner,
    PaymentReference: record.payment_reference,
    ActivityID: record.activity_public_id,
    Date: record.date,
    Time: record.time,
    StartsAt: unixToZonedIso(record.starts_at, record.timezone),
    Participants: record.participants,
    Seats: record.seats,
    Tickets: tickets.map(toBookedTicket),
    Currency: tickets[0]?.currency ?? '',
    Total: tickets.reduce((sum, ticket) => sum + ticket.quantity * ticket.unit_price, 0),
    Customer: {
      FirstName: record.customer_first_name,
      LastName: record.customer_last_name,
      Email: record.customer_email,
      Phone: record.customer_phone,
    },
    WaiverStatus: record.waiver_status === 'complete' ? 'complete' : 'pending',
    Locale: record.locale ?? 'en',
    HoldExpiresAt: record.hold_expires_at === null ? null : new Date(record.hold_expires_at * 1000).toISOString(),
    CreatedAt: new Date(record.created_at).toISOString(),
  };
}
