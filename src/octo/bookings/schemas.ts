// OCTo bookings (TypeBox): the replies, then the requests (see ../schemas.ts for what all of /octo shares).
import { Type, type Static } from '@sinclair/typebox';
import { EmailAddress } from '../../http/schemas.js';
import { Notes, Nullable, Text, Uuid } from '../schemas.js';
import { AvailabilityRef, Availability, OctoQuestion, OptionRef, Pricing, ProductRef, UnitRef } from '../catalog/schemas.js';

// ---- responses ----------------------------------------------------------------------------------------

export const QuestionAnswer = Type.Object({
  questionId: Type.String(),
  question: OctoQuestion,
  value: Nullable(Type.String(), 'null until answered'),
});
export type QuestionAnswer = Static<typeof QuestionAnswer>;

export const Contact = Type.Object({
  fullName: Nullable(Type.String()),
  firstName: Nullable(Type.String()),
  lastName: Nullable(Type.String()),
  emailAddress: Nullable(Type.String()),
  phoneNumber: Nullable(Type.String()),
  locales: Type.Array(Type.String()),
  postalCode: Nullable(Type.String()),
  country: Nullable(Type.String()),
  notes: Nullable(Type.String()),
});
export type Contact = Static<typeof Contact>;

const Ticket = Type.Object({
  redemptionMethod: Type.String(),
  utcRedeemedAt: Nullable(Type.String()),
  deliveryOptions: Type.Array(Type.Object({ deliveryFormat: Type.String(), deliveryValue: Type.String() })),
});

export const UnitItem = Type.Object({
  uuid: Type.String(),
  resellerReference: Nullable(Type.String()),
  supplierReference: Nullable(Type.String()),
  unitId: Type.String(),
  status: Type.String(),
  utcRedeemedAt: Nullable(Type.String()),
  contact: Contact,
  ticket: Nullable(Ticket),
  pricing: Type.Optional(Pricing),
  questionAnswers: Type.Optional(Type.Array(QuestionAnswer)),
});
export type UnitItem = Static<typeof UnitItem>;

export const OctoBooking = Type.Object({
  id: Type.String({ description: 'The slotbook BookingReference' }),
  uuid: Type.String({ description: "The reseller's uuid (or the one generated at reservation)" }),
  testMode: Type.Boolean(),
  resellerReference: Nullable(Type.String(), "Shown in the dashboard as the booking's PaymentReference"),
  supplierReference: Nullable(Type.String(), 'The BookingReference'),
  status: Type.String({ description: 'ON_HOLD, CONFIRMED, REDEEMED (someone was checked in at the door), EXPIRED or CANCELLED' }),
  utcCreatedAt: Type.String(),
  utcUpdatedAt: Type.String(),
  utcExpiresAt: Nullable(Type.String()),
  utcRedeemedAt: Nullable(Type.String()),
  utcConfirmedAt: Nullable(Type.String()),
  productId: Type.String(),
  optionId: Type.String(),
  cancellable: Type.Boolean(),
  cancellation: Nullable(Type.Object({ refund: Type.String(), reason: Nullable(Type.String()), utcCancelledAt: Type.String() })),
  freesale: Type.Boolean(),
  availabilityId: Nullable(Type.String()),
  availability: Nullable(Availability),
  contact: Contact,
  notes: Nullable(Type.String()),
  deliveryMethods: Type.Array(Type.String()),
  voucher: Nullable(Ticket),
  unitItems: Type.Array(UnitItem),
  pricing: Type.Optional(Pricing),
  questionAnswers: Type.Optional(Type.Array(QuestionAnswer, { description: 'octo/questions: every waiver question, with its answer or null' })),
});
export type OctoBooking = Static<typeof OctoBooking>;

// ---- requests -----------------------------------------------------------------------------------------

export const UuidParams = Type.Object({ uuid: Uuid('The booking uuid') });

const ExpirationMinutes = Type.Integer({
  minimum: 1,
  maximum: 10_080,
  description: 'Minutes to hold the seats: default 30, at most 60 (longer requests are held 60)',
});
const ResellerReference = Nullable(Text(255, 'Your reference (voucher number); shown to the operator as the payment reference'));

