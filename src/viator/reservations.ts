// Reservations, bookings, amendments, cancellations and redemptions of Viator over slotbook's own bookings.
// A reservation is a partner booking on hold (source partner, partner Viator): Viator's request as the
// domain's BookingDraft (draft.ts), placed by the bookings' placeDraft, so its seats are taken by the same
// conditional-capacity write and seen by the partner API, the shop, OCTo and GetYourGuide at once. The
// booking confirms the hold (the lifecycle's confirm: the same domain events, webhooks and workflows as any
// confirmation); an amendment is the lifecycle's amendBooking (as OCTo's), a cancellation its cancel, and
// whether Viator may still cancel or change a booking is the one policy's (bookings/lifecycle/policy.ts), mapped to
// Viator's reasons.
// Viator retries bookings (its Retry flag, and after timeouts): viator_bookings holds Viator's booking
// reference under a unique (operator, reference) constraint written in the booking's transaction, so a
// repeated booking answers the first (a booking without a hold: the bookings' reserveUnderReference).
import { NATIVE_CHANNELS } from '../lib/marketplaces.js';
import type { Kysely } from 'kysely';
import type { Db } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { nowMillis, unixNow } from '../lib/clock.js';
import { audit, type AuditActor } from '../audit/log.js';
import { findTimeslotAt, findZonedTimeslot, listTimeslots, type TimeslotRow } from '../availability/index.js';
import { cancel as cancelCommand, confirm, placeDraft, reserveUnderReference, type BookingOrigin, type Caller } from '../bookings/index.js';
import { moveBooking } from '../flows/reschedule.js';
import { changeBookingDetails, findBooking } from '../bookings/index.js';
import { effectiveStatus } from '../bookings/view.js';
import { checkinsOf } from '../bookings/checkin.js';
import { listTicketTypes } from '../catalog/index.js';
import { isOpeningHours, priceOf, utcIso } from './availability.js';
import {
  customerOf,
  departureTimeOf,
  directDraftOf,
  linesOf,
  mixOf,
  noteOf,
  reserveDraftOf,
  sameTickets,
  ticketsOfTravellers,
  travelersFit,
} from './draft.js';
import {
  amendmentRejectionOf,
  bookingRejectionOf,
  cancellationRejectionOf,
  placementRefusal,
  rejectionOf,
  ViatorContentError,
  ViatorRequestError,
} from './errors.js';
import { findProduct, type ViatorCaller, type ViatorProduct } from './products.js';
import {
  changeViatorBooking,
  findByBookingReference,
  findByViatorReference,
  insertViatorBooking,
  markBooked,
  type ViatorBookingLink,
} from './store.js';
import {
  TGDS,
  type BookingAmendmentRequestData,
  type BookingCancellationRequestData,
  type BookingRejection,
  type BookingRequestData,
  type CancellationRejection,
  type NotReservedReason,
  type RedemptionRequestData,
  type ReserveRequest,
  type ReserveResponse,
  type TicketRequest,
} from './schemas.js';

/**
 * The partner name Viator's bookings carry (bookings.partner): the name it trades under, which no key's
 * marketplace can take (lib/marketplaces.ts), so a key named `viator` never sees them.
 */
export const VIATOR_PARTNER = NATIVE_CHANNELS.viator;
/** Who the audit log names for what Viator does. */
const VIATOR_ACTOR: AuditActor = { type: 'system', id: null, label: 'Viator' };
const VIATOR_CALLER: Caller = { kind: 'viator', as: VIATOR_ACTOR };

export interface HoldTerms {
  holdMinutes: number;
}

/** Raised inside a booking's transaction to roll it back when a twin with the same Viator reference won. */
class ReferenceTaken extends Error {}

/** slotbook's reference from what Viator sends back (the reservation's reference, the confirmation number). */
const ourReference = (text: string): string => text.trim().toUpperCase();

// ---- departures ------------------------------------------------------------------------------------

/**
 * The departure Viator names: at the start time, or the day's (an attraction with opening hours, or a
 * day with only one departure when Viator names no time); undefined when there is none.
 */
