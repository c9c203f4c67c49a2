// What a booking paid and got back, for the operator's booking answer (bookings/admin-routes.ts). Which
// payment paid a booking is the shop's to know (its baskets), and the shop imports the bookings domain;
// so the shop provides it here, wired by the composition (src/reactions.ts), and the bookings domain asks.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { BookingMoney } from './schemas.js';
import { listBookingDisputes } from './dispute-store.js';
import { disputeView } from './view.js';

/** What the shop tells; the disputes are this domain's own (dispute-store.ts). */
type ProvidedMoney = Omit<BookingMoney, 'Disputes'>;

export type BookingMoneyReader = (db: Kysely<Database>, operatorId: number, bookingId: number, reference: string) => Promise<ProvidedMoney>;

const NOTHING: ProvidedMoney = { Payments: [], Refunds: [], AmountPaid: 0, AmountRefunded: 0 };
let reader: BookingMoneyReader = async () => NOTHING;

/** Sets who tells what a booking paid (the shop). */
export function provideBookingMoney(read: BookingMoneyReader): void {
  reader = read;
}

export async function bookingMoney(db: Kysely<Database>, operatorId: number, bookingId: number, reference: string): Promise<BookingMoney> {
  const [money, disputes] = await Promise.all([reader(db, operatorId, bookingId, reference), listBookingDisputes(db, operatorId, bookingId)]);
  return { ...money, Disputes: disputes.map(disputeView) };
}
