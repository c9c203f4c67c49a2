// Ticket type rows to API objects and to the fields the rules check.
import { pickTranslation } from '../../lib/locale.js';
import type { TicketFields } from './rules.js';
import type { AdminTicketType, BookedTicket, TicketCategory, TicketType } from './schemas.js';
import type { BookingTicketRow, TicketTypeRow } from './store.js';

export const rowTranslations = (row: TicketTypeRow): Record<string, { Name: string }> =>
  JSON.parse(row.translations) as Record<string, { Name: string }>;

/** The public view; `locale` (a canonical BCP 47 tag) picks a translated name where there is one. */
export function toTicketType(row: TicketTypeRow, locale?: string): TicketType {
  const translation = locale ? pickTranslation(rowTranslations(row), locale) : undefined;
  return {
    Type: row.code,
    Name: translation?.Name ?? row.name,
    Price: row.price,
    Category: row.category,
    MinAge: row.min_age,
    MaxAge: row.max_age,
    People: row.people,
    TakesSeat: row.takes_seat === 1,
    MinPerBooking: row.min_per_booking,
    MaxPerBooking: row.max_per_booking,
    Requires: row.requires_code,
    Default: row.is_default === 1,
  };
}

export function toAdminTicketType(row: TicketTypeRow, activityPublicId: string): AdminTicketType {
  return { ID: row.id, ActivityID: activityPublicId, ...toTicketType(row), Position: row.position, Translations: rowTranslations(row) };
}

export function toFields(row: TicketTypeRow): TicketFields {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    translations: rowTranslations(row),
    price: row.price,
    category: row.category as TicketCategory,
    minAge: row.min_age,
    maxAge: row.max_age,
    people: row.people,
    takesSeat: row.takes_seat === 1,
    minPerBooking: row.min_per_booking,
    maxPerBooking: row.max_per_booking,
    requires: row.requires_code,
    isDefault: row.is_default === 1,
    position: row.position,
  };
}

/** The columns an operator's fields are stored in. */
export function toColumns(fields: TicketFields) {
  return {
    name: fields.name,
    translations: JSON.stringify(fields.translations),
    price: fields.price,
    category: fields.category,
    min_age: fields.minAge,
    max_age: fields.maxAge,
    people: fields.people,
    takes_seat: fields.takesSeat ? 1 : 0,
    min_per_booking: fields.minPerBooking,
    max_per_booking: fields.maxPerBooking,
    requires_code: fields.requires,
    is_default: fields.isDefault ? 1 : 0,
    position: fields.position,
  };
}

export const toBookedTicket = (row: BookingTicketRow): BookedTicket => ({
  Type: row.code,
  Name: row.name,
  Quantity: row.quantity,
  UnitPrice: row.unit_price,
});