export const BookingContactBody = Type.Object({
  fullName: Type.Optional(Nullable(Text(201))),
  firstName: Type.Optional(Nullable(Text(100))),
  lastName: Type.Optional(Nullable(Text(100))),
  emailAddress: Type.Optional(Type.Union([EmailAddress(), Type.Literal(''), Type.Null()])),
  phoneNumber: Type.Optional(Nullable(Text(50))),
  locales: Type.Optional(Type.Array(Text(35), { maxItems: 20 })),
  postalCode: Type.Optional(Nullable(Text(20))),
  country: Type.Optional(Nullable(Text(60))),
  notes: Type.Optional(Nullable(Notes('Notes about the guest'))),
});
export type BookingContactBody = Static<typeof BookingContactBody>;

export const BookingUnitItemBody = Type.Object({
  uuid: Type.Optional(Uuid('Your uuid for this ticket; generated when absent')),
  unitId: UnitRef,
  resellerReference: Type.Optional(ResellerReference),
  contact: Type.Optional(BookingContactBody),
});
export type BookingUnitItemBody = Static<typeof BookingUnitItemBody>;

const UnitItems = (description: string) => Type.Array(BookingUnitItemBody, { maxItems: 1000, description });

const QuestionAnswers = Type.Array(
  Type.Object({
    questionId: Type.String({ maxLength: 20, description: 'A question id from option.questions' }),
    value: Type.String({
      maxLength: 65_536,
      pattern: '^[^\\u0000]*$',
      description: 'The answer as text; for select questions one of the option values',
    }),
  }),
  { maxItems: 200, description: 'octo/questions: answers to the waiver questions; answers given before stay, a new one replaces it' },
);

export const ReservationBody = Type.Object({
  uuid: Type.Optional(Uuid('Your idempotency key: reserving the same uuid again answers the same booking')),
  productId: ProductRef,
  optionId: OptionRef,
  availabilityId: Type.Optional(AvailabilityRef),
  expirationMinutes: Type.Optional(ExpirationMinutes),
  notes: Type.Optional(Nullable(Notes('Notes for the operator'))),
  // Optional here so that a missing unitItems is OCTo's UNPROCESSABLE_ENTITY, not a BAD_REQUEST.
  unitItems: Type.Optional(UnitItems('One item per ticket: its unitId is the ticket type (required)')),
  resellerReference: Type.Optional(ResellerReference),
  contact: Type.Optional(BookingContactBody),
  currency: Type.Optional(Nullable(Type.String({ maxLength: 3 }))),
  questionAnswers: Type.Optional(QuestionAnswers),
});
export type ReservationBody = Static<typeof ReservationBody>;

export const ConfirmationBody = Type.Object({
  contact: BookingContactBody,
  resellerReference: Type.Optional(ResellerReference),
  unitItems: Type.Optional(
    UnitItems('All the tickets the booking should have: another number or mix of units amends the booking (seats permitting)'),
  ),
  emailReceipt: Type.Optional(Type.Boolean({ description: 'Accepted and ignored: the reseller sends the receipt' })),
  questionAnswers: Type.Optional(QuestionAnswers),
});
export type ConfirmationBody = Static<typeof ConfirmationBody>;

export const UpdateBody = Type.Object({
  resellerReference: Type.Optional(ResellerReference),
  productId: Type.Optional(ProductRef),
  optionId: Type.Optional(OptionRef),
  availabilityId: Type.Optional(AvailabilityRef),
  expirationMinutes: Type.Optional(ExpirationMinutes),
  notes: Type.Optional(Nullable(Notes('Notes for the operator'))),
  emailReceipt: Type.Optional(Type.Boolean()),
  unitItems: Type.Optional(
    UnitItems('All the tickets the booking should have: another number or mix of units amends the booking (seats permitting)'),
  ),
  contact: Type.Optional(BookingContactBody),
  questionAnswers: Type.Optional(QuestionAnswers),
});
export type UpdateBody = Static<typeof UpdateBody>;

export const ExtendBody = Type.Object({ expirationMinutes: Type.Optional(ExpirationMinutes) });
export type ExtendBody = Static<typeof ExtendBody>;

export const CancellationBody = Type.Object({
  reason: Type.Optional(Nullable(Notes('Why the booking is cancelled'))),
  force: Type.Optional(Type.Boolean({ description: 'Accepted and ignored: slotbook has no cancellation cutoff' })),
});
export type CancellationBody = Static<typeof CancellationBody>;

export const BookingsQuery = Type.Object({
  resellerReference: Type.Optional(Text(255)),
  supplierReference: Type.Optional(Type.String({ maxLength: 64 })),
});
export type BookingsQuery = Static<typeof BookingsQuery>;