async function departureOf(db: Kysely<Database>, product: ViatorProduct, date: string, time: string | undefined): Promise<TimeslotRow | undefined> {
  const { activity } = product;
  if (time !== undefined && !isOpeningHours(activity)) return findTimeslotAt(db, activity.id, date, time);
  const rows = (await listTimeslots(db, activity.id, { from: date, to: date }, unixNow())).filter((row) => row.cancelled_at === null);
  return rows.length === 1 ? rows[0] : undefined;
}

// ---- reserve ---------------------------------------------------------------------------------------

const notReserved = (reason: NotReservedReason): ReserveResponse => ({ status: 'NOT_RESERVED', reason });

export async function reserve(db: Db, caller: ViatorCaller, request: ReserveRequest, terms: HoldTerms): Promise<ReserveResponse> {
  const product = await findProduct(db.kysely, caller, request.productOptionId);
  if (!product) {
    throw new ViatorContentError(
      'INVALID_PRODUCT_OPTION',
      `Product option "${request.productOptionId}" is not offered to Viator by this supplier (unknown, archived, not mapped, or no ticket type mapped)`,
    );
  }
  const timeslot = await departureOf(db.kysely, product, request.travelDate, request.startTime);
  if (!timeslot) return notReserved('NO_EVENT');
  const { lines } = linesOf(product, request.tickets);
  if (!lines) return notReserved('UNSUPPORTED_TICKET_COMBINATION');
  if (!travelersFit(product, lines, request.totalTravelers)) return notReserved('LIMITED_AVAILABILITY');

  const { operatorId } = caller;
  const origin: BookingOrigin = { operatorId, source: 'partner', partner: VIATOR_PARTNER };
  const now = unixNow();
  // Viator names its reservation by slotbook's reference alone: a reserve has no reference of its own to retry under.
  const placed = await placeDraft(db, origin, reserveDraftOf(product, timeslot, lines, terms.holdMinutes), async (tx, booking) => {
    await insertViatorBooking(tx, {
      booking_id: booking.id,
      operator_id: operatorId,
      product_option_id: product.optionId,
      tickets: JSON.stringify(request.tickets.filter((t) => t.quantity > 0).map((t) => ({ type: t.type, quantity: t.quantity }))),
      viator_reference: null,
      note: null,
      booked_at: null,
    });
  });
  if (placed.ok) {
    return {
      status: 'RESERVED',
      expiration: utcIso(placed.booking.hold_expires_at ?? now),
      reference: placed.booking.reference,
      currency: product.activity.currency,
      price: priceOf(product, new Set(request.tickets.map((t) => t.type))),
    };
  }
  const reason = placementRefusal(placed.refusal);
  if (reason !== 'seats') return notReserved(reason);
  const slot = await findZonedTimeslot(db.kysely, operatorId, timeslot.id, unixNow());
  const left = slot ? Math.max(0, slot.capacity - slot.booked + slot.lapsed_hold_seats) : 0;
  return notReserved(left === 0 ? 'SOLD_OUT' : 'LIMITED_AVAILABILITY');
}

// ---- booking ---------------------------------------------------------------------------------------

export type Outcome<R extends string> =
  | { booked: ViatorBookingLink; rejected?: undefined }
  | { booked?: undefined; rejected: { reason: R; details: string } };

const rejected = <R extends string>(reason: R, details: string): Outcome<R> => ({ rejected: { reason, details } });

async function requireProduct(db: Kysely<Database>, caller: ViatorCaller, code: string): Promise<ViatorProduct> {
  const product = await findProduct(db, caller, code);
  if (!product) {
    throw new ViatorRequestError(
      TGDS.invalidProduct,
      'Invalid product',
      `No product is offered to Viator with SupplierProductCode "${code}" (unknown, archived, not mapped, or no ticket type mapped)`,
    );
  }
  return product;
}

