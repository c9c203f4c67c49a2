// Reservations and bookings of GetYourGuide over slotbook's own bookings. A reservation is a partner
// booking on hold (source partner, partner `GetYourGuide`, GYG's reference as payment_reference): GYG's
// request as the domain's BookingDraft, reserved under GYG's reference by the bookings' one recipe
// (reserveUnderReference), so its seats are taken by the same conditional-capacity write and seen by the
// partner API, the shop and OCTo at once, and the catalogue's refusals of its mix are mapped to GYG's
// codes. Book confirms the hold (the lifecycle's confirm: the same domain events, webhooks and workflows
// as any confirmation); cancel-reservation and cancel-booking are the lifecycle's cancel, within the
// policy for GetYourGuide.
// GYG retries on timeouts: gyg_bookings holds GYG's reference under a unique (operator, reference)
// constraint, written in the reservation's transaction, so a repeated reserve or book answers the first.
import type { Kysely } from 'kysely';
import type { Db } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { nowMillis, unixNow, type UnixSeconds } from '../lib/clock.js';
import { isEmailAddress } from '../lib/email-address.js';
import { NATIVE_CHANNELS } from '../lib/marketplaces.js';
import type { AuditActor } from '../audit/log.js';
import { findTimeslotAt, type TimeslotRow } from '../availability/index.js';
import { cancel, confirm, reserveUnderReference, type BookingDraft, type BookingOrigin, type Caller, type Refusal } from '../bookings/index.js';
import { changeBookingDetails, findBooking } from '../bookings/index.js';
import { effectiveStatus } from '../bookings/view.js';
import type { ActivityRow } from '../catalog/index.js';
import { GygError, gygReservationError } from './errors.js';
import { isGygCategory, type OfferedType } from './offer.js';
import { isOpeningHours, readDateTime } from './availability.js';
import { requireProduct, type GygCaller, type GygProduct } from './products.js';
import {
  findByBookingReference,
  findByGygReference,
  findDayTimeslot,
  insertGygBooking,
  markBooked,
  repointGygBooking,
  type GygBookingLink,
} from './store.js';
import type {
  BookBody,
  BookingData,
  CancelBookingBody,
  CancelReservationBody,
  ReservationData,
  ReservationItem,
  ReserveBody,
  Ticket,
} from './schemas.js';

/**
 * The partner name GYG's bookings carry (bookings.partner): GetYourGuide's own, which no API key's
 * marketplace can take (lib/marketplaces.ts), so a key named `getyourguide` never sees them.
 */
export const GYG_PARTNER = NATIVE_CHANNELS.getyourguide;
/** Who the audit log names for what GetYourGuide does. */
const GYG_ACTOR: AuditActor = { type: 'system', id: null, label: 'GetYourGuide' };
const GYG_CALLER: Caller = { kind: 'getyourguide', as: GYG_ACTOR };

export interface HoldTerms {
  holdMinutes: number;
}

// ---- references ------------------------------------------------------------------------------------

/** GYG wants at most 25 letters and digits: slotbook's BK-XXXXXXXX without its hyphen. */
export const gygReferenceOf = (reference: string): string => reference.replace(/[^A-Za-z0-9]/g, '');

/** slotbook's reference from what GYG sends back: with or without the hyphen, any case. */
export function bookingReferenceFrom(text: string): string | undefined {
  const match = /^BK-?([A-Za-z0-9]{8})$/i.exec(text.trim());
  return match ? `BK-${match[1]!.toUpperCase()}` : undefined;
}

const utcIso = (seconds: UnixSeconds) => new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');

// ---- the request's tickets -------------------------------------------------------------------------

/**
 * GYG's items as the activity's ticket lines (codes and quantities): each category must be offered, and a
 * group no larger than its type. Whether the mix may be sold is the catalogue's rule, judged when it is
 * placed; its refusal is said in GYG's words (gygReservationError).
 */
