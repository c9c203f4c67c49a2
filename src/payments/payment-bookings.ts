// Which bookings a payment paid: the bookings of its basket (the shop's to know: it imports this domain),
// or the one booking a payment of a booking names. The shop provides the reader, wired by the composition
// (src/reactions.ts); the payments domain asks it for the webhook events' booking references and for the
// bookings a dispute flags.
import type { Kysely, Selectable } from 'kysely';
import type { Database, PaymentTable } from '../db/schema.js';

// Row type from the schema: store.ts is not imported here (its writers publish through money-events.ts).
type PaymentRow = Selectable<PaymentTable>;

export interface PaymentBooking {
  id: number;
  reference: string;
  /** The booked activity's IANA time zone: a deadline is told in it. */
  timezone: string;
}

export type PaymentBookingsReader = (db: Kysely<Database>, payment: Pick<PaymentRow, 'basket_id' | 'booking_id'>) => Promise<PaymentBooking[]>;

let reader: PaymentBookingsReader = async () => [];

/** Sets who tells which bookings a payment paid (the shop). */
export function providePaymentBookings(read: PaymentBookingsReader): void {
  reader = read;
}

/** The bookings the payment paid, in the order they were added to its basket. */
export function paymentBookings(db: Kysely<Database>, payment: Pick<PaymentRow, 'basket_id' | 'booking_id'>): Promise<PaymentBooking[]> {
  return reader(db, payment);
}
