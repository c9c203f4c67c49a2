// OCTo bookings over slotbook's own: a reservation is a partner booking on hold (Source partner, Partner =
// the key's marketplace), the request translated into the domain's BookingDraft and reserved under the
// reseller's uuid by the bookings' one recipe (reserveUnderReference), so its seats count for the
// partner API, the dashboard and the online shop at once; its unit items are its tickets. Confirm, extend
// and cancel are the bookings services'; amendments (amendments.ts) the bookings' amendBooking. The
// reseller's uuid makes a reservation idempotent: it is inserted with the booking, in the same
// transaction, under a unique (operator, marketplace, uuid) constraint, so that uuids are each reseller's
// own: another reseller's uuid is neither visible nor in the way. A retry or a twin answers the first
// booking, unless the uuid was used for another reservation (repeated).
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';
import { findActivity } from '../../catalog/index.js';
import { findZonedTimeslot, type TimeslotRow } from '../../availability/index.js';
import { nowMillis, unixNow, type UnixSeconds } from '../../lib/clock.js';
import { cancel as cancelCommand, extendHold, isOverAlready, reserveUnderReference, type BookingDraft } from '../../bookings/index.js';
import { findBooking } from '../../bookings/index.js';
import { bookingTicketsOf, listTicketTypes } from '../../catalog/index.js';
import { checkinsOf } from '../../bookings/checkin.js';
import { checkCurrency, resolveAvailability } from '../catalog/availability.js';
import { toOctoBooking, type OctoBookingParts } from './view.js';
import { extrasColumn, NO_GUEST, withContact } from './contact.js';
import { OctoError, octoOrThrow, octoReservationError } from '../errors.js';
import type { Wants } from '../http.js';
import { requireOption, requireProduct } from '../catalog/products.js';
import { applyAnswers, questionAnswersOf } from './answers.js';
import { findByReferences, findByUuid, insertOctoBooking, updateOctoBooking, type OctoBookingLink } from './store.js';
import { newUnitItems, ticketsOf } from './unit-items.js';
import type { BookingsQuery, CancellationBody, ExtendBody, OctoBooking, ReservationBody } from './schemas.js';
import { DEFAULT_HOLD_MINUTES, MAX_HOLD_MINUTES } from '../terms.js';

/** Who calls: the operator of the API key and the marketplace it sells for. */
export interface Reseller {
  operatorId: number;
  partner: string;
}

/** Extending a hold: how long any hold may last from when it was made. */
export interface HoldTerms {
  maxLifetimeMinutes: number;
}

export const holdMinutes = (asked: number | undefined): number => Math.min(asked ?? DEFAULT_HOLD_MINUTES, MAX_HOLD_MINUTES);
const LIST_LIMIT = 100;

export async function partsOf(
  db: Kysely<Database>,
  operatorId: number,
  link: OctoBookingLink,
  now: UnixSeconds,
  wants?: Wants,
): Promise<OctoBookingParts> {
  const record = await findBooking(db, operatorId, link.reference);
  const activity = record && (await findActivity(db, operatorId, record.activity_public_id));
  const timeslot = record && (await findZonedTimeslot(db, operatorId, record.timeslot_id, now));
  if (!record || !activity || !timeslot) throw new Error(`OCTo booking ${link.uuid} has lost its booking ${link.reference}`);
  const [types, tickets, checkins, questionAnswers] = await Promise.all([
    listTicketTypes(db, [activity.id]),
    bookingTicketsOf(db, [record.id]),
    checkinsOf(db, [record.id]),
    wants?.questions ? questionAnswersOf(db, operatorId, activity.id, record.id) : undefined,
  ]);
  return {
    record,
    octo: link,
    activity,
    timeslot,
    types,
    tickets: tickets.get(record.id) ?? [],
    checkins: checkins.get(record.id) ?? [],
    questionAnswers,
  };
}

export async function requireLink(db: Kysely<Database>, reseller: Reseller, uuid: string): Promise<OctoBookingLink> {
  const link = await findByUuid(db, reseller.operatorId, reseller.partner, uuid.toLowerCase());
  if (!link) throw OctoError.invalidBooking(uuid);
  return link;
}

export async function getOctoBooking(db: Kysely<Database>, reseller: Reseller, uuid: string, wants: Wants): Promise<OctoBooking> {
  const now = unixNow();
  return toOctoBooking(await partsOf(db, reseller.operatorId, await requireLink(db, reseller, uuid), now, wants), now, wants);
}

export async function listOctoBookings(db: Kysely<Database>, reseller: Reseller, query: BookingsQuery, wants: Wants): Promise<OctoBooking[]> {
  if (query.resellerReference === undefined && query.supplierReference === undefined) {
    throw OctoError.badRequest('Give resellerReference or supplierReference (or both)');
  }
  const now = unixNow();
  const links = await findByReferences(db, reseller.operatorId, reseller.partner, query, LIST_LIMIT);
  const parts = await Promise.all(links.map((link) => partsOf(db, reseller.operatorId, link, now, wants)));
  return parts.map((part) => toOctoBooking(part, now, wants));
}

