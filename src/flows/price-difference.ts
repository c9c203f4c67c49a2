// A confirmed booking moved (a step of flows/reschedule.ts) may change its price: staff (or a partner) moving it to
// another activity price its tickets by that activity. Where the guest paid online, the difference is
// settled in the move's own transaction (docs/bookings.md, "Money when the price changes"), by the one
// computation of payments/ledger.ts (priceDifferenceOf), refunds pending included:
// - cheaper: what was paid toward the price beyond the new price goes back at once, a refund like staff's own
//   (reason price-difference, asked by whoever moved it; Stripe's is sent right after the commit);
// - dearer: the guest is e-mailed their booking page, where "Pay the balance" takes what is now due
//   (pay-balance.ts makes Stripe's page at the click). A difference refunded before and made due again by a
//   move back is due like any other.
// Moves within an activity never change the price; a booking not paid online is settled at the desk.
import type { Tx } from '../db/connection.js';
import { queueEmail } from '../emails/outbox.js';
import { findBookingForEmail } from '../bookings/index.js';
import { formatMinorUnits } from '../lib/money.js';
import { bookingAccount } from '../payments/booking-money.js';
import { priceDifferenceOf } from '../payments/ledger.js';
import { MANAGE_BOOKING_MARKER } from '../workflows/templates.js';
import { refundPriceDifference } from '../payments/refunds.js';
import type { UnixSeconds } from '../lib/clock.js';

/** Settles the difference the move of the booking made to its price, in the move's transaction. */
export async function settlePriceDifference(tx: Tx, booking: { operator_id: number; id: number }, now: UnixSeconds): Promise<void> {
  const account = await bookingAccount(tx, booking.operator_id, booking.id, now);
  if (!account?.ledger.lines.some((line) => line.provider !== 'desk')) return;
  const difference = priceDifferenceOf(account.booking, account.ledger);
  if (difference.refund > 0) {
    await refundPriceDifference(tx, booking.operator_id, booking.id, difference.refund);
    return;
  }
  if (difference.due === 0) return;
  const details = await findBookingForEmail(tx, booking.operator_id, booking.id);
  if (!details) return;
  const currency = account.booking.currency;
  const due = `${formatMinorUnits(difference.due, currency)} ${currency}`;
  await queueEmail(tx, {
    operatorId: booking.operator_id,
    kind: 'balance',
    bookingId: booking.id,
    to: details.customer_email,
    subject: `Your booking ${details.reference} moved: ${due} to pay`,
    body:
      'Hello,\n\n' +
      `your booking ${details.reference} is now for ${details.activity_name} on ${details.date} at ${details.time}. ` +
      `Its new price leaves ${due} to pay.\n\n` +
      `Pay it on your booking's page:\n${MANAGE_BOOKING_MARKER}\n\n` +
      'You can also pay it when you arrive.\n',
    sendAt: now,
    meter: null,
    meterExtraInfo: null,
  });
}
