// Which bookings a payment paid: its allocations (ledger-store.ts), written when it took money. The
// webhook events' booking references and the bookings a dispute flags are read here.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { paidBookings } from './ledger-store.js';

export interface PaymentBooking {
  id: number;
  reference: string;
  /** The booked activity's IANA time zone: a deadline is told in it. */
  timezone: string;
}

/** The bookings the payment paid, oldest first; none for a payment that never took money. */
export function paymentBookings(db: Kysely<Database>, payment: { id: number }): Promise<PaymentBooking[]> {
  return paidBookings(db, payment.id);
}
