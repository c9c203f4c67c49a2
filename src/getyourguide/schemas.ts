// GetYourGuide's supplier API as slotbook implements it: the requests GYG sends and the answers slotbook
// gives, written from GYG's published OpenAPI files (docs/channels/getyourguide.md says where they
// contradict themselves and what slotbook does then). Requests are read liberally: fields GYG may add are
// allowed, optional where an example of GYG's omits them. Answers are exact: only what GYG defines.
import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** GYG's closed list of ticket categories. */
export const GYG_CATEGORIES = [
  'ADULT',
  'CHILD',
  'YOUTH',
  'INFANT',
  'SENIOR',
  'STUDENT',
  'EU_CITIZEN',
  'MILITARY',
  'EU_CITIZEN_STUDENT',
  'GROUP',
] as const;
export type GygCategory = (typeof GYG_CATEGORIES)[number];

export const TICKET_STYLES = ['INDIVIDUAL', 'COLLECTIVE'] as const;
export type TicketStyle = (typeof TICKET_STYLES)[number];

const literals = <T extends readonly string[]>(values: T, description?: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...(description && { description }) });

export const Category = literals(GYG_CATEGORIES, "GetYourGuide's ticket category");

export const ERROR_CODES = [
  'AUTHORIZATION_FAILURE',
  'INVALID_PRODUCT',
  'VALIDATION_FAILURE',
  'NO_AVAILABILITY',
  'INVALID_TICKET_CATEGORY',
  'INVALID_PARTICIPANTS_CONFIGURATION',
  'INVALID_RESERVATION',
  'INVALID_BOOKING',
  'INVALID_ADDONS_CONFIGURATION',
  'INVALID_SUPPLIER',
  'BOOKING_REDEEMED',
  'BOOKING_IN_PAST',
  'BOOKING_ALREADY_CANCELED',
  'INTERNAL_SYSTEM_FAILURE',
] as const;
export type GygErrorCode = (typeof ERROR_CODES)[number];

export const ParticipantsConfiguration = Type.Object(
  { min: Type.Integer({ minimum: 1 }), max: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]) },
  { additionalProperties: false },
);

