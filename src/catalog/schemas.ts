import { Type, type Static } from '@sinclair/typebox';
import { TicketType } from './tickets/schemas.js';

export const AVAILABILITY_TYPES = ['start_time', 'opening_hours'] as const;
export type AvailabilityType = (typeof AVAILABILITY_TYPES)[number];
const AvailabilityTypeField = Type.Unsafe<AvailabilityType>({
  type: 'string',
  enum: [...AVAILABILITY_TYPES],
  description:
    "start_time: each timeslot is a start time, bookable until it starts. opening_hours: each timeslot is a day's opening hours " +
    "(Time to EndTime, one per date) with the day's capacity, bookable until it closes (an attraction)",
});

/** OCTo contact fields a confirmation can be made to require (src/octo/bookings/contact.ts). */
export const CONTACT_FIELDS = ['firstName', 'lastName', 'emailAddress', 'phoneNumber', 'country', 'postalCode', 'locales', 'notes'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

export const Product = Type.Object(
  {
    ID: Type.Integer({ description: 'Numeric product ID, as used by resolve-product' }),
    ActivityID: Type.String({ description: 'Activity identifier used by availability, questions and bookings', examples: ['s_h8Kd2LwQ9xTz4mPa'] }),
    Name: Type.String(),
    Description: Type.String(),
    DurationMinutes: Type.Integer(),
    Timezone: Type.String({ description: 'IANA time zone in which Date and Time are given' }),
    Currency: Type.String({ description: 'ISO 4217 code' }),
    UnitPrice: Type.Integer({
      description: 'Price per participant in minor units of Currency: the price of the default ticket type, the one Participants books',
    }),
    MaxParticipantsPerBooking: Type.Integer({ description: 'The most people one booking may admit (all its tickets together)' }),
    UpdatedAt: Type.String({ format: 'date-time' }),
    AvailabilityType: AvailabilityTypeField,
    TicketTypes: Type.Array(TicketType, {
      description: 'What a booking can buy, with prices; book a mix with Tickets: [{Type, Quantity}]. Names are in Locale where translated',
    }),
  },
  { $id: 'Product' },
);
export type Product = Static<typeof Product>;

const RequiredContactFields = Type.Array(Type.Unsafe<ContactField>({ type: 'string', enum: [...CONTACT_FIELDS] }), {
  uniqueItems: true,
  description:
    'What an OCTo confirmation must tell about the guest (OCTo requiredContactFields); default firstName and lastName (a fullName of two words gives both)',
});

export const DepositSetting = Type.Union(
  [
    Type.Object(
      { Percent: Type.Integer({ minimum: 1, maximum: 99, description: "A percentage of each booking's price, rounded half up" }) },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        Amount: Type.String({
          pattern: '^[0-9]{1,12}(\\.[0-9]{1,6})?$',
          description: "A fixed amount per booking, a decimal in the activity's currency (never more than the booking's price)",
        }),
      },
      { additionalProperties: false },
    ),
  ],
  { $id: 'DepositSetting' },
);
export type DepositSetting = Static<typeof DepositSetting>;

const depositFields = {
  Deposit: Type.Union([DepositSetting, Type.Null()], {
    description:
      'Online bookings pay a deposit when they are made: {"Percent": 30} of the price or {"Amount": "20.00"} per booking; the rest is the balance (docs/payments.md). null (the default): pay in full',
  }),
  BalanceDueDays: Type.Union([Type.Integer({ minimum: 0, maximum: 365 }), Type.Null()], {
    description:
      'With a deposit: e-mail the guest a link to pay the balance this many days before the start; null (the default): the balance is collected at check-in',
  }),
};

export const AdminProduct = Type.Composite(
  [
    Product,
    Type.Object({
      Archived: Type.Boolean(),
      RequiredContactFields: Type.Array(Type.String()),
      GuestCancelHours: Type.Union([Type.Integer(), Type.Null()], {
        description: 'Guests may cancel their own booking (the link in their e-mails) until this many hours before the start; null: they may not',
      }),
      ...depositFields,
    }),
  ],
  { $id: 'AdminProduct' },
);
export type AdminProduct = Static<typeof AdminProduct>;

export const LocaleQuery = Type.Optional(
  Type.String({
    maxLength: 64,
    description: 'BCP 47 language tag such as en or de-CH for the ticket type names; falls back to the language, then the default text',
  }),
);

export const ListProductsQuery = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 255, description: 'Case-insensitive partial match on the product name' })),
  Locale: LocaleQuery,
});

export const ResolveProductQuery = Type.Object({
  ID: Type.Optional(Type.String({ description: 'Numeric product ID (a positive integer)' })),
  Name: Type.Optional(Type.String({ description: 'Exact product name, case-insensitive' })),
  Locale: LocaleQuery,
});

const activityFields = {
  ...depositFields,
  Name: Type.String({ minLength: 1, maxLength: 200 }),
  Description: Type.String({ maxLength: 10_000 }),
  DurationMinutes: Type.Integer({ minimum: 1, maximum: 10_080 }),
  Timezone: Type.String({ description: 'IANA time zone, e.g. Europe/Berlin' }),
  Currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 currency code' }),
  UnitPrice: Type.Integer({ minimum: 0, maximum: 100_000_000 }),
  MaxParticipantsPerBooking: Type.Integer({ minimum: 1, maximum: 1000 }),
  AvailabilityType: AvailabilityTypeField,
  RequiredContactFields,
  GuestCancelHours: Type.Union([Type.Integer({ minimum: 0, maximum: 8760 }), Type.Null()], {
    description:
      'Let guests cancel their own booking online until this many hours before the start (0: until it starts); null (the default): they may not',
  }),
};

export const CreateActivityBody = Type.Object({
  Name: activityFields.Name,
  Description: Type.Optional(activityFields.Description),
  DurationMinutes: activityFields.DurationMinutes,
  Timezone: activityFields.Timezone,
  Currency: activityFields.Currency,
  UnitPrice: Type.Integer({
    minimum: 0,
    maximum: 100_000_000,
    description: 'The price of the ticket type Adult the activity starts with; add other types under /ticket-types',
  }),
  MaxParticipantsPerBooking: Type.Optional(activityFields.MaxParticipantsPerBooking),
  AvailabilityType: Type.Optional(activityFields.AvailabilityType),
  RequiredContactFields: Type.Optional(activityFields.RequiredContactFields),
  GuestCancelHours: Type.Optional(activityFields.GuestCancelHours),
  Deposit: Type.Optional(activityFields.Deposit),
  BalanceDueDays: Type.Optional(activityFields.BalanceDueDays),
});
export type CreateActivityBody = Static<typeof CreateActivityBody>;

export const UpdateActivityBody = Type.Partial(
  Type.Object({
    ...activityFields,
    UnitPrice: Type.Integer({ minimum: 0, maximum: 100_000_000, description: "The default ticket type's price (changes that type)" }),
    Archived: Type.Boolean({ description: 'true hides the activity from partners' }),
  }),
  { minProperties: 1 },
);
export type UpdateActivityBody = Static<typeof UpdateActivityBody>;
