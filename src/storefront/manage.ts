// A guest's own booking, reached through the link in their e-mails: /book/{slug}/manage/{token}. The token
// is the booking reference and an HMAC of it under an instance key (src/secrets), so it is unguessable,
// needs no storage, and works for every booking ever made; it cannot be revoked short of changing the
// instance secret, which is acceptable for what it allows (viewing, and cancelling within the operator's
// rule). Cancelling goes through the bookings domain (seats, events, audit, waitlist offers).
import { renderSVG } from 'uqr';
import { timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import type { InstanceKeys } from '../secrets/keys.js';
import { Conflict, NotFound } from '../http/errors.js';
import { sendPendingRefunds } from '../payments/jobs.js';
import type { StripeSettings } from '../payments/stripe.js';
import { cancelBooking, getBooking } from '../bookings/service.js';
import { departureMessageOf } from '../bookings/departures.js';
import { findActivity } from '../catalog/store.js';
import { unixNow } from '../lib/clock.js';
import { requireBasket } from '../shop/baskets.js';
import { guestRefundPreview } from '../shop/refunds.js';
import { listBasketItems } from '../shop/store.js';
import type { ManageLink, ManagedBooking } from './manage-schemas.js';

const PURPOSE = 'manage-booking';
/** The capability of the booking's guest: its reference and 128 bits of HMAC over operator and reference. */
export function manageToken(keys: InstanceKeys, operatorId: number, reference: string): string {
  return `${reference}_${keys.hmac(PURPOSE, `${operatorId}:${reference}`).slice(0, 32)}`;
}

/**
 * The booking's QR code for the door (docs/checkin.md: it encodes the reference, which staff scan or type),
 * for a token that names a booking of the operator; 404 like the booking itself otherwise.
 */
export async function managedBookingQr(db: Kysely<Database>, keys: InstanceKeys, operatorId: number, token: string): Promise<string> {
  const booking = await getBooking(db, operatorId, referenceOf(keys, operatorId, token));
  return renderSVG(booking.BookingReference, { border: 2 });
}

/** The reference a token stands for, or 404 (an altered or foreign token is not told apart from an unknown one). */
export function referenceOf(keys: InstanceKeys, operatorId: number, token: string): string {
  const [reference] = token.split('_');
  const expected = Buffer.from(manageToken(keys, operatorId, reference!));
  const given = Buffer.from(token);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new NotFound('No such booking link');
  return reference!;
}

export async function managedBooking(
  db: Kysely<Database>,
  keys: InstanceKeys,
  operatorId: number,
  token: string,
  now = unixNow(),
): Promise<ManagedBooking> {
  const booking = await getBooking(db, operatorId, referenceOf(keys, operatorId, token));
  const activity = await findActivity(db, operatorId, booking.ActivityID);
  if (!activity) throw new NotFound('No such booking link');
  const startsAt = Date.parse(booking.StartsAt) / 1000;
  const hours = activity.guest_cancel_hours;
  const until = hours === null ? null : startsAt - hours * 3600;
  let refusal: string | null = null;
  if (booking.Status !== 'confirmed') refusal = 'not-confirmed';
  else if (until === null) refusal = 'not-allowed';
  else if (now > until) refusal = 'too-late';
  const refund = refusal === null ? await guestRefundPreview(db, operatorId, booking.BookingReference, now) : null;
  const moveHours = activity.guest_reschedule_hours;
  const moveUntil = moveHours === null ? null : startsAt - moveHours * 3600;
  const moveRefusal = booking.Status !== 'confirmed' ? 'not-confirmed' : moveUntil === null ? 'not-allowed' : now > moveUntil ? 'too-late' : null;
  return {
    BookingReference: booking.BookingReference,
    Status: booking.Status,
    ActivityID: booking.ActivityID,
    ActivityName: activity.name,
    Timezone: activity.timezone,
    Date: booking.Date,
    Time: booking.Time,
    StartsAt: booking.StartsAt,
    Participants: booking.Participants,
    Tickets: booking.Tickets,
    Currency: booking.Currency,
    Total: booking.Total,
    Customer: { FirstName: booking.Customer.FirstName, LastName: booking.Customer.LastName },
    Cancellation: {
      Allowed: refusal === null,
      Until: until === null ? null : new Date(until * 1000).toISOString(),
      Refusal: refusal as ManagedBooking['Cancellation']['Refusal'],
      RefundPercent: refund?.percent ?? null,
      Refund: refund?.amount ?? null,
    },
    DepartureMessage: booking.Status === 'cancelled' ? await departureMessageOf(db, operatorId, booking.BookingReference) : null,
    Reschedule: {
      Allowed: moveRefusal === null,
      Until: moveUntil === null ? null : new Date(moveUntil * 1000).toISOString(),
      Refusal: moveRefusal,
    },
  };
}

/** Cancels as the guest, within the operator's rule; 409 (saying why) otherwise. Cancelling twice is 409 too. */
export async function cancelAsGuest(
  db: Db,
  keys: InstanceKeys,
  settings: StripeSettings,
  operatorId: number,
  token: string,
): Promise<ManagedBooking> {
  const view = await managedBooking(db.kysely, keys, operatorId, token);
  switch (view.Cancellation.Refusal) {
    case 'not-confirmed':
      throw new Conflict(`Booking ${view.BookingReference} is ${view.Status}: only a confirmed booking can be cancelled`);
    case 'not-allowed':
      throw new Conflict('This booking cannot be cancelled online; please contact the operator');
    case 'too-late':
      throw new Conflict(`Online cancellation closed at ${view.Cancellation.Until}; please contact the operator`);
  }
  // Within the rule, a paid booking's share is refunded: recorded with the cancellation, sent to Stripe right after it.
  await cancelBooking(
    db,
    operatorId,
    view.BookingReference,
    undefined,
    { type: 'anonymous', id: null, label: 'guest (manage link)' },
    { byGuest: true },
  );
  await sendPendingRefunds(db, keys, settings, operatorId);
  return managedBooking(db.kysely, keys, operatorId, token);
}

/**
 * The manage tokens of a paid basket's bookings, for its confirmation page: whoever holds the basket token
 * is the guest who paid, so the page can link each booking's own page even when the operator's e-mails
 * carry no {{ManageBookingUrl}}. An open basket has none (its bookings are not confirmed): 409.
 */
export async function basketManageLinks(db: Kysely<Database>, keys: InstanceKeys, operatorId: number, basketToken: string): Promise<ManageLink[]> {
  const basket = await requireBasket(db, operatorId, basketToken);
  if (basket.status !== 'paid') throw new Conflict('This basket is not paid yet: its bookings have no page of their own');
  const items = await listBasketItems(db, basket.id);
  return items.map((item) => ({ BookingReference: item.reference, ManageToken: manageToken(keys, operatorId, item.reference) }));
}
