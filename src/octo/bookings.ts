// OCTo bookings over slotbook's own: a reservation is a partner booking on hold (Source partner, Partner =
// the key's marketplace), placed by the same placeBooking as every channel, so its seats count for the
// partner API, the dashboard and the online shop at once; confirm, extend and cancel are the bookings
// services'. The reseller's uuid makes a reservation idempotent: it is inserted with the booking, in the
// same transaction, under a unique (operator, marketplace, uuid) constraint, so that uuids are each
// reseller's own: another reseller's uuid is neither visible nor in the way.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { findActivity } from '../catalog/store.js';
import type { ActivityRow } from '../catalog/store.js';
import { findZonedTimeslot, type TimeslotRow } from '../availability/store.js';
import { unixNow } from '../availability/seats.js';
import { cancelBooking, confirmInTransaction, extendHold, prepareBooking, throwUnlessConfirmed, type BookingRequest } from '../bookings/service.js';
import { placeBooking } from '../bookings/placement.js';
import { changeBookingDetails, findBooking } from '../bookings/store.js';
import { effectiveStatus } from '../bookings/view.js';
import { checkCurrency, resolveAvailability } from './availability.js';
import { toOctoBooking, type OctoBookingParts } from './booking-view.js';
import { guestColumns, guestOf, NO_GUEST, requireContactFields, withContact } from './contact.js';
import { OctoError } from './errors.js';
import { requireOption, requireProduct } from './products.js';
import { findByReferences, findByUuid, insertOctoBooking, updateOctoBooking, type OctoBookingLink } from './store.js';
import { newUnitItems, relabelUnitItems } from './unit-items.js';
import type { BookingsQuery, CancellationBody, ConfirmationBody, ExtendBody, OctoBooking, ReservationBody, UpdateBody } from './schemas.js';
import { DEFAULT_HOLD_MINUTES, MAX_HOLD_MINUTES } from './terms.js';

/** Who calls: the operator of the API key and the marketplace it sells for. */
export interface Reseller {
  operatorId: number;
  partner: string;
}

/** Extending a hold: the minutes asked for, and how long any hold may last from when it was made. */
export interface HoldTerms {
  maxLifetimeMinutes: number;
}

const holdMinutes = (asked: number | undefined): number => Math.min(asked ?? DEFAULT_HOLD_MINUTES, MAX_HOLD_MINUTES);
const LIST_LIMIT = 100;

async function partsOf(db: Kysely<Database>, operatorId: number, link: OctoBookingLink, now: number): Promise<OctoBookingParts> {
  const record = await findBooking(db, operatorId, link.reference);
  const activity = record && (await findActivity(db, operatorId, record.activity_public_id));
  const timeslot = record && (await findZonedTimeslot(db, operatorId, record.timeslot_id, now));
  if (!record || !activity || !timeslot) throw new Error(`OCTo booking ${link.uuid} has lost its booking ${link.reference}`);
  return { record, octo: link, activity, timeslot };
}

async function requireLink(db: Kysely<Database>, reseller: Reseller, uuid: string): Promise<OctoBookingLink> {
  const link = await findByUuid(db, reseller.operatorId, reseller.partner, uuid.toLowerCase());
  if (!link) throw OctoError.invalidBooking(uuid);
  return link;
}

export async function getOctoBooking(db: Kysely<Database>, reseller: Reseller, uuid: string, pricing: boolean): Promise<OctoBooking> {
  const now = unixNow();
  return toOctoBooking(await partsOf(db, reseller.operatorId, await requireLink(db, reseller, uuid), now), now, pricing);
}

export async function listOctoBookings(db: Kysely<Database>, reseller: Reseller, query: BookingsQuery, pricing: boolean): Promise<OctoBooking[]> {
  if (query.resellerReference === undefined && query.supplierReference === undefined) {
    throw OctoError.badRequest('Give resellerReference or supplierReference (or both)');
  }
  const now = unixNow();
  const links = await findByReferences(db, reseller.operatorId, reseller.partner, query, LIST_LIMIT);
  const parts = await Promise.all(links.map((link) => partsOf(db, reseller.operatorId, link, now)));
  return parts.map((part) => toOctoBooking(part, now, pricing));
}

/** Raised inside the reservation's transaction to roll it back when a twin with the same uuid won. */
class UuidTaken extends Error {}

