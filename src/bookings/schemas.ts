import { BookingMoney, PaymentStateField, PosPaymentField } from '../payments/schemas.js';
import { Type, type Static } from '@sinclair/typebox';
import type { PaymentState } from '../payments/schemas.js';
import { ACTIVITY_ID_PATTERN, ClockTime, EmailAddress, LocalDate, MAX_LIST_LIMIT, RowId } from '../http/schemas.js';
import { BookedTicket, TicketsField } from '../catalog/tickets/schemas.js';
import { TermsAcceptance } from '../settings/schemas.js';

export const BOOKING_STATUSES = ['on_hold', 'confirmed', 'cancelled', 'expired'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];
export const BOOKING_SOURCES = ['partner', 'online', 'pos'] as const;
export type BookingSource = (typeof BOOKING_SOURCES)[number];

export const MAX_HOLD_MINUTES = 60;
/** The most participants any booking can name; each product's MaxParticipantsPerBooking is checked after. */
const MAX_PARTICIPANTS = 1000;

/** A plain `enum` of strings: one readable error ("must be one of ...") instead of one per literal. */
function stringEnum<T extends readonly string[]>(values: T, description: string) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], description });
}

// Control characters have no place in names or references, and PostgreSQL refuses a NUL in any text:
// the schema turns them away as a 422 instead of letting them reach SQL.
const PRINTABLE = '^[^\\u0000-\\u001F\\u007F]*$';

const Name = (what: string) =>
  Type.String({
    minLength: 1,
    maxLength: 100,
    pattern: '^(?=.*\\S)[^\\u0000-\\u001F\\u007F]+$',
    description: `A ${what}: at least one non-blank character, no control characters`,
  });

export const Customer = Type.Object({
  FirstName: Name('first name'),
  LastName: Name('last name'),
  Email: EmailAddress({ description: 'E-mail address' }),
  Phone: Type.String({ pattern: '^\\+[0-9]{7,15}$', description: 'Telephone number in international format: + then 7 to 15 digits' }),
});

/**
 * A point-of-sale guest: a walk-in gives a name and nothing else. Left out, the
 * e-mail and phone are stored empty and nothing is e-mailed to the guest; the partner API and the booking
 * pages keep asking for them (Customer).
 */
export const PosCustomer = Type.Object({
  FirstName: Customer.properties.FirstName,
  LastName: Type.Optional(Name('last name')),
  Email: Type.Optional(Customer.properties.Email),
  Phone: Type.Optional(Customer.properties.Phone),
});

export const WaiverAnswer = Type.Object({
  QuestionID: RowId('The waiver question ID'),
  Answer: Type.String({
    pattern: '^[^\\u0000]*$',
    description:
      "The answer (text without NUL characters); for a file question the FileID of an upload by the same holder: a key of the partner's marketplace, or (shop items) the same basket",
  }),
});

/** People: the field a booking of the default ticket type (and a waitlist party) is made of. */
export const ParticipantsField = Type.Integer({
  minimum: 1,
  maximum: MAX_PARTICIPANTS,
  description:
    "People, from 1 to the product's MaxParticipantsPerBooking. Alone, it books that many of the default ticket type; required unless Tickets is given",
});

/** The guest's language for the e-mails about the booking; only languages slotbook speaks to guests are kept. */
export const GuestLocaleField = Type.String({
  maxLength: 64,
  pattern: '^[A-Za-z]{2,8}([-_][A-Za-z0-9]{1,8})*$',
  description:
    "The guest's language (BCP 47, e.g. de or de-CH) for the e-mails about the booking: en or de are spoken, any other is English. Default en",
});

const bookingFields = {
  ActivityID: Type.String({ pattern: ACTIVITY_ID_PATTERN, description: 'Activity identifier: s_ and 8 to 32 letters or digits' }),
  Date: LocalDate,
  Time: ClockTime,
  Participants: Type.Optional(ParticipantsField),
  Tickets: Type.Optional(TicketsField),
  Customer,
  PaymentReference: Type.Optional(
    Type.String({ minLength: 1, maxLength: 255, pattern: PRINTABLE, description: "The partner's own payment reference, without control characters" }),
  ),
  WaiverAnswers: Type.Optional(
    Type.Array(WaiverAnswer, {
      maxItems: 200,
      description: 'When given, every required question must be answered and the waiver is complete; when absent it is pending',
    }),
  ),
  Locale: Type.Optional(GuestLocaleField),
};

/**
 * Participants or Tickets (or both): "Participants is required" when neither is sent, like any missing
 * field. JSON Schema's if/then says so, so that it is reported with every other schema finding.
 */
export const PARTICIPANTS_OR_TICKETS = { if: { not: { required: ['Tickets'] } }, then: { required: ['Participants'] } };

export const PartnerBookingBody = Type.Object(
  {
    ...bookingFields,
    HoldMinutes: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_HOLD_MINUTES,
        description: 'Reserve the seats on hold for this many minutes (status on_hold) until confirmed; without it the booking is confirmed at once',
      }),
    ),
  },
  PARTICIPANTS_OR_TICKETS,
);
export type PartnerBookingBody = Static<typeof PartnerBookingBody>;

export const PosBookingBody = Type.Object(
  { ...bookingFields, Customer: PosCustomer, Payment: Type.Optional(PosPaymentField) },
  PARTICIPANTS_OR_TICKETS,
);
export type PosBookingBody = Static<typeof PosBookingBody>;

export const RescheduleBody = Type.Object({
  Date: LocalDate,
  Time: ClockTime,
  ActivityID: Type.Optional(
    Type.String({
      pattern: ACTIVITY_ID_PATTERN,
      description: "Another activity of the operator that sells the booking's ticket types; the booking's own activity when absent",
    }),
  ),
});
export type RescheduleBody = Static<typeof RescheduleBody>;