function ticketsOf(product: GygProduct, items: ReservationItem[]): { code: string; quantity: number }[] {
  const { activity, offered } = product;
  const byCategory = new Map<string, OfferedType>(offered.map((o) => [o.category, o]));
  const quantities = new Map<OfferedType, number>();
  for (const item of items) {
    const offer = byCategory.get(item.category);
    if (!offer) {
      const known = isGygCategory(item.category) ? 'is not offered for this product' : 'is not a GetYourGuide category';
      throw new GygError(
        'INVALID_TICKET_CATEGORY',
        `Category ${item.category} ${known}; product ${product.productId} sells ${offered.map((o) => o.category).join(', ')}`,
      );
    }
    if (offer.category === 'GROUP') {
      const size = item.groupSize ?? offer.type.people;
      if (size > offer.type.people) {
        throw new GygError('INVALID_PARTICIPANTS_CONFIGURATION', `A group may have at most ${offer.type.people} participants`, {
          participantsConfiguration: { min: 1, max: offer.type.people },
          groupConfiguration: {
            max: offer.type.max_per_booking ?? Math.max(1, Math.floor(activity.max_participants_per_booking / offer.type.people)),
          },
        });
      }
    }
    quantities.set(offer, (quantities.get(offer) ?? 0) + item.count);
  }
  return [...quantities].map(([offer, quantity]) => ({ code: offer.type.code, quantity }));
}

/** The timeslot GYG's dateTime names: one starting at that instant, or (time period) the day's. */
async function timeslotAt(db: Kysely<Database>, activity: ActivityRow, dateTime: string): Promise<TimeslotRow> {
  const local = readDateTime(dateTime, activity, 'dateTime');
  const date = local.toISODate()!;
  const slot = isOpeningHours(activity)
    ? await findDayTimeslot(db, activity.id, date)
    : await findTimeslotAt(db, activity.id, date, local.toFormat('HH:mm'));
  if (!slot || (!isOpeningHours(activity) && slot.starts_at !== local.toUnixInteger())) {
    throw GygError.noAvailability(`There is no departure of this product at ${dateTime}`);
  }
  return slot;
}

/** What identifies a reservation's request: the product, the time and the items (a retry repeats all three). */
const sameRequest = (link: GygBookingLink, productId: string, timeslot: TimeslotRow, items: ReservationItem[]): boolean =>
  link.product_id === productId && link.timeslot_id === timeslot.id && link.items === itemsColumn(items);

const itemsColumn = (items: ReservationItem[]): string =>
  JSON.stringify(
    items.map((item) => ({ category: item.category, count: item.count, ...(item.groupSize !== undefined && { groupSize: item.groupSize }) })),
  );

const isLive = (link: GygBookingLink, now: UnixSeconds) => {
  const status = effectiveStatus(link, now);
  return status === 'on_hold' || status === 'confirmed';
};

// ---- reserve ---------------------------------------------------------------------------------------

function answerReservation(link: GygBookingLink, productId: string, timeslot: TimeslotRow, items: ReservationItem[]): ReservationData {
  if (!sameRequest(link, productId, timeslot, items)) {
    throw GygError.validation(
      `gygBookingReference ${link.gyg_booking_reference} was already used for another reservation (another product, time or items)`,
    );
  }
  return { reservationReference: gygReferenceOf(link.reference), reservationExpiration: utcIso(link.hold_expires_at ?? unixNow()) };
}

export async function reserve(db: Db, caller: GygCaller, body: ReserveBody, terms: HoldTerms): Promise<ReservationData> {
  const { data } = body;
  const product = await requireProduct(db.kysely, caller, data.productId);
  const tickets = ticketsOf(product, data.bookingItems);
  const timeslot = await timeslotAt(db.kysely, product.activity, data.dateTime);
  const { operatorId } = caller;
  const now = unixNow();
  const origin: BookingOrigin = { operatorId, source: 'partner', partner: GYG_PARTNER };
  const draft: BookingDraft = {
    activityId: product.activity.public_id,
    date: timeslot.date,
    time: timeslot.time,
    tickets,
    // The lead traveller comes with book; until then the hold is GetYourGuide's.
    customer: { firstName: 'GetYourGuide', lastName: 'reservation', email: '', phone: '' },
    paymentReference: data.gygBookingReference,
    holdMinutes: terms.holdMinutes,
  };
  const outcome = await reserveUnderReference(
    db,
    origin,
    draft,
    { channel: 'GetYourGuide', reference: data.gygBookingReference },
    {
      find: (kysely) => findByGygReference(kysely, operatorId, data.gygBookingReference),
      // GYG reserves again under a reference whose earlier hold lapsed or was released: it names the new one.
      answers: (link) => isLive(link, now),
      record: async (tx, booking, stale) => {
        const row = {
          booking_id: booking.id,
          operator_id: operatorId,
          gyg_booking_reference: data.gygBookingReference,
          product_id: data.productId,
          items: itemsColumn(data.bookingItems),
          ticket_style: null,
          comment: null,
          language: null,
          booked_at: null,
        };
        return (stale ? await repointGygBooking(tx, stale.booking_id, row) : await insertGygBooking(tx, row)) !== undefined;
      },
    },
  );
  if (!outcome.ok) {
    const categoryOf = (code: string) => product.offered.find((o) => o.type.code === code)?.category;
    throw gygReservationError(outcome.refusal, categoryOf);
  }
  return answerReservation(outcome.link, data.productId, timeslot, data.bookingItems);
}

