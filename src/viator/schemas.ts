// Viator's Reservation System API as slotbook implements it: the requests Viator sends and the answers
// slotbook gives, written from Viator's published OpenAPI document (docs/channels/viator.md says where it
// is unclear and what slotbook does then). The v2 endpoints speak plain JSON with an error model of HTTP
// statuses; the v1 endpoints (booking, amendment, cancellation, redemption, tour list) wrap their data in
// {requestType, data} / {responseType, data} and report errors inside, with HTTP 200. Requests are read
// liberally (fields Viator may add are allowed); answers are exact: only what Viator defines.
import { Type, type Static, type TSchema } from '@sinclair/typebox';

const literals = <T extends readonly string[]>(values: T, description?: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...(description && { description }) });

const Date_ = Type.String({ format: 'date', description: 'YYYY-MM-DD' });
const Time = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'hh:mm' });
const Timestamp = Type.String({ format: 'date-time' });
const SupplierId = Type.Integer({ description: "Viator's supplier ID" });
const ProductOptionId = Type.String({ minLength: 1, maxLength: 200, description: "slotbook's product option identifier (from the tour list)" });

/** Viator's ticket types: the person age bands and UNIT (a price per group). */
export const TICKET_TYPES = ['ADULT', 'SENIOR', 'YOUTH', 'CHILD', 'INFANT', 'UNIT'] as const;
export type ViatorTicketType = (typeof TICKET_TYPES)[number];
export const PERSON_BANDS = ['ADULT', 'SENIOR', 'YOUTH', 'CHILD', 'INFANT'] as const;
export type PersonBand = (typeof PERSON_BANDS)[number];

// ---- v2 requests -----------------------------------------------------------------------------------

const TicketRequest = Type.Object({
  type: Type.String({ minLength: 1, maxLength: 20, description: 'ADULT, SENIOR, YOUTH, CHILD, INFANT or UNIT' }),
  quantity: Type.Integer({ minimum: 0, maximum: 10000 }),
});
export type TicketRequest = Static<typeof TicketRequest>;

export const CalendarRequest = Type.Object({
  supplierId: SupplierId,
  productOptionIds: Type.Array(ProductOptionId, { minItems: 1, maxItems: 500 }),
  startDate: Date_,
  endDate: Date_,
});
export type CalendarRequest = Static<typeof CalendarRequest>;

export const AvailabilityCheckRequest = Type.Object({
  supplierId: SupplierId,
  productOptions: Type.Array(Type.Object({ productOptionId: ProductOptionId, startTimes: Type.Optional(Type.Array(Time, { maxItems: 200 })) }), {
    minItems: 1,
    maxItems: 100,
  }),
  travelDate: Date_,
  tickets: Type.Array(TicketRequest, { minItems: 1, maxItems: 20 }),
  totalTravelers: Type.Optional(Type.Integer({ minimum: 0, maximum: 10000 })),
});
export type AvailabilityCheckRequest = Static<typeof AvailabilityCheckRequest>;

export const ReserveRequest = Type.Object({
  supplierId: SupplierId,
  productOptionId: ProductOptionId,
  startTime: Type.Optional(Time),
  travelDate: Date_,
  tickets: Type.Array(TicketRequest, { minItems: 1, maxItems: 20 }),
  totalTravelers: Type.Optional(Type.Integer({ minimum: 0, maximum: 10000 })),
});
export type ReserveRequest = Static<typeof ReserveRequest>;

export const SpecialOffersRequest = Type.Object({
  supplierId: SupplierId,
  specialOfferIds: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 500 }),
});
export type SpecialOffersRequest = Static<typeof SpecialOffersRequest>;

// ---- v2 answers ------------------------------------------------------------------------------------

const Types = (values: readonly string[]) => Type.Array(literals(values as readonly [string, ...string[]]), { minItems: 1 });