export const Booking = Type.Object(
  {
    BookingReference: Type.String({ examples: ['BK-7KQ2MX9P'] }),
    Status: stringEnum(
      BOOKING_STATUSES,
      'on_hold (seats reserved until HoldExpiresAt), confirmed, cancelled, or expired (a hold that was not confirmed in time)',
    ),
    Source: stringEnum(BOOKING_SOURCES, 'Where the booking was made: a partner (marketplace), the online shop, or point of sale'),
    Partner: Type.Union([Type.String(), Type.Null()], { description: 'The marketplace, for partner bookings' }),
    PaymentReference: Type.Union([Type.String(), Type.Null()], {
      description:
        "The partner's payment reference; for a booking paid in the shop, its payment's (Stripe's PaymentIntent pi_..., or the test provider's)",
    }),
    ActivityID: Type.String(),
    Date: LocalDate,
    Time: Type.String({ description: "HH:MM in the activity's time zone" }),
    StartsAt: Type.String({ format: 'date-time' }),
    Participants: Type.Integer({ description: 'People: what the tickets admit together' }),
    Seats: Type.Integer({
      description: "Seats of the timeslot's capacity the booking holds (tickets that take no seat, such as infants, hold none)",
    }),
    Tickets: Type.Array(BookedTicket, { description: 'The ticket mix, at the prices of the moment it was booked' }),
    Currency: Type.String({ description: 'ISO 4217: the currency of the ticket prices' }),
    Total: Type.Integer({ description: "The tickets' price together, minor units of Currency" }),
    Customer: Type.Object({ FirstName: Type.String(), LastName: Type.String(), Email: Type.String(), Phone: Type.String() }),
    WaiverStatus: stringEnum(['pending', 'complete'] as const, 'complete once the waiver questions are answered'),
    Locale: Type.String({ description: "The guest's language for the booking's e-mails: en or de" }),
    HoldExpiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When the hold lapses; null unless on hold' }),
    CreatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Booking' },
);
export type Booking = Static<typeof Booking>;

export const MAX_DEPARTURE_MESSAGE = 2000;

export const CancelDepartureBody = Type.Object({
  Message: Type.String({
    minLength: 1,
    maxLength: MAX_DEPARTURE_MESSAGE,
    // Plain text: line breaks and tabs, no other control characters; at least one visible character.
    pattern: '^(?=[\\s\\S]*\\S)[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F]+$',
    description: `The operator's words to the guests, plain text (line breaks allowed), at most ${MAX_DEPARTURE_MESSAGE} characters: e-mailed to each guest with a link to book another time`,
  }),
});
export type CancelDepartureBody = Static<typeof CancelDepartureBody>;

export const CancelledDeparture = Type.Object(
  {
    TimeslotID: Type.Integer(),
    ActivityID: Type.String(),
    Date: LocalDate,
    Time: Type.String({ description: "HH:MM in the activity's time zone" }),
    Message: Type.String({ description: "The operator's message to the guests, as given" }),
    CancelledAt: Type.String({ format: 'date-time' }),
    CancelledBy: Type.String({ description: 'Who cancelled it: the user or API key, as the audit log names them' }),
    Bookings: Type.Array(Booking, { description: 'The bookings the cancellation cancelled (every channel, holds too), as they are now' }),
  },
  { $id: 'CancelledDeparture' },
);

/** The operator's answer for one booking: the booking, and what it paid and got back. */
export const AdminBooking = Type.Object({ ...Booking.properties, ...BookingMoney, TermsAcceptance }, { $id: 'AdminBooking' });

/** A booking of the operator's list: the booking, and where it stands with its money. */
export const AdminBookingListItem = Type.Object(
  { ...Booking.properties, PaymentState: BookingMoney.PaymentState, AmountDue: BookingMoney.AmountDue },
  { $id: 'AdminBookingListItem' },
);
export type AdminBookingListItem = Static<typeof AdminBookingListItem>;

/** The most bookings a PaymentState filter reads (its state is computed from their payments). */
export const PAYMENT_STATE_WINDOW = 5000;

export const BookingListQuery = Type.Object({
  From: Type.Optional(Type.String({ format: 'date', description: 'Bookings for this date or later (YYYY-MM-DD)' })),
  To: Type.Optional(Type.String({ format: 'date', description: 'Bookings for this date or earlier (YYYY-MM-DD)' })),
  Source: Type.Optional(stringEnum(BOOKING_SOURCES, 'Only bookings from this source')),
  ActivityID: Type.Optional(Type.String({ pattern: ACTIVITY_ID_PATTERN, description: 'Only bookings of this activity' })),
  Status: Type.Optional(stringEnum(BOOKING_STATUSES, 'Only bookings in this status')),
  Search: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: PRINTABLE,
      description:
        "Part of the reference, customer name or e-mail, or of a payment's reference (a partner's, Stripe's pi_... or cs_...), any case (no control characters)",
    }),
  ),
  PaymentState: Type.Optional(
    Type.Unsafe<PaymentState>({
      ...PaymentStateField,
      description:
        `Only bookings in this payment state (docs/payments.md): ${PaymentStateField.description} ` +
        `Looks at most ${PAYMENT_STATE_WINDOW} bookings matching the other filters: narrow From and To past that (422 naming PaymentState)`,
    }),
  ),
  Limit: Type.Integer({ minimum: 1, maximum: MAX_LIST_LIMIT, default: 100 }),
  Offset: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
});
export type BookingListQuery = Static<typeof BookingListQuery>;
