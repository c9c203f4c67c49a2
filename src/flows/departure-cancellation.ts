// The operator cancels a departure (the wind picked up). The use case, step by step, in ONE transaction:
// the bookings domain cancels every live booking of the timeslot through the lifecycle and closes it to
// new bookings on every channel; then, for each booking, all that remains of what it paid online is
// refunded in full (whatever the activity's rules), and its guest is e-mailed the operator's message with
// a link to book another time. Stripe's refunds are sent right after the commit (the refund sender retries
// what fails). A repeated call changes nothing and answers the first cancellation.
import type { Db } from '../db/connection.js';
import type { InstanceKeys } from '../secrets/keys.js';
import { unixNow } from '../lib/clock.js';
import { cancelTimeslotBookings, getCancelledDeparture, type CancelledDepartureView } from '../bookings/departures.js';
import { sendPendingRefunds } from '../payments/jobs.js';
import type { StripeSettings } from '../payments/providers/stripe/gateway.js';
import { refundDepartureCancellation } from '../payments/refunds.js';
import { emailCancelledDeparture } from './departure-email.js';

export interface DepartureContext {
  db: Db;
  keys: InstanceKeys;
  /** Stripe's address and PUBLIC_URL (the rebooking link). */
  settings: StripeSettings & { publicUrl: string };
}

/** 404: no such timeslot; 409: it has started (or closed) and was not cancelled. */
export async function cancelDeparture(
  context: DepartureContext,
  operatorId: number,
  timeslotId: number,
  message: string,
): Promise<CancelledDepartureView> {
  const { db } = context;
  const cancelled = await db.write(async (tx) => {
    const now = unixNow();
    const departure = await cancelTimeslotBookings(tx, operatorId, timeslotId, message, now);
    const words = { message, activityId: departure.activityId, publicUrl: context.settings.publicUrl };
    for (const booking of departure.bookings) {
      await refundDepartureCancellation(tx, booking);
      await emailCancelledDeparture(tx, booking, words, now);
    }
    return departure.bookings.length;
  });
  if (cancelled > 0) await sendPendingRefunds(db, context.keys, context.settings, operatorId);
  return getCancelledDeparture(db, operatorId, timeslotId);
}
