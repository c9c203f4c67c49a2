// OCTo unit items: one per ticket; its unitId is the ticket type's code. slotbook keeps them beside the
// booking (octo_bookings.unit_items) with the reseller's uuid, reference and guest of each ticket; the
// booking's tickets (booking_tickets) are their counts per type, which only placeBooking and
// amendBooking write, together with the items.
import { randomUUID } from 'node:crypto';
import type { TicketRequest } from '../../catalog/tickets/schemas.js';
import type { TicketTypeRow } from '../../catalog/index.js';
import { NO_GUEST, toContact, withContact } from './contact.js';
import { OctoError } from '../errors.js';
import type { StoredUnitItem } from './store.js';
import type { BookingUnitItemBody } from './schemas.js';

function checkUnits(items: BookingUnitItemBody[], types: TicketTypeRow[]): void {
  const codes = new Set(types.map((type) => type.code));
  for (const item of items) if (!codes.has(item.unitId)) throw OctoError.invalidUnit(item.unitId, [...codes]);
}

function checkUuids(items: StoredUnitItem[]): StoredUnitItem[] {
  if (new Set(items.map((item) => item.uuid)).size !== items.length) throw OctoError.badRequest('Each unit item needs its own uuid');
  return items;
}

const contactOf = (item: BookingUnitItemBody) => (item.contact ? toContact(withContact(NO_GUEST, item.contact)) : null);

/** The unit items of a new reservation: at least one, each of a ticket type of the product. */
export function newUnitItems(items: BookingUnitItemBody[] | undefined, types: TicketTypeRow[]): StoredUnitItem[] {
  if (items === undefined) throw OctoError.unprocessable('unitItems is required: one item per ticket, its unitId a unit of the product');
  checkUnits(items, types);
  if (items.length === 0) throw OctoError.unprocessable('A booking needs at least one unit item (one per ticket)');
  return checkUuids(
    items.map((item) => ({
      uuid: (item.uuid ?? randomUUID()).toLowerCase(),
      unitId: item.unitId,
      resellerReference: item.resellerReference || null,
      contact: contactOf(item),
    })),
  );
}

/**
 * The booking's unit items as a confirmation or an update lists them, all of them: another number or
 * mix of units is an amendment. An item without a uuid keeps the one of the item at its place when that
 * is of the same unit (so relabelling keeps the tickets), else gets a new one; a reference or guest that
 * is not sent stays too.
 */
export function replaceUnitItems(current: StoredUnitItem[], items: BookingUnitItemBody[], types: TicketTypeRow[]): StoredUnitItem[] {
  checkUnits(items, types);
  if (items.length === 0) throw OctoError.unprocessable('A booking needs at least one unit item (one per ticket)');
  const named = new Set(items.flatMap((item) => (item.uuid ? [item.uuid.toLowerCase()] : [])));
  return checkUuids(
    items.map((item, i) => {
      const before = current[i]?.unitId === item.unitId && !named.has(current[i]!.uuid) ? current[i] : undefined;
      return {
        uuid: item.uuid?.toLowerCase() ?? before?.uuid ?? randomUUID(),
        unitId: item.unitId,
        resellerReference: item.resellerReference === undefined ? (before?.resellerReference ?? null) : item.resellerReference || null,
        contact: item.contact === undefined ? (before?.contact ?? null) : contactOf(item),
      };
    }),
  );
}

/** The ticket mix the items make: how many of each unit, in the order the units first appear. */
export function ticketsOf(items: Pick<StoredUnitItem, 'unitId'>[]): TicketRequest[] {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item.unitId, (counts.get(item.unitId) ?? 0) + 1);
  return [...counts].map(([Type, Quantity]) => ({ Type, Quantity }));
}