const UnlimitedCapacity = Type.Object({ type: Type.Literal('UNLIMITED') }, { additionalProperties: false });
const LimitedCapacity = Type.Object(
  {
    type: Type.Literal('LIMITED'),
    vacancies: Type.Array(
      Type.Object(
        { types: Types(TICKET_TYPES), quantity: Type.Integer({ minimum: 0 }), quantityType: literals(['SHARED', 'PER_TYPE'] as const) },
        { additionalProperties: false },
      ),
    ),
    original: Type.Integer({ minimum: 1 }),
    remaining: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export const EventCapacity = Type.Union([UnlimitedCapacity, LimitedCapacity]);
export type EventCapacity = Static<typeof EventCapacity>;

const Discount = Type.Object({ originalRetailPrice: Type.Number(), specialOfferId: Type.Optional(Type.String()) }, { additionalProperties: false });
const PerPersonPriceDetails = Type.Object(
  {
    types: Types(PERSON_BANDS),
    netPrice: Type.Optional(Type.Number()),
    retailPrice: Type.Number({ minimum: 0 }),
    discount: Type.Optional(Discount),
  },
  { additionalProperties: false },
);
export const PerPersonPrice = Type.Object(
  { type: Type.Literal('PER_PERSON_PRICE'), prices: Type.Array(PerPersonPriceDetails) },
  { additionalProperties: false },
);
export const PerUnitPrice = Type.Object(
  {
    type: Type.Literal('PER_UNIT_PRICE'),
    netPrice: Type.Optional(Type.Number()),
    retailPrice: Type.Number({ minimum: 0 }),
    discount: Type.Optional(Discount),
    maxTravelers: Type.Integer({ minimum: 1 }),
  },
  { additionalProperties: false },
);
const UnsupportedPrice = Type.Object({ type: Type.Literal('UNSUPPORTED_PRICE'), reason: Type.String() }, { additionalProperties: false });
export const Price = Type.Union([PerPersonPrice, PerUnitPrice, UnsupportedPrice]);
export type Price = Static<typeof Price>;

const TieredPerPersonPrice = Type.Object(
  {
    type: Type.Literal('TIERED_PER_PERSON_PRICE'),
    prices: Type.Array(
      Type.Object(
        {
          types: Types(PERSON_BANDS),
          tiers: Type.Array(
            Type.Object(
              {
                min: Type.Integer({ minimum: 0 }),
                max: Type.Integer({ minimum: 0 }),
                retailPrice: Type.Number(),
                netPrice: Type.Optional(Type.Number()),
                discount: Type.Optional(Discount),
              },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
const CalendarPrice = Type.Union([PerPersonPrice, PerUnitPrice, TieredPerPersonPrice, UnsupportedPrice]);

export const UNAVAILABLE_REASONS = ['SOLD_OUT', 'PAST_BOOKING_CUTOFF', 'UNSUPPORTED_TICKET_COMBINATION', 'LIMITED_AVAILABILITY'] as const;
export type UnavailableReason = (typeof UNAVAILABLE_REASONS)[number];

const OpeningHours = Type.Object(
  {
    coordinateStartTimes: Type.Boolean(),
    hours: Type.Array(Type.Object({ from: Time, to: Time }, { additionalProperties: false }), { minItems: 1 }),
  },
  { additionalProperties: false },
);

/** The cut-off: the moment (UTC) after which the event can no longer be bought. */
const BookingCutoff = Timestamp;

export const AvailableEvent = Type.Object(
  { status: Type.Literal('AVAILABLE'), startTime: Type.Optional(Time), capacity: EventCapacity, bookingCutoff: BookingCutoff, price: Price },
  { additionalProperties: false },
);
export const UnavailableEvent = Type.Object(
  {
    status: Type.Literal('UNAVAILABLE'),
    unavailableReason: literals(UNAVAILABLE_REASONS),
    startTime: Type.Optional(Time),
    capacity: EventCapacity,
    bookingCutoff: BookingCutoff,
  },
  { additionalProperties: false },
);
export type CheckEvent = Static<typeof AvailableEvent> | Static<typeof UnavailableEvent>;

export const AvailabilityCheckResponse = Type.Object(
  {
    productOptions: Type.Array(
      Type.Object(
        { productOptionId: Type.String(), currency: Type.String(), events: Type.Array(Type.Union([AvailableEvent, UnavailableEvent])) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type AvailabilityCheckResponse = Static<typeof AvailabilityCheckResponse>;

const CalendarAvailableEvent = Type.Object(
  {
    status: Type.Literal('AVAILABLE'),
    startTime: Type.Optional(Time),
    openingHours: Type.Optional(OpeningHours),
    bookingCutoff: BookingCutoff,
    capacity: EventCapacity,
    price: CalendarPrice,
  },
  { additionalProperties: false },
);
const CalendarUnavailableEvent = Type.Object(
  {
    status: Type.Literal('UNAVAILABLE'),
    startTime: Type.Optional(Time),
    openingHours: Type.Optional(OpeningHours),
    unavailableReason: literals(['SOLD_OUT', 'PAST_BOOKING_CUTOFF'] as const),
    bookingCutoff: BookingCutoff,
    capacity: EventCapacity,
    price: CalendarPrice,
  },
  { additionalProperties: false },
);
export type CalendarEvent = Static<typeof CalendarAvailableEvent> | Static<typeof CalendarUnavailableEvent>;

export const CalendarResponse = Type.Object(
  {
    productOptions: Type.Array(
      Type.Object(
        {
          productOptionId: Type.String(),
          currency: Type.String(),
          dates: Type.Array(
            Type.Object(
              { travelDate: Date_, events: Type.Array(Type.Union([CalendarAvailableEvent, CalendarUnavailableEvent]), { minItems: 1 }) },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type CalendarResponse = Static<typeof CalendarResponse>;

export const NOT_RESERVED_REASONS = [...UNAVAILABLE_REASONS, 'NO_EVENT'] as const;
export type NotReservedReason = (typeof NOT_RESERVED_REASONS)[number];

export const ReservedResponse = Type.Object(
  {
    status: Type.Literal('RESERVED'),
    expiration: Timestamp,
    reference: Type.String({ minLength: 1 }),
    currency: Type.String(),
    price: Price,
  },
  { additionalProperties: false },
);
export const NotReservedResponse = Type.Object(
  { status: Type.Literal('NOT_RESERVED'), reason: literals(NOT_RESERVED_REASONS) },
  { additionalProperties: false },
);
export const ReserveResponse = Type.Union([ReservedResponse, NotReservedResponse]);
export type ReserveResponse = Static<typeof ReserveResponse>;

export const SpecialOffersResponse = Type.Object(
  {
    specialOffers: Type.Array(
      Type.Object(
        {
          specialOfferId: Type.String(),
          name: Type.String(),
          type: Type.Literal('STANDARD'),
          validFrom: Timestamp,
          validUntil: Type.Optional(Timestamp),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** 422: the request names a supplier or product option slotbook cannot serve, or the connection is off. */
export const CONTENT_ERRORS = ['INVALID_SUPPLIER', 'API_DISABLED', 'INVALID_PRODUCT_OPTION'] as const;
export type ContentError = (typeof CONTENT_ERRORS)[number];
export const ContentErrorResponse = Type.Object(
  { error: literals(CONTENT_ERRORS), message: Type.Optional(Type.String()) },
  { additionalProperties: false },
);
export const InternalErrorResponse = Type.Object(
  { error: Type.Literal('INTERNAL_ERROR'), message: Type.Optional(Type.String()) },
  { additionalProperties: false },
);
/**
 * 400, 401, 429 and 503 have no body in Viator's document; slotbook sends this one so that a person reading
 * the log sees which field was wrong. Viator reads only the status.
 */
export const StatusErrorResponse = Type.Object(
  { error: literals(['BAD_REQUEST', 'UNAUTHORIZED', 'TOO_MANY_REQUESTS', 'SERVICE_UNAVAILABLE'] as const), message: Type.String() },
  { additionalProperties: false },
);
export type StatusErrorResponse = Static<typeof StatusErrorResponse>;

// ---- Viator's event notification (what slotbook posts to Viator) ------------------------------------

export const UPDATE_TYPES = ['AVAILABILITY', 'PRICING', 'CAPACITY'] as const;
export type UpdateType = (typeof UPDATE_TYPES)[number];
export const EventNotificationRequest = Type.Object(
  {
    supplierId: SupplierId,
    updateType: Type.Array(literals(UPDATE_TYPES), { minItems: 1 }),
    productOptionIds: Type.Array(Type.String(), { minItems: 1 }),
    startDate: Date_,
    endDate: Date_,
  },
  { additionalProperties: false },
);
export type EventNotificationRequest = Static<typeof EventNotificationRequest>;
/** Viator's 207: per product option, 200 or 422 with INVALID_PRODUCT_OPTION. */
export const EventNotificationResponse = Type.Object({
  results: Type.Array(Type.Object({ productOptionId: Type.String(), status: Type.Integer(), error: Type.Optional(Type.String()) })),
});
export type EventNotificationResponse = Static<typeof EventNotificationResponse>;

// ---- v1: the envelope ------------------------------------------------------------------------------

/** The base fields of every v1 request; ApiKey may come in the X-Api-Key header instead. */
const RequestBase = {
  ApiKey: Type.Optional(Type.String({ maxLength: 200 })),
  ResellerId: Type.Optional(Type.Union([Type.String({ maxLength: 50 }), Type.Integer()])),
  SupplierId: Type.Union([Type.Integer(), Type.String({ pattern: '^[0-9]{1,18}$' })], { description: "Viator's supplier ID" }),
  ExternalReference: Type.Optional(Type.String({ maxLength: 200 })),
  Timestamp: Type.Optional(Type.String({ maxLength: 50 })),
};

const envelope = <T extends TSchema>(requestType: string, data: T) =>
  Type.Object({ requestType: Type.Optional(Type.String({ description: requestType })), data });

const Count = Type.Union([Type.Integer({ minimum: 0, maximum: 10000 }), Type.String({ pattern: '^[0-9]{1,5}$' })]);
export const AGE_BANDS_V1 = ['Adult', 'Child', 'Youth', 'Infant', 'Senior'] as const;

const Traveller = Type.Object({
  TravellerIdentifier: Type.String({ maxLength: 100 }),
  GivenName: Type.String({ maxLength: 200 }),
  Surname: Type.String({ maxLength: 200 }),
  AgeBand: literals(AGE_BANDS_V1),
  LeadTraveller: Type.Optional(Type.Boolean()),
});
export type Traveller = Static<typeof Traveller>;

const TourOptions = Type.Object({
  SupplierOptionCode: Type.Optional(Type.String({ maxLength: 200 })),
  SupplierOptionName: Type.Optional(Type.String({ maxLength: 500 })),
  TourDepartureTime: Type.Optional(Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?$' })),
  Option: Type.Optional(Type.Array(Type.Object({ Name: Type.String(), Value: Type.String() }), { maxItems: 4 })),
});

const BookingFields = {
  ...RequestBase,
  BookingReference: Type.String({ minLength: 1, maxLength: 100 }),
  TravelDate: Date_,
  SupplierProductCode: Type.String({ minLength: 1, maxLength: 50 }),
  Location: Type.Optional(Type.String({ maxLength: 500 })),
  TourOptions: Type.Optional(TourOptions),
  CurrencyCode: Type.Optional(Type.String({ maxLength: 3 })),
  Amount: Type.Optional(Type.Number()),
  Traveller: Type.Array(Traveller, { minItems: 1, maxItems: 500 }),
  TravellerMix: Type.Optional(
    Type.Object({
      Adult: Type.Optional(Count),
      Child: Type.Optional(Count),
      Youth: Type.Optional(Count),
      Infant: Type.Optional(Count),
      Senior: Type.Optional(Count),
      Total: Type.Optional(Count),
    }),
  ),
  RequiredInfo: Type.Optional(
    Type.Object({
      Question: Type.Optional(
        Type.Array(Type.Object({ QuestionText: Type.String({ maxLength: 1000 }), QuestionAnswer: Type.String({ maxLength: 2000 }) }), {
          maxItems: 50,
        }),
      ),
    }),
  ),
  SpecialRequirement: Type.Optional(Type.String({ maxLength: 2000 })),
  PickupPoint: Type.Optional(Type.String({ maxLength: 1000 })),
  ContactDetail: Type.Optional(
    Type.Object({
      ContactType: Type.String({ maxLength: 50 }),
      ContactName: Type.String({ maxLength: 200 }),
      ContactValue: Type.String({ maxLength: 200 }),
    }),
  ),
  ContactEmail: Type.Optional(Type.String({ maxLength: 320 })),
};

export const BookingRequestData = Type.Object({
  ...BookingFields,
  AvailabilityHoldReference: Type.Optional(Type.String({ maxLength: 100 })),
  Retry: Type.Optional(Type.Boolean()),
});
export type BookingRequestData = Static<typeof BookingRequestData>;
export const BookingRequest = envelope('BookingRequest', BookingRequestData);

export const BookingAmendmentRequestData = Type.Object({
  ...BookingFields,
  SupplierNote: Type.Optional(Type.String({ maxLength: 2000 })),
  SupplierConfirmationNumber: Type.String({ minLength: 1, maxLength: 100 }),
});
export type BookingAmendmentRequestData = Static<typeof BookingAmendmentRequestData>;
export const BookingAmendmentRequest = envelope('BookingAmendmentRequest', BookingAmendmentRequestData);

export const BookingCancellationRequestData = Type.Object({
  ...RequestBase,
  BookingReference: Type.String({ minLength: 1, maxLength: 100 }),
  SupplierConfirmationNumber: Type.String({ minLength: 1, maxLength: 100 }),
  CancelDate: Type.Optional(Type.String({ maxLength: 30 })),
  Author: Type.Optional(Type.String({ maxLength: 200 })),
  Reason: Type.Optional(Type.String({ maxLength: 1000 })),
  SupplierNote: Type.Optional(Type.String({ maxLength: 2000 })),
});
export type BookingCancellationRequestData = Static<typeof BookingCancellationRequestData>;
export const BookingCancellationRequest = envelope('BookingCancellationRequest', BookingCancellationRequestData);

export const RedemptionRequestData = Type.Object({
  ...RequestBase,
  BookingReference: Type.String({ minLength: 1, maxLength: 100 }),
  TravelDate: Type.Optional(Date_),
  SupplierConfirmationNumber: Type.String({ minLength: 1, maxLength: 100 }),
});
export type RedemptionRequestData = Static<typeof RedemptionRequestData>;
export const RedemptionRequest = envelope('RedemptionRequest', RedemptionRequestData);

export const TourListRequestData = Type.Object(RequestBase);
export const TourListRequest = envelope('TourListRequest', TourListRequestData);

/** The v1 error codes slotbook answers (Viator's legacy table names more). */
export const TGDS = {
  malformed: 'TGDS0001',
  authentication: 'TGDS0002',
  internal: 'TGDS0006',
  invalidSupplier: 'TGDS0011',
  invalidProduct: 'TGDS0012',
  inactiveAccount: 'TGDS0016',
  fieldValidation: 'TGDS0020',
  invalidData: 'TGDS0023',
  invalidRequest: 'TGDS0026',
  eventUnavailable: 'TGDS0032',
  mixImpossible: 'TGDS0036',
} as const;
export type TgdsCode = (typeof TGDS)[keyof typeof TGDS];

// ---- v1 answers ------------------------------------------------------------------------------------

const ResponseBase = {
  ApiKey: Type.String(),
  ResellerId: Type.String(),
  SupplierId: Type.Integer(),
  ExternalReference: Type.Optional(Type.String()),
  Timestamp: Timestamp,
  RequestStatus: Type.Object(
    {
      Status: literals(['SUCCESS', 'ERROR'] as const),
      Error: Type.Optional(
        Type.Object(
          { ErrorCode: Type.String(), ErrorMessage: Type.String(), ErrorDetails: Type.Optional(Type.String()) },
          { additionalProperties: false },
        ),
      ),
    },
    { additionalProperties: false },
  ),
};
export type ResponseBase = {
  ApiKey: string;
  ResellerId: string;
  SupplierId: number;
  ExternalReference?: string;
  Timestamp: string;
  RequestStatus: { Status: 'SUCCESS' | 'ERROR'; Error?: { ErrorCode: string; ErrorMessage: string; ErrorDetails?: string } };
};

const transactionStatus = <T extends readonly string[]>(reasons: T) =>
  Type.Object(
    {
      Status: literals(['CONFIRMED', 'REJECTED'] as const),
      RejectionReason: Type.Optional(literals(reasons)),
      RejectionReasonDetails: Type.Optional(Type.String()),
    },
    { additionalProperties: false },
  );
export const BOOKING_REJECTIONS = ['NOT_OPERATING', 'BOOKED_OUT_ALT_DATES', 'BOOKED_OUT_ALT_TIMES', 'OTHER'] as const;
export type BookingRejection = (typeof BOOKING_REJECTIONS)[number];
export const CANCELLATION_REJECTIONS = ['PAST_CANCEL_DATE', 'PAST_TOUR_DATE', 'TOUR_REDEEMED', 'OTHER'] as const;
export type CancellationRejection = (typeof CANCELLATION_REJECTIONS)[number];

const ConfirmedTraveller = Type.Object(
  {
    TravellerIdentifier: Type.String(),
    TravellerSupplierConfirmationNumber: Type.Optional(Type.String()),
    TravellerBarcode: Type.Optional(Type.String()),
    TravellerSeat: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

const responseEnvelope = <T extends TSchema>(responseType: string, data: T) =>
  Type.Object({ responseType: Type.Literal(responseType), data }, { additionalProperties: false });

export const BookingResponseData = Type.Object(
  {
    ...ResponseBase,
    BookingReference: Type.Optional(Type.String()),
    SupplierCommentCustomer: Type.Optional(Type.String()),
    TourBarcode: Type.Optional(Type.String()),
    Traveller: Type.Optional(Type.Array(ConfirmedTraveller)),
    TransactionStatus: Type.Optional(transactionStatus(BOOKING_REJECTIONS)),
    SupplierConfirmationNumber: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type BookingResponseData = Static<typeof BookingResponseData>;
export const BookingResponse = responseEnvelope('BookingResponse', BookingResponseData);
export const BookingAmendmentResponse = responseEnvelope('BookingAmendmentResponse', BookingResponseData);

export const BookingCancellationResponseData = Type.Object(
  {
    ...ResponseBase,
    BookingReference: Type.Optional(Type.String()),
    SupplierConfirmationNumber: Type.Optional(Type.String()),
    SupplierCancellationNumber: Type.Optional(Type.String()),
    TransactionStatus: Type.Optional(transactionStatus(CANCELLATION_REJECTIONS)),
  },
  { additionalProperties: false },
);
export type BookingCancellationResponseData = Static<typeof BookingCancellationResponseData>;
export const BookingCancellationResponse = responseEnvelope('BookingCancellationResponse', BookingCancellationResponseData);

export const RedemptionResponseData = Type.Object(
  {
    ...ResponseBase,
    RedemptionStatus: Type.Optional(Type.Boolean()),
    Traveller: Type.Optional(
      Type.Array(
        Type.Object(
          {
            TravellerIdentifier: Type.String(),
            TravellerSupplierConfirmationNumber: Type.Optional(Type.String()),
            RedemptionStatus: Type.Optional(Type.Boolean()),
            RedemptionDateTime: Type.Optional(Timestamp),
          },
          { additionalProperties: false },
        ),
      ),
    ),
  },
  { additionalProperties: false },
);
export type RedemptionResponseData = Static<typeof RedemptionResponseData>;
export const RedemptionResponse = responseEnvelope('RedemptionResponse', RedemptionResponseData);

const TourLanguage = Type.Object(
  { LanguageCode: Type.String(), LanguageOption: Type.Array(literals(['GUIDE', 'AUDIO', 'WRITTEN'] as const), { minItems: 1, maxItems: 3 }) },
  { additionalProperties: false },
);
export const TourListResponseData = Type.Object(
  {
    ...ResponseBase,
    Tour: Type.Optional(
      Type.Array(
        Type.Object(
          {
            SupplierProductCode: Type.String({ maxLength: 50 }),
            SupplierProductName: Type.String(),
            Language: Type.Optional(Type.Array(TourLanguage)),
            CountryCode: Type.String({ pattern: '^[a-zA-Z]{2}$' }),
            DestinationCode: Type.String(),
            DestinationName: Type.String(),
            TourDescription: Type.String(),
            TourOption: Type.Array(
              Type.Object(
                {
                  productOptionId: Type.String(),
                  SupplierOptionCode: Type.Optional(Type.String()),
                  SupplierOptionName: Type.Optional(Type.String()),
                  TourDepartureTime: Type.Optional(Type.String()),
                  Language: Type.Optional(Type.Array(TourLanguage)),
                },
                { additionalProperties: false },
              ),
              { minItems: 1 },
            ),
          },
          { additionalProperties: false },
        ),
      ),
    ),
  },
  { additionalProperties: false },
);
export type TourListResponseData = Static<typeof TourListResponseData>;
export const TourListResponse = responseEnvelope('TourListResponse', TourListResponseData);
