// OCTo request schemas (TypeBox): they validate the requests of /octo and feed /openapi.json under the tag
// "OCTo". The responses' are in schemas.ts.
import { Type, type Static } from '@sinclair/typebox';
import { LocalDate } from '../../http/schemas.js';
import { Notes, Nullable, Text, Uuid } from '../catalog/schemas.js';

export const CapabilityHeaders = Type.Object({
  'octo-capabilities': Type.Optional(
    Type.String({
      maxLength: 1000,
      description: 'Comma-separated capability IDs; slotbook supports octo/pricing and octo/questions. The reply names those it applied.',
    }),
  ),
});

export const ProductParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'The product id (ActivityID)' }) });
export const UuidParams = Type.Object({ uuid: Uuid('The booking uuid') });

const ProductRef = Type.String({ maxLength: 64, description: 'The product id (ActivityID)' });
const OptionRef = Type.String({ maxLength: 64, description: 'DEFAULT' });
const UnitRef = Type.String({ maxLength: 64, description: "The unit id: a ticket type's code, e.g. adult" });
const AvailabilityRef = Type.String({ maxLength: 64, description: 'An availability id from /availability' });
const ExpirationMinutes = Type.Integer({
  minimum: 1,
  maximum: 10_080,
  description: 'Minutes to hold the seats: default 30, at most 60 (longer requests are held 60)',
});
const ResellerReference = Nullable(Text(255, 'Your reference (voucher number); shown to the operator as the payment reference'));

const AvailabilityUnit = Type.Object({ id: UnitRef, quantity: Type.Integer({ minimum: 0, maximum: 1000 }) });

export const AvailabilityCheckBody = Type.Object({
  productId: ProductRef,
  optionId: OptionRef,
  localDate: Type.Optional(LocalDate),
  localDateStart: Type.Optional(LocalDate),
  localDateEnd: Type.Optional(LocalDate),
  availabilityIds: Type.Optional(Type.Array(AvailabilityRef, { maxItems: 500 })),
  units: Type.Optional(Type.Array(AvailabilityUnit, { maxItems: 20 })),
  currency: Type.Optional(Nullable(Type.String({ maxLength: 3 }))),
});
export type AvailabilityCheckBody = Static<typeof AvailabilityCheckBody>;

export const AvailabilityCalendarBody = Type.Object({
  productId: ProductRef,
  optionId: OptionRef,
  localDateStart: LocalDate,
  localDateEnd: LocalDate,
  units: Type.Optional(Type.Array(AvailabilityUnit, { maxItems: 20 })),
  currency: Type.Optional(Nullable(Type.String({ maxLength: 3 }))),
});
export type AvailabilityCalendarBody = Static<typeof AvailabilityCalendarBody>;

export const BookingContactBody = Type.Object({
  fullName: Type.Optional(Nullable(Text(201))),
  firstName: Type.Optional(Nullable(Text(100))),
  lastName: Type.Optional(Nullable(Text(100))),
  emailAddress: Type.Optional(Type.Union([Type.String({ format: 'email', maxLength: 254 }), Type.Literal(''), Type.Null()])),
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