/** The first answer to Viator's booking reference, if it was booked before (a retry); a cancelled one is no answer. */
async function earlierBooking(db: Kysely<Database>, caller: ViatorCaller, data: BookingRequestData): Promise<ViatorBookingLink | undefined> {
  const earlier = await findByViatorReference(db, caller.operatorId, data.BookingReference);
  if (!earlier) return undefined;
  if (effectiveStatus(earlier, unixNow()) !== 'confirmed') {
    throw new ViatorRequestError(
      TGDS.invalidRequest,
      'Invalid request',
      `Booking ${data.BookingReference} was booked before and has been cancelled since`,
    );
  }
  return earlier;
}

/** After a lost race for Viator's reference: the twin's booking, which is this request's answer. */
async function twinOf(db: Db, caller: ViatorCaller, data: BookingRequestData): Promise<Outcome<BookingRejection>> {
  const twin = await earlierBooking(db.kysely, caller, data);
  if (!twin) throw new ViatorRequestError(TGDS.invalidRequest, 'Invalid request', `The reservation was booked under another BookingReference`);
  return { booked: twin };
}

export async function book(db: Db, caller: ViatorCaller, data: BookingRequestData, terms: HoldTerms): Promise<Outcome<BookingRejection>> {
  const product = await requireProduct(db.kysely, caller, data.SupplierProductCode);
  const earlier = await earlierBooking(db.kysely, caller, data);
  if (earlier) return { booked: earlier };
  try {
    return data.AvailabilityHoldReference ? await bookHold(db, caller, product, data) : await bookDirectly(db, caller, product, data, terms);
  } catch (error) {
    if (error instanceof ReferenceTaken) return twinOf(db, caller, data);
    // A twin that committed the same reference first makes this one's insert fail on the unique constraint.
    if (!(error instanceof ViatorRequestError) && (await findByViatorReference(db.kysely, caller.operatorId, data.BookingReference))) {
      return twinOf(db, caller, data);
    }
    throw error;
  }
}

async function bookHold(db: Db, caller: ViatorCaller, product: ViatorProduct, data: BookingRequestData): Promise<Outcome<BookingRejection>> {
  const holdReference = data.AvailabilityHoldReference!;
  const link = await findByBookingReference(db.kysely, caller.operatorId, ourReference(holdReference));
  if (!link || link.product_option_id !== product.optionId) {
    throw new ViatorRequestError(
      TGDS.invalidRequest,
      'Invalid request',
      `There is no reservation ${holdReference} of product ${product.optionId}: reserve it first (v2/reserve)`,
    );
  }
  if (link.viator_reference !== null && link.viator_reference !== data.BookingReference) {
    throw new ViatorRequestError(TGDS.invalidRequest, 'Invalid request', `Reservation ${holdReference} was booked as another booking`);
  }
  const record = await findBooking(db.kysely, caller.operatorId, link.reference);
  if (!record) throw new Error(`Viator reservation ${holdReference} has lost its booking`);
  if (record.date !== data.TravelDate) {
    throw new ViatorRequestError(
      TGDS.invalidData,
      'Invalid data',
      `TravelDate ${data.TravelDate} is not the date of reservation ${holdReference} (${record.date})`,
    );
  }
  const reserved = JSON.parse(link.tickets) as TicketRequest[];
  // A product priced per unit books the units reserved (Viator's rule); a per-person one the travellers reserved.
  if (!product.unit && !sameTickets(reserved, ticketsOfTravellers(product, data))) {
    throw new ViatorRequestError(
      TGDS.invalidData,
      'Invalid data',
      `The travellers differ from the tickets of reservation ${holdReference} (${reserved.map((t) => `${t.quantity} ${t.type}`).join(', ')}); reserve again`,
    );
  }
  const now = unixNow();
  const confirmed = await db.write((tx) =>
    confirm(tx, record, now, async () => {
      await changeBookingDetails(tx, link.booking_id, customerOf(data));
      if (!(await markBooked(tx, caller.operatorId, link.booking_id, data.BookingReference, noteOf(data)))) throw new ReferenceTaken();
    }),
  );
  if (!confirmed.ok) {
    return rejected(
      'OTHER',
      confirmed.refusal.code === 'booking.expired'
        ? `Reservation ${holdReference} has expired and its seats were released; reserve again`
        : `Reservation ${holdReference} was cancelled; reserve again`,
    );
  }
  return { booked: (await findByViatorReference(db.kysely, caller.operatorId, data.BookingReference))! };
}

