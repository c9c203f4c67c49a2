// OCTo unit items: one per participant, each with the reseller's uuid and reference for that ticket.
// slotbook stores them beside the booking (octo_bookings.unit_items); their number is the booking's
// Participants, which only placeBooking sets.
import { randomUUID } from 'node:crypto';
import { OctoError } from './errors.js';
import { parseUnitItems, type OctoBookingRow, type StoredUnitItem } from './store.js';
import type { BookingUnitItemBody } from './schemas.js';
import { UNIT_ID } from './terms.js';

function checkUnits(items: BookingUnitItemBody[]): void {
  for (const item of items) if (item.unitId !== UNIT_ID) throw OctoError.invalidUnit(item.unitId);
}

/** The unit items of a new reservation: at least one, each of our unit; a uuid generated where absent. */
export function newUnitItems(items: BookingUnitItemBody[]): StoredUnitItem[] {
  checkUnits(items);
  if (items.length === 0) throw OctoError.unprocessable('A booking needs at least one unit item (one per participant)');
  return items.map((item) => ({
    uuid: (item.uuid ?? randomUUID()).toLowerCase(),
    unitId: item.unitId,
    resellerReference: item.resellerReference || null,
  }));
}

/**
 * New labels for a booking's unit items: the same number of items (changing the number would change
 * the seats taken), each keeping its uuid and reference unless the request gives new ones.
 */
export function relabelUnitItems(booking: OctoBookingRow, items: BookingUnitItemBody[]): StoredUnitItem[] {
  checkUnits(items);
  const current = parseUnitItems(booking);
  if (items.length !== current.length) {
    throw OctoError.unprocessable(
      `The booking has ${current.length} unit items; changing their number is not supported: cancel and reserve again`,
    );
  }
  return items.map((item, i) => ({
    uuid: item.uuid?.toLowerCase() ?? current[i]!.uuid,
    unitId: item.unitId,
    resellerReference: item.resellerReference === undefined ? current[i]!.resellerReference : item.resellerReference || null,
  }));
}
