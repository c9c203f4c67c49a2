// OCTo response schemas (TypeBox; the requests' are in request-schemas.ts), modelled on the components of
// the OCTo OpenAPI document (../shared/spec/octo/openapi.yaml). They serialize responses (a field missing
// here would be dropped from the reply) and feed /openapi.json under the tag "OCTo"; test/octo checks
// every reply against the OCTo document itself.
import { Type, type Static, type TSchema } from '@sinclair/typebox';

export const Nullable = <T extends TSchema>(schema: T, description?: string) => Type.Union([schema, Type.Null()], description ? { description } : {});

// Free text from a reseller: no control characters (PostgreSQL refuses NUL; none has a use here).
export const Text = (maxLength: number, description?: string) =>
  Type.String({ maxLength, pattern: '^[^\\u0000-\\u001F\\u007F]*$', ...(description && { description }) });
export const Notes = (description: string) => Type.String({ maxLength: 2000, pattern: '^[^\\u0000]*$', description });

export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
export const Uuid = (description: string) => Type.String({ pattern: UUID_PATTERN, description });

// ---- responses ----------------------------------------------------------------------------------------

export const OctoErrorBody = Type.Object(
  {
    error: Type.String({
      description:
        'INVALID_PRODUCT_ID, INVALID_OPTION_ID, INVALID_UNIT_ID, INVALID_AVAILABILITY_ID, INVALID_BOOKING_UUID, BAD_REQUEST, UNPROCESSABLE_ENTITY, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, INTERNAL_SERVER_ERROR',
    }),
    errorMessage: Type.String(),
    productId: Type.Optional(Type.String()),
    optionId: Type.Optional(Type.String()),
    unitId: Type.Optional(Type.String()),
    availabilityId: Type.Optional(Type.String()),
    uuid: Type.Optional(Type.String()),
  },
  { description: 'An OCTo error (application/json, not RFC 7807)' },
);
export type OctoErrorBody = Static<typeof OctoErrorBody>;

export const Capability = Type.Object({
  id: Type.String(),
  revision: Type.Integer(),
  required: Type.Boolean(),
  dependencies: Type.Array(Type.String()),
  docs: Nullable(Type.String()),
});
export type Capability = Static<typeof Capability>;

export const Supplier = Type.Object({
  id: Type.String({ description: 'The operator' }),
  name: Type.String(),
  endpoint: Type.String({ description: 'The base URL of this OCTo interface' }),
  contact: Type.Object({
    website: Nullable(Type.String()),
    email: Nullable(Type.String()),
    telephone: Nullable(Type.String()),
    address: Nullable(Type.String()),
  }),
});
export type Supplier = Static<typeof Supplier>;

const Tax = Type.Object({ name: Type.String(), retail: Type.Integer(), original: Type.Integer(), net: Nullable(Type.Integer()) });

export const Pricing = Type.Object(
  {
    original: Type.Integer(),
    retail: Type.Integer({ description: 'The price in minor units of the currency' }),
    net: Nullable(Type.Integer(), 'Not known to slotbook: null'),
    currency: Type.String(),
    currencyPrecision: Type.Integer(),
    includedTaxes: Type.Array(Tax),
  },
  { description: 'Only with the octo/pricing capability' },
);
export type Pricing = Static<typeof Pricing>;
export const PricingUnit = Type.Composite([Type.Object({ unitId: Type.String() }), Pricing]);
export type PricingUnit = Static<typeof PricingUnit>;

/** octo/questions: a waiver question of the activity, asked once per booking. */
export const OctoQuestion = Type.Object({
  id: Type.String({ description: "The waiver question's ID" }),
  required: Type.Boolean(),
  label: Type.String(),
  description: Nullable(Type.String()),
  inputType: Type.String({ description: 'text, select, date or file (a FileID from POST /api/v2/ota/{partner}/uploads)' }),
  selectOptions: Type.Array(Type.Object({ label: Type.String(), value: Type.String() })),
});
export type OctoQuestion = Static<typeof OctoQuestion>;

export const QuestionAnswer = Type.Object({
  questionId: Type.String(),
  question: OctoQuestion,
  value: Nullable(Type.String(), 'null until answered'),
});
export type QuestionAnswer = Static<typeof QuestionAnswer>;

