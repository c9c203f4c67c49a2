// Confirming and updating OCTo bookings, both of which may amend them: another availability, another
// product or another unit mix moves the booking with the bookings' amendBooking, in the same transaction
// as the new details (flows/reschedule.ts' moveBooking: with the price difference settled), so the new seats are taken and the old ones freed in one commit (never overbooked,
// never a moment with both or neither). A request states what the booking should be, so its retry finds
// it so already and changes nothing.
import type { Db } from '../../db/connection.js';
import type { ActivityRow } from '../../catalog/index.js';
import { nowMillis, unixNow } from '../../lib/clock.js';
import { confirm as confirmHold, extendHold, type AmendmentTarget } from '../../bookings/index.js';
import { moveBooking } from '../../flows/reschedule.js';
import { changeBookingDetails } from '../../bookings/index.js';
import { effectiveStatus } from '../../bookings/view.js';
import { checkMix, type TicketMix } from '../../catalog/tickets/mix.js';
import { listTicketTypes, type TicketTypeRow } from '../../catalog/index.js';
import { resolveAvailability } from '../catalog/availability.js';
import { getOctoBooking, holdMinutes, partsOf, requireLink, type HoldTerms, type Reseller } from './service.js';
import { extrasColumn, guestColumns, guestOf, requireContactFields, withContact } from './contact.js';
import { OctoError, octoOrThrow } from '../errors.js';
import type { Wants } from '../http.js';
import { requireOption, requireProduct } from '../catalog/products.js';
import { applyAnswers } from './answers.js';
import { parseUnitItems, updateOctoBooking, type StoredUnitItem } from './store.js';
import { replaceUnitItems, ticketsOf } from './unit-items.js';
import type { ConfirmationBody, OctoBooking, UpdateBody } from './schemas.js';

/** The mix the unit items make, checked per ticket type (limits, Requires, the booking's maximum). */
function mixOf(types: TicketTypeRow[], items: StoredUnitItem[], activity: ActivityRow): TicketMix {
  const requested = ticketsOf(items).map((line) => ({ code: line.Type, quantity: line.Quantity }));
  const { mix, problems } = checkMix(types, requested, activity.max_participants_per_booking);
  if (problems.length > 0) throw OctoError.unprocessable(problems.map((problem) => problem.message).join('; '));
  return mix;
}

/**
 * Confirms a live hold with the guest's details, in one transaction: unitItems that name another number
 * or mix of units amend it first, then the details are written (so that whatever the confirmation sets
 * off, the operator's confirmation e-mail, has the guest's name and address), then the hold is confirmed;
 * an expired or cancelled booking is refused and nothing is written. Confirming again answers the
 * booking, with any new details.
 */
export async function confirm(db: Db, reseller: Reseller, uuid: string, body: ConfirmationBody, wants: Wants): Promise<OctoBooking> {
  const link = await requireLink(db.kysely, reseller, uuid);
  const now = unixNow();
  const { record, activity, timeslot, types } = await partsOf(db.kysely, reseller.operatorId, link, now);
  const guest = withContact(guestOf(record, link), body.contact);
  requireContactFields(guest, activity);
  const items = body.unitItems && replaceUnitItems(parseUnitItems(link), body.unitItems, types);
  const mix = items && mixOf(types, items, activity);
  const outcome = await db.write((tx) =>
    confirmHold(tx, record, now, async () => {
      if (mix) octoOrThrow(await moveBooking(tx, record, { activity, timeslot, mix }, 'octo', now));
      await applyAnswers(tx, record, activity.id, body.questionAnswers, wants.questions);
      await changeBookingDetails(tx, link.booking_id, {
        ...guestColumns(guest),
        ...(body.resellerReference !== undefined && { payment_reference: body.resellerReference || null }),
      });
      await updateOctoBooking(tx, link.booking_id, {
        contact: extrasColumn(guest),
        ...(items && { unit_items: JSON.stringify(items) }),
        ...(link.confirmed_at === null && { confirmed_at: nowMillis() }),
      });
    }),
  );
  octoOrThrow(outcome);
  return getOctoBooking(db.kysely, reseller, uuid, wants);
}

/**
 * Changes a live booking: the guest, notes, references and answers, and its availability, product or
 * unit mix (an amendment, seats permitting: else UNPROCESSABLE_ENTITY and nothing changes);
 * expirationMinutes extends a hold. Moving to another product needs that product's availabilityId; the
 * unit items stay if that product sells their units, or come with the request.
 */
export async function update(db: Db, reseller: Reseller, uuid: string, body: UpdateBody, wants: Wants, terms: HoldTerms): Promise<OctoBooking> {
  const link = await requireLink(db.kysely, reseller, uuid);
  const now = unixNow();
  const parts = await partsOf(db.kysely, reseller.operatorId, link, now);
  const { record } = parts;
  const status = effectiveStatus(record, now);
  if (status !== 'on_hold' && status !== 'confirmed') throw OctoError.unprocessable(`Booking ${uuid} is ${status} and can no longer be changed`);
  if (body.optionId !== undefined) requireOption(body.optionId);

  const moves = body.productId !== undefined && body.productId !== parts.activity.public_id;
  const activity = moves ? await requireProduct(db.kysely, reseller.operatorId, body.productId!) : parts.activity;
  const types = moves ? await listTicketTypes(db.kysely, [activity.id]) : parts.types;
  if (moves && body.availabilityId === undefined) {
    throw OctoError.invalidAvailability('', `is required to move the booking to product ${activity.public_id}`);
  }
  const timeslot = body.availabilityId === undefined ? parts.timeslot : await resolveAvailability(db.kysely, activity, body.availabilityId);
  const current = parseUnitItems(link);
  // Moving product, the items stay as they are when the new product sells their units.
  const items = body.unitItems
    ? replaceUnitItems(current, body.unitItems, types)
    : moves
      ? replaceUnitItems(
          current,
          current.map(({ uuid: id, unitId }) => ({ uuid: id, unitId })),
          types,
        )
      : undefined;
  const target: AmendmentTarget | undefined =
    moves || items || timeslot.id !== record.timeslot_id ? { activity, timeslot, mix: mixOf(types, items ?? current, activity) } : undefined;

  const guest = withContact(guestOf(record, link), body.contact);
  if (status === 'confirmed') requireContactFields(guest, activity);
  // The hold's extension and the amendment commit together: a refusal of either changes nothing.
  await db.write(async (tx) => {
    if (body.expirationMinutes !== undefined && status === 'on_hold') {
      octoOrThrow(await extendHold(tx, record, { minutes: holdMinutes(body.expirationMinutes), ...terms }, now));
    }
    if (target) octoOrThrow(await moveBooking(tx, record, target, 'octo', now));
    await applyAnswers(tx, record, activity.id, body.questionAnswers, false);
    await changeBookingDetails(tx, link.booking_id, {
      ...(body.contact && guestColumns(guest)),
      ...(body.resellerReference !== undefined && { payment_reference: body.resellerReference || null }),
    });
    await updateOctoBooking(tx, link.booking_id, {
      ...(body.notes !== undefined && { notes: body.notes }),
      ...(body.contact && { contact: extrasColumn(guest) }),
      ...(items && { unit_items: JSON.stringify(items) }),
    });
  });
  return getOctoBooking(db.kysely, reseller, uuid, wants);
}