const sameCounts = (a: { Type: string; Quantity: number }[], b: { code: string; quantity: number }[]): boolean =>
  a.length === b.length && a.every((line) => b.some((ticket) => ticket.code === line.Type && ticket.quantity === line.Quantity));

/**
 * A repeat of a reservation answers the booking it made, unless the reseller used the uuid for another
 * reservation (another product, time or unit mix): then INVALID_BOOKING_UUID.
 */
async function repeated(
  db: Db,
  reseller: Reseller,
  link: OctoBookingLink,
  timeslot: TimeslotRow,
  tickets: { Type: string; Quantity: number }[],
  wants: Wants,
): Promise<OctoBooking> {
  const now = unixNow();
  const parts = await partsOf(db.kysely, reseller.operatorId, link, now, wants);
  const { record } = parts;
  if (record.timeslot_id !== timeslot.id || !sameCounts(tickets, parts.tickets)) {
    throw OctoError.invalidBooking(link.uuid, 'was already used for another booking');
  }
  return toOctoBooking(parts, now, wants);
}

export async function reserve(db: Db, reseller: Reseller, body: ReservationBody, wants: Wants): Promise<OctoBooking> {
  const uuid = (body.uuid ?? randomUUID()).toLowerCase();
  const activity = await requireProduct(db.kysely, reseller.operatorId, body.productId);
  requireOption(body.optionId);
  checkCurrency(activity, body.currency);
  if (!body.availabilityId) throw OctoError.invalidAvailability('', 'is required: every product is booked by availability');
  const items = newUnitItems(body.unitItems, await listTicketTypes(db.kysely, [activity.id]));
  const tickets = ticketsOf(items);
  const timeslot = await resolveAvailability(db.kysely, activity, body.availabilityId);

  const guest = withContact(NO_GUEST, body.contact);
  const draft: BookingDraft = {
    activityId: activity.public_id,
    date: timeslot.date,
    time: timeslot.time,
    tickets: tickets.map((line) => ({ code: line.Type, quantity: line.Quantity })),
    customer: { firstName: guest.firstName, lastName: guest.lastName, email: guest.emailAddress, phone: guest.phoneNumber },
    ...(guest.locales[0] !== undefined && { locale: guest.locales[0] }),
    ...(body.resellerReference && { paymentReference: body.resellerReference }),
    holdMinutes: holdMinutes(body.expirationMinutes),
  };
  const origin = { operatorId: reseller.operatorId, source: 'partner' as const, partner: reseller.partner };
  const outcome = await reserveUnderReference(
    db,
    origin,
    draft,
    { channel: 'OCTo', reference: uuid },
    {
      find: (kysely) => findByUuid(kysely, reseller.operatorId, reseller.partner, uuid),
      record: async (tx, booking) => {
        const stored = await insertOctoBooking(tx, {
          booking_id: booking.id,
          operator_id: reseller.operatorId,
          partner: reseller.partner,
          uuid,
          notes: body.notes ?? null,
          unit_items: JSON.stringify(items),
          cancel_reason: null,
          confirmed_at: null,
          updated_at: nowMillis(),
          contact: extrasColumn(guest),
        });
        if (!stored) return false;
        await applyAnswers(tx, booking, activity.id, body.questionAnswers, false);
        return true;
      },
    },
  );
  if (!outcome.ok) throw octoReservationError(outcome.refusal);
  if (outcome.twin) return repeated(db, reseller, outcome.link, timeslot, tickets, wants);
  return getOctoBooking(db.kysely, reseller, uuid, wants);
}

/** Extends a live hold by expirationMinutes from now, up to the hold's ceiling (the lifecycle's extendHold). */
export async function extend(db: Db, reseller: Reseller, uuid: string, body: ExtendBody, wants: Wants, terms: HoldTerms): Promise<OctoBooking> {
  const link = await requireLink(db.kysely, reseller, uuid);
  const { record } = await partsOf(db.kysely, reseller.operatorId, link, unixNow());
  await db.write(async (tx) => {
    octoOrThrow(await extendHold(tx, record, { minutes: holdMinutes(body.expirationMinutes), ...terms }, unixNow()));
    await updateOctoBooking(tx, link.booking_id, {});
  });
  return getOctoBooking(db.kysely, reseller, uuid, wants);
}

/**
 * Frees the seats within the policy for OCTo (until the timeslot starts, never once redeemed), with the
 * reason, in one transaction; a cancelled or expired booking answers as it is.
 */
export async function cancel(db: Db, reseller: Reseller, uuid: string, body: CancellationBody, wants: Wants): Promise<OctoBooking> {
  const link = await requireLink(db.kysely, reseller, uuid);
  const { record } = await partsOf(db.kysely, reseller.operatorId, link, unixNow());
  await db.write(async (tx) => {
    const outcome = await cancelCommand(tx, record, { kind: 'octo' }, unixNow());
    if (!outcome.ok && isOverAlready(outcome.refusal)) return;
    octoOrThrow(outcome);
    await updateOctoBooking(tx, link.booking_id, { cancel_reason: body.reason ?? null });
  });
  return getOctoBooking(db.kysely, reseller, uuid, wants);
}