// ---- cancel-reservation ----------------------------------------------------------------------------

async function requireReservation(
  db: Kysely<Database>,
  caller: GygCaller,
  gygReference: string,
  reservationReference: string,
): Promise<GygBookingLink> {
  const link = await findByGygReference(db, caller.operatorId, gygReference);
  if (!link || gygReferenceOf(link.reference) !== gygReferenceOf(reservationReference).toUpperCase()) {
    throw new GygError('INVALID_RESERVATION', `There is no reservation ${reservationReference} for gygBookingReference ${gygReference}`);
  }
  return link;
}

/** Releases a held reservation; one already released or lapsed answers success (GYG retries). */
export async function cancelReservation(db: Db, caller: GygCaller, body: CancelReservationBody): Promise<void> {
  const link = await requireReservation(db.kysely, caller, body.data.gygBookingReference, body.data.reservationReference);
  const status = effectiveStatus(link, unixNow());
  if (status === 'confirmed' || link.booked_at !== null) {
    throw new GygError('INVALID_RESERVATION', `Reservation ${body.data.reservationReference} is already booked; cancel the booking instead`);
  }
  if (status !== 'on_hold') return;
  const record = await findBooking(db.kysely, caller.operatorId, link.reference);
  // A hold may always be let go; one that lapsed or was cancelled meanwhile is released already.
  if (record) await db.write((tx) => cancel(tx, record, GYG_CALLER, unixNow()));
}

// ---- book ------------------------------------------------------------------------------------------

function ticketsFor(link: GygBookingLink, style: string): Ticket[] {
  // What check-in accepts: the booking's reference, which the door's QR scan or a typed code opens.
  const code = { ticketCode: link.reference, ticketCodeType: 'QR_CODE' as const };
  if (style === 'COLLECTIVE') return [{ category: 'COLLECTIVE', ...code }];
  const items = JSON.parse(link.items) as ReservationItem[];
  return items.flatMap((item) => Array.from({ length: item.count }, () => ({ category: item.category as Ticket['category'], ...code })));
}

const bookingAnswer = (link: GygBookingLink): BookingData => ({
  bookingReference: gygReferenceOf(link.reference),
  tickets: ticketsFor(link, link.ticket_style ?? 'INDIVIDUAL'),
});

/** The comment GYG always sends ("\n" when empty) and the hotel for a pick-up, as one note; null when both are empty. */
function noteOf(body: BookBody['data']): string | null {
  const parts = [body.comment?.trim(), body.travelerHotel?.trim() && `Hotel: ${body.travelerHotel.trim()}`].filter((part): part is string => !!part);
  return parts.length > 0 ? parts.join('\n') : null;
}