/**
 * A repeat of a reservation answers the booking it made, unless the reseller used the uuid for another
 * reservation (another product, time or number of units): then INVALID_BOOKING_UUID.
 */
async function repeated(db: Db, reseller: Reseller, link: OctoBookingLink, timeslot: TimeslotRow, units: number, pricing: boolean): Promise<OctoBooking> {
  const now = unixNow();
  const parts = await partsOf(db.kysely, reseller.operatorId, link, now);
  const { record } = parts;
  if (record.timeslot_id !== timeslot.id || record.participants !== units) {
    throw OctoError.invalidBooking(link.uuid, 'was already used for another booking');
  }
  return toOctoBooking(parts, now, pricing);
}

export async function reserve(db: Db, reseller: Reseller, body: ReservationBody, pricing: boolean): Promise<OctoBooking> {
  const uuid = (body.uuid ?? randomUUID()).toLowerCase();
  const activity: ActivityRow = await requireProduct(db.kysely, reseller.operatorId, body.productId);
  requireOption(body.optionId);
  checkCurrency(activity, body.currency);
  if (!body.availabilityId) throw OctoError.invalidAvailability('', 'is required: every product is booked by start time');
  const items = newUnitItems(body.unitItems);
  const timeslot = await resolveAvailability(db.kysely, activity, body.availabilityId);
  const existing = await findByUuid(db.kysely, reseller.operatorId, reseller.partner, uuid);
  if (existing) return repeated(db, reseller, existing, timeslot, items.length, pricing);

  const guest = withContact(NO_GUEST, body.contact);
  const request: BookingRequest = {
    ActivityID: activity.public_id,
    Date: timeslot.date,
    Time: timeslot.time,
    Participants: items.length,
    Customer: { FirstName: guest.firstName, LastName: guest.lastName, Email: guest.emailAddress, Phone: guest.phoneNumber },
    ...(body.resellerReference && { PaymentReference: body.resellerReference }),
  };
  const origin = { operatorId: reseller.operatorId, source: 'partner' as const, partner: reseller.partner };
  const now = unixNow();
  try {
    const twin = await db.write(async (tx) => {
      // Writers queue for the transaction, so a twin that committed while this one waited is seen here.
      const committed = await findByUuid(tx, reseller.operatorId, reseller.partner, uuid);
      if (committed) return committed;
      const { draft } = await prepareBooking(tx, origin, request, holdMinutes(body.expirationMinutes), now);
      const booking = await placeBooking(tx, draft, now);
      const stored = await insertOctoBooking(tx, {
        booking_id: booking.id,
        operator_id: reseller.operatorId,
        partner: reseller.partner,
        uuid,
        notes: body.notes ?? null,
        unit_items: JSON.stringify(items),
        cancel_reason: null,
        confirmed_at: null,
        updated_at: Date.now(),
      });
      // A twin on another PostgreSQL connection inserted the uuid first: give the seats back.
      if (!stored) throw new UuidTaken();
      return undefined;
    });
    if (twin) return repeated(db, reseller, twin, timeslot, items.length, pricing);
  } catch (error) {
    if (!(error instanceof UuidTaken)) throw error;
    const winner = await findByUuid(db.kysely, reseller.operatorId, reseller.partner, uuid);
    if (!winner) throw error;
    return repeated(db, reseller, winner, timeslot, items.length, pricing);
  }
  return getOctoBooking(db.kysely, reseller, uuid, pricing);
}

/**
 * Confirms a live hold with the guest's details, in one transaction: the details are written first, so
 * that whatever the confirmation sets off (the operator's confirmation e-mail) has the guest's name and
 * address, then the hold is confirmed; an expired or cancelled booking is refused and nothing is
 * written. A retry of the confirmation, which answers a confirmed booking unchanged, writes the details
 * again.
 */
export async function confirm(db: Db, reseller: Reseller, uuid: string, body: ConfirmationBody, pricing: boolean): Promise<OctoBooking> {
  const link = await requireLink(db.kysely, reseller, uuid);
  const now = unixNow();
  const { record } = await partsOf(db.kysely, reseller.operatorId, link, now);
  const guest = withContact(guestOf(record), body.contact);
  requireContactFields(guest);
  const items = body.unitItems && relabelUnitItems(link, body.unitItems);
  const status = await db.write((tx) =>
    confirmInTransaction(tx, record, now, async () => {
      await changeBookingDetails(tx, link.booking_id, {
        ...guestColumns(guest),
        ...(body.resellerReference !== undefined && { payment_reference: body.resellerReference || null }),
      });
      await updateOctoBooking(tx, link.booking_id, {
        ...(items && { unit_items: JSON.stringify(items) }),
        ...(link.confirmed_at === null && { confirmed_at: Date.now() }),
      });
    }),
  );
  throwUnlessConfirmed(status, link.reference);
  return getOctoBooking(db.kysely, reseller, uuid, pricing);
}