/** Every error: HTTP 200 with a code and a message a person can act on. */
export const GygErrorBody = Type.Object(
  {
    errorCode: literals(ERROR_CODES),
    errorMessage: Type.String(),
    participantsConfiguration: Type.Optional(ParticipantsConfiguration),
    groupConfiguration: Type.Optional(Type.Object({ max: Type.Integer({ minimum: 1 }) }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
export type GygErrorBody = Static<typeof GygErrorBody>;

/** An answer of GYG's: `{data}` on success, else the error body, both at HTTP 200. */
export const answer = <T extends TSchema>(data: T) => Type.Union([Type.Object({ data }, { additionalProperties: false }), GygErrorBody]);

const Id = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });
const Price = Type.Integer({ minimum: 0, description: 'Minor units of the currency' });

// ---- availability ----------------------------------------------------------------------------------

export const AvailabilityQuery = Type.Object({
  productId: Id('The GYG product ID, as mapped by the operator'),
  fromDateTime: Type.String({ minLength: 1, maxLength: 40, description: 'ISO 8601 with an offset; inclusive' }),
  toDateTime: Type.String({ minLength: 1, maxLength: 40, description: 'ISO 8601 with an offset; inclusive' }),
});
export type AvailabilityQuery = Static<typeof AvailabilityQuery>;

export const RetailPrice = Type.Object({ category: Category, price: Price }, { additionalProperties: false });

export const Availability = Type.Object(
  {
    dateTime: Type.String({ description: "Start (time point) or the day's midnight (time period), in the activity's UTC offset" }),
    productId: Type.String(),
    cutoffSeconds: Type.Integer({ minimum: 0 }),
    vacancies: Type.Optional(Type.Integer({ minimum: 0, maximum: 5000 })),
    vacanciesByCategory: Type.Optional(
      Type.Array(Type.Object({ category: Category, vacancies: Type.Integer({ minimum: 0, maximum: 5000 }) }, { additionalProperties: false })),
    ),
    openingTimes: Type.Optional(Type.Array(Type.Object({ fromTime: Type.String(), toTime: Type.String() }, { additionalProperties: false }))),
    currency: Type.Optional(Type.String({ minLength: 3, maxLength: 3 })),
    pricesByCategory: Type.Optional(Type.Object({ retailPrices: Type.Array(RetailPrice) }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
export type Availability = Static<typeof Availability>;

export const AvailabilityData = Type.Object({ availabilities: Type.Array(Availability) }, { additionalProperties: false });

// ---- reservations ----------------------------------------------------------------------------------

const Count = Type.Integer({ minimum: 1, maximum: 10_000 });

export const ReservationItem = Type.Object({
  category: Type.String({ maxLength: 40, description: 'One of GYG categories (others: INVALID_TICKET_CATEGORY)' }),
  count: Count,
  groupSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
});
export type ReservationItem = Static<typeof ReservationItem>;

const GygReference = Type.String({ minLength: 1, maxLength: 100, description: "GYG's booking reference" });

export const ReserveBody = Type.Object({
  data: Type.Object({
    productId: Id('The GYG product ID'),
    dateTime: Type.String({ minLength: 1, maxLength: 40 }),
    bookingItems: Type.Array(ReservationItem, { minItems: 1, maxItems: 50 }),
    gygBookingReference: GygReference,
    gygActivityReference: Type.Optional(Type.String({ maxLength: 100 })),
  }),
});
export type ReserveBody = Static<typeof ReserveBody>;

export const ReservationData = Type.Object(
  { reservationReference: Type.String(), reservationExpiration: Type.String({ description: 'ISO 8601 in UTC' }) },
  { additionalProperties: false },
);
export type ReservationData = Static<typeof ReservationData>;

export const CancelReservationBody = Type.Object({
  data: Type.Object({
    reservationReference: Type.String({ minLength: 1, maxLength: 100 }),
    gygBookingReference: GygReference,
    gygActivityReference: Type.Optional(Type.String({ maxLength: 100 })),
  }),
});
export type CancelReservationBody = Static<typeof CancelReservationBody>;

export const EmptyData = Type.Object({}, { additionalProperties: false });

// ---- bookings --------------------------------------------------------------------------------------

// GYG's schema requires retailPrice, but its own "With pick-up" example omits it: accepted without.
export const BookingItem = Type.Object({
  category: Type.String({ maxLength: 40 }),
  count: Count,
  groupSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  retailPrice: Type.Optional(Type.Integer({ description: 'What GYG charged per participant; recorded, never a reason to fail' })),
});

const Text = (max: number) => Type.String({ maxLength: max });

export const Traveler = Type.Object({
  firstName: Type.Optional(Text(200)),
  lastName: Type.Optional(Text(200)),
  email: Type.Optional(Text(320)),
  phoneNumber: Type.Optional(Text(100)),
});

export const AddonItem = Type.Object({
  addonType: Type.String({ maxLength: 40 }),
  addonDescription: Type.Optional(Text(200)),
  count: Type.Optional(Type.Integer({ minimum: 0 })),
  retailPrice: Type.Optional(Type.Integer()),
});

// Required by GYG's schema but missing from some of its examples (currency, travelers, comment): optional here.
export const BookBody = Type.Object({
  data: Type.Object({
    productId: Id('The GYG product ID'),
    reservationReference: Type.String({ minLength: 1, maxLength: 100 }),
    gygBookingReference: GygReference,
    gygActivityReference: Type.Optional(Type.String({ maxLength: 100 })),
    currency: Type.Optional(Type.String({ maxLength: 3 })),
    dateTime: Type.String({ minLength: 1, maxLength: 40 }),
    bookingItems: Type.Array(BookingItem, { minItems: 1, maxItems: 50 }),
    addonItems: Type.Optional(Type.Array(AddonItem, { maxItems: 50 })),
    language: Type.Optional(Text(20)),
    travelers: Type.Optional(Type.Array(Traveler, { maxItems: 200 })),
    travelerHotel: Type.Optional(Text(1000)),
    comment: Type.Optional(Text(20_000)),
  }),
});
export type BookBody = Static<typeof BookBody>;

export const TICKET_CODE_TYPES = ['TEXT', 'BARCODE_CODE39', 'BARCODE_CODE128', 'QR_CODE', 'DATA_MATRIX', 'EAN_13', 'ITF', 'AZTEC'] as const;

export const Ticket = Type.Object(
  {
    category: literals([...GYG_CATEGORIES, 'COLLECTIVE'] as const),
    ticketCode: Type.String({ maxLength: 512 }),
    ticketCodeType: literals(TICKET_CODE_TYPES),
  },
  { additionalProperties: false },
);
export type Ticket = Static<typeof Ticket>;

export const BookingData = Type.Object(
  {
    bookingReference: Type.String({ pattern: '^[A-Za-z0-9]{1,25}$', description: 'At most 25 letters and digits' }),
    tickets: Type.Array(Ticket),
  },
  { additionalProperties: false },
);
export type BookingData = Static<typeof BookingData>;

export const CancelBookingBody = Type.Object({
  data: Type.Object({
    bookingReference: Type.String({ minLength: 1, maxLength: 100 }),
    gygBookingReference: GygReference,
    productId: Type.Optional(Type.String({ maxLength: 200 })),
  }),
});
export type CancelBookingBody = Static<typeof CancelBookingBody>;

// ---- notify ----------------------------------------------------------------------------------------

// GYG's schema requires productDetails.tourTitle while naming the field tourOptionTitle: neither is required.
export const NotifyBody = Type.Object({
  data: Type.Object({
    notificationType: Type.String({ minLength: 1, maxLength: 100 }),
    description: Type.Optional(Text(5000)),
    supplierName: Type.Optional(Text(1000)),
    integrationName: Type.Optional(Text(1000)),
    dateTime: Type.Optional(Text(40)),
    productDetails: Type.Optional(
      Type.Object({
        productId: Type.Optional(Text(200)),
        gygTourOptionId: Type.Optional(Text(100)),
        tourOptionTitle: Type.Optional(Text(1000)),
      }),
    ),
    notificationDetails: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  }),
});
export type NotifyBody = Static<typeof NotifyBody>;

// ---- products --------------------------------------------------------------------------------------

export const SupplierParams = Type.Object({ supplierId: Type.String({ minLength: 1, maxLength: 200 }) });
export const ProductParams = Type.Object({ productId: Type.String({ minLength: 1, maxLength: 200 }) });

export const SupplierProductsData = Type.Object(
  {
    supplierId: Type.String(),
    supplierName: Type.String({ maxLength: 512 }),
    products: Type.Array(Type.Object({ productId: Type.String(), productTitle: Type.String({ maxLength: 512 }) }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

export const ProductDetailsData = Type.Object(
  {
    supplierId: Type.String(),
    productTitle: Type.String({ maxLength: 512 }),
    productDescription: Type.String({ maxLength: 512 }),
    destinationLocation: Type.Object({ city: Type.String(), country: Type.String() }, { additionalProperties: false }),
    configuration: Type.Object(
      {
        participantsConfiguration: Type.Object(
          { min: Type.Integer({ minimum: 1 }), max: Type.Integer({ minimum: 1 }) },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const PricingCategory = Type.Object(
  {
    category: Category,
    minTicketAmount: Type.Integer({ minimum: 0 }),
    maxTicketAmount: Type.Integer({ minimum: 0 }),
    groupSizeMin: Type.Union([Type.Integer(), Type.Null()]),
    groupSizeMax: Type.Union([Type.Integer(), Type.Null()]),
    ageFrom: Type.Union([Type.Integer(), Type.Null()]),
    ageTo: Type.Union([Type.Integer(), Type.Null()]),
    bookingCategory: literals(['STANDARD', 'FREE_NO_TICKET', 'FREE_TICKET_REQUIRED', 'NOT_PERMITTED'] as const),
    price: Type.Array(
      Type.Object({ priceType: literals(['RETAIL_PRICE'] as const), price: Price, currency: Type.String() }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);
export type PricingCategory = Static<typeof PricingCategory>;

export const PricingCategoriesData = Type.Object({ pricingCategories: Type.Array(PricingCategory) }, { additionalProperties: false });
export const AddonsData = Type.Object({ addons: Type.Array(Type.Object({}, { additionalProperties: false })) }, { additionalProperties: false });

// ---- the push to GYG (notify-availability-update) --------------------------------------------------

/** An entry of GYG's push: as get-availabilities answers it, without productId and cutoffSeconds. */
export const PushAvailability = Type.Omit(Availability, ['productId', 'cutoffSeconds'], { additionalProperties: false });
export type PushAvailability = Static<typeof PushAvailability>;

export const PushBody = Type.Object(
  { data: Type.Object({ productId: Type.String(), availabilities: Type.Array(PushAvailability, { minItems: 1 }) }, { additionalProperties: false }) },
  { additionalProperties: false },
);
export type PushBody = Static<typeof PushBody>;
