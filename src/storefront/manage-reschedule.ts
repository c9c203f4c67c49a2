// A guest moving their own booking to another time of the same activity from the manage page, while the
// activity's GuestRescheduleHours allows it (until that many hours before the booking's start). It goes
// through the bookings' one reschedule (seats moved atomically, webhooks, audit, the workflows'
// booking-rescheduled e-mail). Within the activity the booking keeps its tickets at the prices paid, so a
// move never leaves money to collect or refund (docs/booking-pages.md).
import type { Db } from '../db/connection.js';
import type { InstanceKeys } from '../secrets/keys.js';
import { Conflict, ValidationFailed } from '../http/errors.js';
import { unixNow } from '../lib/clock.js';
import { rescheduleBooking } from '../flows/reschedule.js';
import { managedBooking, referenceOf } from './manage.js';
import type { GuestRescheduleBody, ManagedBooking } from './manage-schemas.js';

const GUEST = { type: 'anonymous', id: null, label: 'guest (manage link)' } as const;

/** Moves the booking as its guest, within the operator's rule; 409 (saying why) otherwise, 409 too when the new time lacks room. */
export async function rescheduleAsGuest(
  db: Db,
  keys: InstanceKeys,
  operatorId: number,
  token: string,
  body: GuestRescheduleBody,
): Promise<ManagedBooking> {
  const view = await managedBooking(db.kysely, keys, operatorId, token);
  switch (view.Reschedule.Refusal) {
    case 'not-confirmed':
      throw new Conflict(`Booking ${view.BookingReference} is ${view.Status}: only a confirmed booking can be moved`);
    case 'not-allowed':
      throw new Conflict('This booking cannot be moved online; please contact the operator');
    case 'too-late':
      throw new Conflict(`Moving this booking online closed at ${view.Reschedule.Until}; please contact the operator`);
  }
  const now = unixNow();
  await rescheduleBooking(
    db,
    operatorId,
    referenceOf(keys, operatorId, token),
    { Date: body.Date, Time: body.Time },
    {
      // Within the activity the price never changes: nothing is refunded, nothing is sent.
      caller: 'guest',
      refunds: { keys, settings: { stripeApiBase: '' } },
      as: GUEST,
      allow: (_booking, target) => {
        if (target.startsAt <= now) throw ValidationFailed.field('Time', `The timeslot on ${body.Date} at ${body.Time} has already started`);
      },
    },
  );
  return managedBooking(db.kysely, keys, operatorId, token);
}
