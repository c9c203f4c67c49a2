// Ticket types: the kinds of ticket an activity sells (adult, child, infant, family, ...), each with its
// own price and rules. The API names a type by its `Type` code, which is also the OCTo unit id.
import { Type, type Static } from '@sinclair/typebox';
import { RowId } from '../../http/schemas.js';

export const TICKET_CATEGORIES = ['adult', 'child', 'youth', 'infant', 'senior', 'student', 'military', 'family', 'other'] as const;
export type TicketCategory = (typeof TICKET_CATEGORIES)[number];

export const TICKET_CODE_PATTERN = '^[a-z][a-z0-9_-]{0,39}$';
/** Live ticket types an activity may have. */
export const MAX_TICKET_TYPES = 20;
export const MAX_TICKET_PRICE = 100_000_000;
const MAX_QUANTITY = 1000;

const Code = (description: string) =>
  Type.String({ pattern: TICKET_CODE_PATTERN, description: `${description}: a lower-case letter, then up to 39 lower-case letters, digits, - or _` });
const Category = Type.Unsafe<TicketCategory>({
  type: 'string',
  enum: [...TICKET_CATEGORIES],
  description: "What kind of guest it is for (OCTo's unit type); default: the Type when it names a category, else other",
});
const Name = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[^\\u0000-\\u001F\\u007F]*$',
  description: 'Shown to guests, e.g. "Child (4-12)"',
});
const Price = Type.Integer({ minimum: 0, maximum: MAX_TICKET_PRICE, description: "Per ticket, in minor units of the activity's Currency" });
const Age = (description: string) => Type.Union([Type.Integer({ minimum: 0, maximum: 150 }), Type.Null()], { description });
const Translations = Type.Record(Type.String(), Type.Object({ Name }), {
  description: 'Names by BCP 47 language tag, e.g. {"de": {"Name": "Kind"}}',
});

/** What a partner, a shop visitor or a reseller sees of a ticket type. */
export const TicketType = Type.Object(
  {
    Type: Type.String({ description: 'The code a booking names it by (Tickets[].Type; the OCTo unit id)', examples: ['adult'] }),
    Name: Type.String({ description: 'In the requested Locale where the operator translated it' }),
    Price: Type.Integer({ description: "Per ticket, in minor units of the activity's Currency" }),
    Category: Type.String({ description: 'adult, child, youth, infant, senior, student, military, family or other' }),
    MinAge: Type.Union([Type.Integer(), Type.Null()]),
    MaxAge: Type.Union([Type.Integer(), Type.Null()]),
    People: Type.Integer({ description: 'People one ticket admits (a family ticket: several); they count towards MaxParticipantsPerBooking' }),
    TakesSeat: Type.Boolean({ description: "false: the ticket takes no seat of the timeslot's capacity (e.g. infants on a lap)" }),
    MinPerBooking: Type.Integer({ description: 'When the type is booked at all, at least this many (0: no minimum)' }),
    MaxPerBooking: Type.Union([Type.Integer(), Type.Null()], { description: 'At most this many per booking; null: no limit of its own' }),
    Requires: Type.Union([Type.String(), Type.Null()], {
      description: 'The Type a booking of this one must also include (a child must come with an adult)',
    }),
    Default: Type.Boolean({ description: 'The type that Participants books' }),
  },
  // No $id: products and the admin composite both embed it, and an $id may appear once in the document.
  { title: 'TicketType' },
);
export type TicketType = Static<typeof TicketType>;

export const AdminTicketType = Type.Composite(
  [
    Type.Object({ ID: Type.Integer({ description: 'For PATCH and DELETE /ticket-types/{ID}' }), ActivityID: Type.String() }),
    TicketType,
    Type.Object({ Position: Type.Integer({ description: 'Sort key: types are listed by Position, then ID' }), Translations }),
  ],
  { $id: 'AdminTicketType' },
);
export type AdminTicketType = Static<typeof AdminTicketType>;

const editable = {
  Name,
  Price,
  Category,
  MinAge: Age('Youngest age admitted; informational (OCTo restrictions.minAge)'),
  MaxAge: Age('Oldest age admitted; informational (OCTo restrictions.maxAge)'),
  People: Type.Integer({ minimum: 1, maximum: 20, description: 'People one ticket admits; default 1' }),
  TakesSeat: Type.Boolean({ description: 'Whether each of its people takes a seat; default true' }),
  MinPerBooking: Type.Integer({ minimum: 0, maximum: MAX_QUANTITY, description: 'When booked at all, at least this many; default 0' }),
  MaxPerBooking: Type.Union([Type.Integer({ minimum: 1, maximum: MAX_QUANTITY }), Type.Null()], {
    description: 'At most this many per booking; default null (no limit of its own)',
  }),
  Requires: Type.Union([Code('Another Type of the activity'), Type.Null()], {
    description: 'A booking of this type must include the type named here; default null',
  }),
  Default: Type.Boolean({
    description: 'Make this the type Participants books (it must take a seat and admit one person); the previous default stops being it',
  }),
  Position: Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Default: after the last type' }),
  Translations,
};

export const CreateTicketTypeBody = Type.Object({
  Type: Code('The code bookings name it by; it cannot change later'),
  Name,
  Price,
  Category: Type.Optional(editable.Category),
  MinAge: Type.Optional(editable.MinAge),
  MaxAge: Type.Optional(editable.MaxAge),
  People: Type.Optional(editable.People),
  TakesSeat: Type.Optional(editable.TakesSeat),
  MinPerBooking: Type.Optional(editable.MinPerBooking),
  MaxPerBooking: Type.Optional(editable.MaxPerBooking),
  Requires: Type.Optional(editable.Requires),
  Default: Type.Optional(editable.Default),
  Position: Type.Optional(editable.Position),
  Translations: Type.Optional(editable.Translations),
});
export type CreateTicketTypeBody = Static<typeof CreateTicketTypeBody>;

export const UpdateTicketTypeBody = Type.Partial(
  Type.Object({ ...editable, Type: Code('Cannot change: resellers and partners book by it. Sending the current code is accepted') }),
  { minProperties: 1 },
);
export type UpdateTicketTypeBody = Static<typeof UpdateTicketTypeBody>;

export const TicketTypeIdParams = Type.Object({ ID: RowId('The ticket type ID') });

/** One line of a booking request: how many tickets of a type. */
export const TicketRequest = Type.Object({
  Type: Code('The ticket type'),
  Quantity: Type.Integer({ minimum: 0, maximum: MAX_QUANTITY, description: 'How many tickets of this type (0 is ignored)' }),
});
export type TicketRequest = Static<typeof TicketRequest>;

export const TicketsField = Type.Array(TicketRequest, {
  minItems: 1,
  maxItems: MAX_TICKET_TYPES,
  description:
    'The ticket mix, priced and checked per type (MinPerBooking, MaxPerBooking, Requires); errors name the line, e.g. Tickets[1].Quantity. ' +
    "Without it, Participants books that many of the activity's default type; with both, Participants must equal the people the tickets admit.",
});

/** A booking's tickets as sold: the price is the one of the moment it was booked. */
export const BookedTicket = Type.Object({
  Type: Type.String(),
  Name: Type.String({ description: "The type's name when it was booked" }),
  Quantity: Type.Integer(),
  UnitPrice: Type.Integer({ description: 'Minor units of Currency, per ticket, as booked' }),
});
export type BookedTicket = Static<typeof BookedTicket>;
