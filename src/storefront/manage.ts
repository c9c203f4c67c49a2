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
import type { StripeSettings } from '../payments/providers/stripe/gateway.js';
import { getBooking } from '../bookings/service.js';
import { cancelByGuest } from '../flows/guest-cancellation.js';
import { findBookingId } from '../bookings/index.js';
import { completeWaiver } from '../bookings/waiver-completion.js';
import { departureMessageOf } from '../bookings/departures.js';
import { findActivity } from '../catalog/index.js';
import { unixNow } from '../lib/clock.js';
import { requireBasket } from '../shop/baskets.js';
import { guestRefundPreview } from '../payments/refunds.js';
import { listBasketItems } from '../shop/index.js';
import type { BalancePayment, BookingWaiver, CompleteWaiverBody, ManageLink, ManagedBooking } from './manage-schemas.js';
import { listQuestions } from '../questions/service.js';
import { listActivityQuestions } from '../questions/index.js';
import { owedOf } from '../payments/booking-money.js';
import { payBalance, type BalanceConfig } from '../flows/pay-balance.js';
import { manageBookingUrl } from '../settings/links.js';
import { profileSlug } from '../settings/profile.js';

const PURPOSE = 'manage-booking';
/** Who the audit log names for what a guest does through their link. */
const GUEST_ACTOR = { type: 'anonymous', id: null, label: 'guest (manage link)' } as const;
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
  const bookingId = (await findBookingId(db, operatorId, booking.BookingReference))!;
  const owed = (await owedOf(db, operatorId, [bookingId])).get(bookingId);
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
    WaiverStatus: booking.WaiverStatus,
    WaiverToComplete:
      booking.WaiverStatus === 'pending' &&
      (booking.Status === 'confirmed' || booking.Status === 'on_hold') &&
      (await listActivityQuestions(db, operatorId, activity.id)).length > 0,
    Balance: {
      AmountPaid: (owed?.AmountPaid ?? 0) - (owed?.AmountRefunded ?? 0),
      AmountDue: owed?.PaymentState === 'partner' ? 0 : (owed?.AmountDue ?? 0),
    },
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
  await cancelByGuest({ db, keys, settings }, operatorId, view.BookingReference, GUEST_ACTOR);
  return managedBooking(db.kysely, keys, operatorId, token);
}

/** The booking's waiver status and its activity's questions, for the page where the guest completes it. */
export async function bookingWaiver(
  db: Kysely<Database>,
  keys: InstanceKeys,
  operatorId: number,
  token: string,
  locale?: string,
): Promise<BookingWaiver> {
  const booking = await getBooking(db, operatorId, referenceOf(keys, operatorId, token));
  return { WaiverStatus: booking.WaiverStatus, Questions: await listQuestions(db, operatorId, booking.ActivityID, locale) };
}

/** The guest completes the booking's waiver (bookings/waiver-completion.ts): 422 naming the answer, 409 when it is complete or the booking is not live. */
export async function completeWaiverAsGuest(
  db: Db,
  keys: InstanceKeys,
  operatorId: number,
  token: string,
  answers: CompleteWaiverBody['WaiverAnswers'],
): Promise<ManagedBooking> {
  await completeWaiver(db, operatorId, referenceOf(keys, operatorId, token), answers, GUEST_ACTOR);
  return managedBooking(db.kysely, keys, operatorId, token);
}

/** The booking a token names, as uploads through its link need it: 409 once its waiver is complete (nothing more to upload for). */
export async function bookingForUpload(db: Kysely<Database>, keys: InstanceKeys, operatorId: number, token: string): Promise<number> {
  const reference = referenceOf(keys, operatorId, token);
  const booking = await getBooking(db, operatorId, reference);
  if (booking.WaiverStatus === 'complete') throw new Conflict(`The waiver of booking ${reference} is complete: it takes no more files`);
  if (booking.Status !== 'confirmed' && booking.Status !== 'on_hold') throw new Conflict(`Booking ${reference} is ${booking.Status}`);
  return (await findBookingId(db, operatorId, reference))!;
}

/**
 * The guest pays what their booking still owes (a deposit's balance): a Stripe Checkout Session made now,
 * whose success and cancel address is this booking page; with the test provider, a test card at once.
 */
export async function payBalanceAsGuest(
  db: Db,
  keys: InstanceKeys,
  config: BalanceConfig & { publicUrl: string },
  operatorId: number,
  token: string,
  payer: { cardNumber: string | undefined; clientHmac: string },
): Promise<BalancePayment> {
  const reference = referenceOf(keys, operatorId, token);
  const returnUrl = manageBookingUrl(config.publicUrl, await profileSlug(db.kysely, operatorId), token);
  const outcome = await payBalance(db, keys, config, operatorId, reference, {
    returnUrl,
    clientHmac: payer.clientHmac,
    ...(payer.cardNumber !== undefined && { cardNumber: payer.cardNumber }),
  });
  return { Status: outcome.status, RedirectURL: outcome.redirectUrl, AmountDue: outcome.owed.AmountDue, Currency: outcome.owed.Currency };
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