/** A booking without a hold (Viator may send one): placed confirmed at once, if the departure still has room. */
async function bookDirectly(
  db: Db,
  caller: ViatorCaller,
  product: ViatorProduct,
  data: BookingRequestData,
  _terms: HoldTerms,
): Promise<Outcome<BookingRejection>> {
  const timeslot = await departureOf(db.kysely, product, data.TravelDate, departureTimeOf(data));
  if (!timeslot)
    return rejected(
      'NOT_OPERATING',
      `Product ${product.optionId} has no departure on ${data.TravelDate}${departureTimeOf(data) ? ` at ${departureTimeOf(data)}` : ''}`,
    );
  const tickets = ticketsOfTravellers(product, data);
  const { lines, unsupported } = linesOf(product, tickets);
  if (!lines) return rejected('OTHER', unsupported);
  const origin: BookingOrigin = { operatorId: caller.operatorId, source: 'partner', partner: VIATOR_PARTNER };
  const outcome = await reserveUnderReference(
    db,
    origin,
    directDraftOf(product, timeslot, lines, data),
    { channel: 'Viator', reference: data.BookingReference },
    {
      // A twin that was cancelled since answers no retry: earlierBooking refuses it.
      find: (kysely) => earlierBooking(kysely, caller, data),
      record: (tx, booking) =>
        insertViatorBooking(tx, {
          booking_id: booking.id,
          operator_id: caller.operatorId,
          product_option_id: product.optionId,
          tickets: JSON.stringify(tickets),
          viator_reference: data.BookingReference,
          note: noteOf(data),
          booked_at: nowMillis(),
        }),
    },
  );
  if (!outcome.ok) {
    const { reason, details } = bookingRejectionOf(outcome.refusal);
    return rejected(reason, details);
  }
  return { booked: outcome.link };
}

// ---- the booked booking: amendment, cancellation, redemption ---------------------------------------

/** Viator's booked booking: slotbook's confirmation number and Viator's reference must name the same one. */
async function requireBooked(db: Kysely<Database>, caller: ViatorCaller, confirmation: string, viatorReference: string): Promise<ViatorBookingLink> {
  const link = await findByBookingReference(db, caller.operatorId, ourReference(confirmation));
  if (!link || link.viator_reference !== viatorReference) {
    throw new ViatorRequestError(
      TGDS.invalidRequest,
      'The specified booking could not be found',
      `No booking with SupplierConfirmationNumber "${confirmation}" and BookingReference "${viatorReference}"`,
    );
  }
  return link;
}

