// The bookings list as CSV, with the list's own filters: the rows come from the bookings domain's
// listOperatorBookings (the same query, order and statuses as the dashboard's list), a page at a time,
// so a long export never holds every booking in memory at once.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { csvLine } from '../audit/csv.js';
import { listOperatorBookings } from '../bookings/service.js';
import type { Booking, BookingListQuery } from '../bookings/schemas.js';
import { MAX_LIST_LIMIT } from '../http/schemas.js';
import { formatMinorUnits } from '../lib/money.js';

export type BookingExportQuery = Omit<BookingListQuery, 'Limit' | 'Offset'>;

const HEADER = [
  'BookingReference',
  'Status',
  'Source',
  'Partner',
  'ActivityID',
  'Date',
  'Time',
  'Participants',
  'Tickets',
  'Currency',
  'Total',
  'FirstName',
  'LastName',
  'Email',
  'Phone',
  'WaiverStatus',
  'PaymentReference',
  'CreatedAt',
];

const line = (b: Booking) =>
  csvLine([
    b.BookingReference,
    b.Status,
    b.Source,
    b.Partner,
    b.ActivityID,
    b.Date,
    b.Time,
    b.Participants,
    b.Tickets.map((t) => `${t.Quantity} × ${t.Name}`).join('; '),
    b.Currency,
    b.Currency ? formatMinorUnits(b.Total, b.Currency) : '',
    b.Customer.FirstName,
    b.Customer.LastName,
    b.Customer.Email,
    b.Customer.Phone,
    b.WaiverStatus,
    b.PaymentReference,
    b.CreatedAt,
  ]);

/** CSV lines: the header, then every matching booking. The first page is read before the first line. */
export async function* bookingsCsv(db: Kysely<Database>, operatorId: number, query: BookingExportQuery): AsyncGenerator<string> {
  let offset = 0;
  let page = await listOperatorBookings(db, operatorId, { ...query, Limit: MAX_LIST_LIMIT, Offset: offset });
  yield csvLine(HEADER);
  for (;;) {
    for (const booking of page) yield line(booking);
    if (page.length < MAX_LIST_LIMIT) return;
    offset += MAX_LIST_LIMIT;
    page = await listOperatorBookings(db, operatorId, { ...query, Limit: MAX_LIST_LIMIT, Offset: offset });
  }
}