export const Unit = Type.Object({
  id: Type.String({ description: "The ticket type's code" }),
  internalName: Type.String(),
  reference: Nullable(Type.String()),
  type: Type.String({ description: "ADULT, CHILD, YOUTH, INFANT, SENIOR, STUDENT, MILITARY, FAMILY or OTHER: the ticket type's category" }),
  restrictions: Type.Object({
    minAge: Type.Integer(),
    maxAge: Type.Integer(),
    idRequired: Type.Boolean(),
    minQuantity: Nullable(Type.Integer()),
    maxQuantity: Nullable(Type.Integer()),
    paxCount: Type.Integer(),
    accompaniedBy: Type.Array(Type.String()),
  }),
  requiredContactFields: Type.Array(Type.String()),
  pricingFrom: Type.Optional(Type.Array(Pricing)),
  questions: Type.Optional(Type.Array(OctoQuestion, { description: 'octo/questions: none per ticket (the waiver is asked once per booking)' })),
});
export type Unit = Static<typeof Unit>;

export const Option = Type.Object({
  id: Type.String({ description: 'Always DEFAULT' }),
  default: Type.Boolean(),
  internalName: Type.String(),
  reference: Nullable(Type.String()),
  availabilityLocalStartTimes: Type.Array(Type.String(), {
    description: 'The start times (HH:MM) of the upcoming timeslots; ["00:00"] for OPENING_HOURS',
  }),
  cancellationCutoff: Type.String(),
  cancellationCutoffAmount: Type.Integer(),
  cancellationCutoffUnit: Type.String(),
  requiredContactFields: Type.Array(Type.String()),
  restrictions: Type.Object({ minUnits: Nullable(Type.Integer()), maxUnits: Nullable(Type.Integer()) }),
  units: Type.Array(Unit),
  pricingFrom: Type.Optional(Type.Array(Pricing)),
  questions: Type.Optional(Type.Array(OctoQuestion, { description: 'octo/questions: the waiver questions, once per booking' })),
});
export type Option = Static<typeof Option>;

export const Product = Type.Object({
  id: Type.String({ description: 'The ActivityID' }),
  internalName: Type.String(),
  reference: Nullable(Type.String(), 'The numeric product ID of the partner API'),
  locale: Type.String(),
  timeZone: Type.String(),
  allowFreesale: Type.Boolean(),
  instantConfirmation: Type.Boolean(),
  instantDelivery: Type.Boolean(),
  availabilityRequired: Type.Boolean(),
  availabilityType: Type.String({ description: "START_TIME: every timeslot is an availability; OPENING_HOURS: every day's opening hours are one" }),
  deliveryFormats: Type.Array(Type.String()),
  deliveryMethods: Type.Array(Type.String()),
  redemptionMethod: Type.String(),
  options: Type.Array(Option),
  defaultCurrency: Type.Optional(Type.String()),
  availableCurrencies: Type.Optional(Type.Array(Type.String())),
  pricingPer: Type.Optional(Type.String()),
});
export type Product = Static<typeof Product>;

const OpeningHours = Type.Object({ from: Type.String(), to: Type.String() });

export const Availability = Type.Object({
  id: Type.String({ description: "The timeslot's start in the activity's time zone, ISO 8601 with offset" }),
  localDateTimeStart: Type.String(),
  localDateTimeEnd: Type.String(),
  utcCutoffAt: Type.String({ description: 'Bookable until the timeslot starts' }),
  allDay: Type.Boolean(),
  available: Type.Boolean(),
  status: Type.String({ description: 'AVAILABLE, LIMITED (under half the seats left), SOLD_OUT, or CLOSED (started, or no capacity)' }),
  vacancies: Nullable(Type.Integer(), "Seats left: the partner API's Available"),
  capacity: Nullable(Type.Integer()),
  maxUnits: Nullable(Type.Integer()),
  openingHours: Type.Array(OpeningHours),
  unitPricing: Type.Optional(Type.Array(PricingUnit)),
  pricing: Type.Optional(Pricing),
});
export type Availability = Static<typeof Availability>;

export const AvailabilityCalendarDay = Type.Object({
  localDate: Type.String(),
  available: Type.Boolean(),
  status: Type.String(),
  vacancies: Nullable(Type.Integer(), 'The most seats left in one timeslot of the day'),
  capacity: Nullable(Type.Integer(), "The capacity of the day's timeslots together"),
  openingHours: Type.Array(OpeningHours),
  unitPricingFrom: Type.Optional(Type.Array(PricingUnit)),
  pricingFrom: Type.Optional(Pricing),
});
export type AvailabilityCalendarDay = Static<typeof AvailabilityCalendarDay>;

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
