// OCTo products and availability (TypeBox): the replies, then the requests (see ../schemas.ts for what
// all of /octo shares).
import { Type, type Static } from '@sinclair/typebox';
import { LocalDate } from '../../http/schemas.js';
import { Nullable } from '../schemas.js';

// ---- responses ----------------------------------------------------------------------------------------

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

const OctoImage = Type.Object({
  url: Type.String(),
  title: Nullable(Type.String(), "The photo's alternative text, or null"),
  caption: Nullable(Type.String()),
});

/** octo/content: what the product is, in words and photos (the fields slotbook has; the rest are left out). */
const ProductContent = Type.Object({
  title: Type.Optional(Type.String({ description: "octo/content: the activity's name" })),
  description: Type.Optional(Nullable(Type.String())),
  shortDescription: Type.Optional(Nullable(Type.String())),
  highlights: Type.Optional(Type.Array(Type.String())),
  inclusions: Type.Optional(Type.Array(Type.String({ description: 'What the price includes' }))),
  exclusions: Type.Optional(Type.Array(Type.String())),
  bookingTerms: Type.Optional(Nullable(Type.String())),
  redemptionInstructions: Type.Optional(Nullable(Type.String({ description: 'Where to meet and what to bring' }))),
  coverImageUrl: Type.Optional(Nullable(Type.String({ description: 'The first photo, 1600 pixels wide at most' }))),
  bannerImageUrl: Type.Optional(Nullable(Type.String())),
  videoUrl: Type.Optional(Nullable(Type.String())),
  galleryImages: Type.Optional(Type.Array(OctoImage, { description: "The activity's photos in order, the largest size of each" })),
  bannerImages: Type.Optional(Type.Array(OctoImage)),
});

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
  ...ProductContent.properties,
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

// ---- requests -----------------------------------------------------------------------------------------

export const ProductParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'The product id (ActivityID)' }) });
export const ProductRef = Type.String({ maxLength: 64, description: 'The product id (ActivityID)' });
export const OptionRef = Type.String({ maxLength: 64, description: 'DEFAULT' });
export const UnitRef = Type.String({ maxLength: 64, description: "The unit id: a ticket type's code, e.g. adult" });
export const AvailabilityRef = Type.String({ maxLength: 64, description: 'An availability id from /availability' });
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