/** Extends a live hold by expirationMinutes from now, up to the hold's ceiling (bookings' extendHold). */
export async function extend(db: Db, reseller: Reseller, uuid: string, body: ExtendBody, pricing: boolean, terms: HoldTerms): Promise<OctoBooking> {
  const link = await requireLink(db.kysely, reseller, uuid);
  await extendHold(db, reseller.operatorId, link.reference, { minutes: holdMinutes(body.expirationMinutes), ...terms }, reseller.partner);
  await db.write((tx) => updateOctoBooking(tx, link.booking_id, {}));
  return getOctoBooking(db.kysely, reseller, uuid, pricing);
}

/** Frees the seats until the timeslot starts; a cancelled or expired booking answers as it is. */
export async function cancel(db: Db, reseller: Reseller, uuid: string, body: CancellationBody, pricing: boolean): Promise<OctoBooking> {
  const link = await requireLink(db.kysely, reseller, uuid);
  const now = unixNow();
  const { record } = await partsOf(db.kysely, reseller.operatorId, link, now);
  const before = effectiveStatus(record, now);
  const live = before === 'on_hold' || before === 'confirmed';
  if (live && record.starts_at <= now) throw OctoError.unprocessable(`Booking ${uuid} has started and can no longer be cancelled`);
  const after = await cancelBooking(db, reseller.operatorId, link.reference, reseller.partner);
  if (live && after.Status === 'cancelled') {
    await db.write((tx) => updateOctoBooking(tx, link.booking_id, { cancel_reason: body.reason ?? null }));
  }
  return getOctoBooking(db.kysely, reseller, uuid, pricing);
}

/**
 * Changes the guest, notes, references and unit item labels of a live booking, and extends a hold.
 * Moving it to another product, option or time, or changing how many units it has, is refused: cancel
 * and reserve again, so that seats are only ever taken by placeBooking.
 */
export async function update(db: Db, reseller: Reseller, uuid: string, body: UpdateBody, pricing: boolean, terms: HoldTerms): Promise<OctoBooking> {
  const link = await requireLink(db.kysely, reseller, uuid);
  const now = unixNow();
  const { record, activity } = await partsOf(db.kysely, reseller.operatorId, link, now);
  const status = effectiveStatus(record, now);
  if (status !== 'on_hold' && status !== 'confirmed') throw OctoError.unprocessable(`Booking ${uuid} is ${status} and can no longer be changed`);
  if (body.productId !== undefined && body.productId !== record.activity_public_id) {
    throw OctoError.unprocessable('A booking cannot move to another product; cancel it and reserve again');
  }
  if (body.optionId !== undefined) requireOption(body.optionId);
  if (body.availabilityId !== undefined && (await resolveAvailability(db.kysely, activity, body.availabilityId)).id !== record.timeslot_id) {
    throw OctoError.unprocessable('A booking cannot move to another time; cancel it and reserve again');
  }
  const guest = withContact(guestOf(record), body.contact);
  if (status === 'confirmed') requireContactFields(guest);
  const items = body.unitItems && relabelUnitItems(link, body.unitItems);
  if (body.expirationMinutes !== undefined && status === 'on_hold') {
    await extendHold(db, reseller.operatorId, link.reference, { minutes: holdMinutes(body.expirationMinutes), ...terms }, reseller.partner);
  }
  await db.write(async (tx) => {
    await changeBookingDetails(tx, link.booking_id, {
      ...(body.contact && guestColumns(guest)),
      ...(body.resellerReference !== undefined && { payment_reference: body.resellerReference || null }),
    });
    await updateOctoBooking(tx, link.booking_id, {
      ...(body.notes !== undefined && { notes: body.notes }),
      ...(items && { unit_items: JSON.stringify(items) }),
    });
  });
  return getOctoBooking(db.kysely, reseller, uuid, pricing);
}