export async function amend(db: Db, caller: ViatorCaller, data: BookingAmendmentRequestData): Promise<Outcome<BookingRejection>> {
  const link = await requireBooked(db.kysely, caller, data.SupplierConfirmationNumber, data.BookingReference);
  const now = unixNow();
  if (effectiveStatus(link, now) !== 'confirmed') {
    throw new ViatorRequestError(TGDS.invalidRequest, 'Invalid request', `Booking ${data.BookingReference} is cancelled and cannot be amended`);
  }
  const product = await requireProduct(db.kysely, caller, data.SupplierProductCode);
  const current = await findBooking(db.kysely, caller.operatorId, link.reference);
  const sameActivity = current?.activity_public_id === product.activity.public_id;
  const time = departureTimeOf(data) ?? (sameActivity ? current?.time : undefined);
  const timeslot = await departureOf(db.kysely, product, data.TravelDate, time);
  if (!timeslot) return rejected('NOT_OPERATING', `Product ${product.optionId} has no departure on ${data.TravelDate}${time ? ` at ${time}` : ''}`);
  const tickets = ticketsOfTravellers(product, data);
  const { lines, unsupported } = linesOf(product, tickets);
  if (!lines) return rejected('OTHER', unsupported);
  const { mix, problem } = mixOf(product, await listTicketTypes(db.kysely, [product.activity.id]), lines);
  if (!mix) return rejected('OTHER', problem!);
  const target = {
    id: timeslot.id,
    date: timeslot.date,
    time: timeslot.time,
    starts_at: timeslot.starts_at,
    bookable_until: timeslot.bookable_until,
  };
  try {
    const outcome = await db.write(async (tx) => {
      // The policy for Viator decides in the amendment's transaction; a refusal writes nothing.
      const moved = await moveBooking(
        tx,
        { id: link.booking_id, operator_id: caller.operatorId },
        { activity: product.activity, timeslot: target, mix },
        'viator',
        now,
      );
      if (!moved.ok) return moved;
      await changeBookingDetails(tx, link.booking_id, customerOf(data));
      await changeViatorBooking(tx, link.booking_id, { product_option_id: product.optionId, tickets: JSON.stringify(tickets), note: noteOf(data) });
      if (moved.changed) {
        await audit(
          tx,
          {
            operatorId: caller.operatorId,
            action: 'booking.amend',
            resource: { type: 'booking', id: link.reference },
            before: { ActivityID: current?.activity_public_id, Date: current?.date, Time: current?.time, Participants: current?.participants },
            after: { ActivityID: product.activity.public_id, Date: target.date, Time: target.time, Participants: mix.people },
          },
          VIATOR_ACTOR,
        );
      }
      return moved;
    });
    if (!outcome.ok) {
      const { reason, details } = amendmentRejectionOf(outcome.refusal);
      return rejected(reason, details);
    }
  } catch (error) {
    const rejection = rejectionOf(error);
    if (!rejection) throw error;
    return rejected(rejection.reason, rejection.details);
  }
  return { booked: (await findByViatorReference(db.kysely, caller.operatorId, data.BookingReference))! };
}

/** slotbook's number for a cancellation: the booking's reference, marked as its cancellation. */
export const cancellationNumberOf = (reference: string): string => `${reference}-C`;

export async function cancel(db: Db, caller: ViatorCaller, data: BookingCancellationRequestData): Promise<Outcome<CancellationRejection>> {
  const link = await requireBooked(db.kysely, caller, data.SupplierConfirmationNumber, data.BookingReference);
  const now = unixNow();
  const status = effectiveStatus(link, now);
  // Viator retries a cancellation it did not hear back from: the same answer.
  if (status === 'cancelled') return { booked: link };
  if (status !== 'confirmed')
    throw new ViatorRequestError(TGDS.invalidRequest, 'Invalid request', `Booking ${data.BookingReference} was never booked`);
  const record = await findBooking(db.kysely, caller.operatorId, link.reference);
  if (!record) throw new Error(`Viator booking ${data.BookingReference} has lost its booking`);
  // The policy for Viator decides in the cancellation's transaction; a repeated cancellation answers the same.
  const outcome = await db.write((tx) => cancelCommand(tx, record, VIATOR_CALLER, now));
  if (!outcome.ok && outcome.refusal.code !== 'booking.cancelled') {
    const { reason, details } = cancellationRejectionOf(outcome.refusal);
    return rejected(reason, details);
  }
  return { booked: (await findByBookingReference(db.kysely, caller.operatorId, link.reference))! };
}

/** Whether anyone of the booking was checked in (Viator asks before it refunds a cancellation). */
export async function redemption(db: Db, caller: ViatorCaller, data: RedemptionRequestData): Promise<{ link: ViatorBookingLink; redeemed: boolean }> {
  const link = await requireBooked(db.kysely, caller, data.SupplierConfirmationNumber, data.BookingReference);
  const checkins = (await checkinsOf(db.kysely, [link.booking_id])).get(link.booking_id) ?? [];
  return { link, redeemed: checkins.length > 0 };
}