export async function book(db: Db, caller: GygCaller, body: BookBody): Promise<BookingData> {
  const { data } = body;
  const link = await requireReservation(db.kysely, caller, data.gygBookingReference, data.reservationReference);
  if (link.product_id !== data.productId) {
    throw new GygError(
      'INVALID_RESERVATION',
      `Reservation ${data.reservationReference} was made for product ${link.product_id}, not ${data.productId}`,
    );
  }
  if (itemsColumn(data.bookingItems) !== link.items) {
    throw new GygError('INVALID_RESERVATION', `bookingItems differ from those of reservation ${data.reservationReference}; reserve again`);
  }
  if (data.addonItems && data.addonItems.length > 0) {
    throw new GygError('INVALID_ADDONS_CONFIGURATION', `Product ${data.productId} has no add-ons in the reservation system`);
  }
  const lead = data.travelers?.[0];
  // The guest's e-mails (confirmation, manage link) go to this address: one address by the rule every
  // channel shares, or none (then nothing is e-mailed), never a list.
  const email = (lead?.email ?? '').trim();
  if (email !== '' && !isEmailAddress(email)) {
    throw GygError.validation('data.travelers[0].email must be one e-mail address, such as ada@example.com');
  }
  if (link.booked_at !== null && link.status === 'confirmed') return bookingAnswer(link);

  const record = await findBooking(db.kysely, caller.operatorId, link.reference);
  if (!record) throw new Error(`GetYourGuide reservation ${data.gygBookingReference} has lost its booking`);
  const style = caller.connection.ticket_style;
  const now = unixNow();
  const outcome = await db.write((tx) =>
    confirm(tx, record, now, async () => {
      if (lead) {
        await changeBookingDetails(tx, link.booking_id, {
          customer_first_name: (lead.firstName ?? '').trim(),
          customer_last_name: (lead.lastName ?? '').trim(),
          customer_email: email,
          customer_phone: (lead.phoneNumber ?? '').trim(),
        });
      }
      await markBooked(tx, link.booking_id, { ticket_style: style, comment: noteOf(data), language: data.language ?? null, booked_at: nowMillis() });
    }),
  );
  if (!outcome.ok) {
    throw new GygError(
      'INVALID_RESERVATION',
      outcome.refusal.code === 'booking.expired'
        ? `Reservation ${data.reservationReference} has expired and its seats are released; reserve again`
        : `Reservation ${data.reservationReference} was cancelled; reserve again`,
    );
  }
  return bookingAnswer((await findByGygReference(db.kysely, caller.operatorId, data.gygBookingReference))!);
}

// ---- cancel-booking --------------------------------------------------------------------------------

export async function cancelGygBooking(db: Db, caller: GygCaller, body: CancelBookingBody): Promise<void> {
  const { data } = body;
  const reference = bookingReferenceFrom(data.bookingReference);
  const link = reference && (await findByBookingReference(db.kysely, caller.operatorId, reference));
  if (!link || link.gyg_booking_reference !== data.gygBookingReference) {
    throw new GygError('INVALID_BOOKING', `There is no booking ${data.bookingReference} for gygBookingReference ${data.gygBookingReference}`);
  }
  const now = unixNow();
  const status = effectiveStatus(link, now);
  if (status === 'cancelled' && link.booked_at !== null)
    throw new GygError('BOOKING_ALREADY_CANCELED', `Booking ${data.bookingReference} is already cancelled`);
  if (status !== 'confirmed') throw new GygError('INVALID_BOOKING', `${data.bookingReference} is a reservation that was never booked`);
  const record = await findBooking(db.kysely, caller.operatorId, link.reference);
  if (!record) throw new Error(`GetYourGuide booking ${data.gygBookingReference} has lost its booking`);
  // The policy decides in the cancellation's transaction; its refusal is said in GetYourGuide's errorCodes.
  const outcome = await db.write((tx) => cancel(tx, record, GYG_CALLER, now));
  if (!outcome.ok) throw gygCancelRefusal(outcome.refusal, data.bookingReference);
}

/** The lifecycle's refusal of a cancellation as GetYourGuide's errorCode. */
function gygCancelRefusal(refusal: Refusal, reference: string): GygError {
  switch (refusal.code) {
    case 'booking.checked-in':
      return new GygError('BOOKING_REDEEMED', `Booking ${reference} was redeemed: its guests were checked in`);
    case 'booking.started':
      return new GygError('BOOKING_IN_PAST', `Booking ${reference} has started and can no longer be cancelled`);
    case 'booking.cancelled':
      return new GygError('BOOKING_ALREADY_CANCELED', `Booking ${reference} is already cancelled`);
    default:
      return new GygError('INVALID_BOOKING', `${reference}: ${refusal.message}`);
  }
}
