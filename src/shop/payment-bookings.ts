// Which bookings a payment paid, for the payments domain (payments/payment-bookings.ts): a basket's
// payment paid the basket's bookings; a payment of one booking (the desk's, a balance) that booking.
import type { PaymentBookingsReader } from '../payments/payment-bookings.js';
import { bookingWithZone, listBasketItems } from './store.js';

export const readPaymentBookings: PaymentBookingsReader = async (db, payment) => {
  if (payment.basket_id !== null) {
    const items = await listBasketItems(db, payment.basket_id);
    return items.map((item) => ({ id: item.booking_id, reference: item.reference, timezone: item.timezone }));
  }
  if (payment.booking_id === null) return [];
  const booking = await bookingWithZone(db, payment.booking_id);
  return booking ? [booking] : [];
};
