import { Type, type Static } from '@sinclair/typebox';
import { TicketType } from './tickets/schemas.js';
import { ActivityPhoto } from './photos/schemas.js';

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

export const MeetingPoint = Type.Object(
  {
    Address: Type.String({ minLength: 1, maxLength: 300, description: 'Where guests meet, as they would type it into a map' }),
    MapUrl: Type.Union([Type.String({ maxLength: 2048, pattern: '^https://[^\\s]+$', description: 'An https link to a map' }), Type.Null()]),
    Latitude: Type.Union([Type.Number({ minimum: -90, maximum: 90 }), Type.Null()]),
    Longitude: Type.Union([Type.Number({ minimum: -180, maximum: 180 }), Type.Null()]),
  },
  { additionalProperties: false, description: 'Where to meet: an address, and optionally a map link and coordinates (both or neither)' },
);
export type MeetingPoint = Static<typeof MeetingPoint>;

const Lines = (what: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 20, description: `${what}: short lines, at most 20` });

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
    MeetingPoint: Type.Union([MeetingPoint, Type.Null()], { description: 'Where guests meet; null when the operator has not said' }),
    Inclusions: Lines('What the price includes'),
    WhatToBring: Lines('What guests should bring'),
    Photos: Type.Array(ActivityPhoto, { description: "The activity's photos in order, the first its cover; each in several sizes" }),
  },
  { $id: 'Product' },
);
export type Product = Static<typeof Product>;

const RequiredContactFields = Type.Array(Type.Unsafe<ContactField>({ type: 'string', enum: [...CONTACT_FIELDS] }), {
  uniqueItems: true,
  description:
    'What an OCTo confirmation must tell about the guest (OCTo requiredContactFields); default firstName and lastName (a fullName of two words gives both)',
});

/** The most rules an activity's refund policy may have (a policy guests must read in one glance). */
export const MAX_REFUND_RULES = 10;

export const RefundRule = Type.Object({
  HoursBefore: Type.Integer({ minimum: 0, maximum: 8760, description: 'A cancellation at least this many hours before the start...' }),
  Percent: Type.Integer({ minimum: 0, maximum: 100, description: '...gets back this percentage of what was paid' }),
});
export type RefundRule = Static<typeof RefundRule>;
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
      GuestRefundRules: Type.Array(RefundRule, {
        description: "What a guest's own cancellation refunds, largest HoursBefore first; empty: all that was paid",
      }),
      ...depositFields,
      GuestRescheduleHours: Type.Union([Type.Integer(), Type.Null()], {
        description:
          'Guests may move their own booking to another time of the activity (the link in their e-mails) until this many hours before its start; null: they may not',
      }),
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
  MeetingPoint: Type.Union([MeetingPoint, Type.Null()]),
  Inclusions: Lines('What the price includes'),
  WhatToBring: Lines('What guests should bring'),
  GuestRescheduleHours: Type.Union([Type.Integer({ minimum: 0, maximum: 8760 }), Type.Null()], {
    description:
      'Let guests move their own booking online to another time of the activity with room until this many hours before its start (0: until it starts); null (the default): they may not',
  }),
  GuestRefundRules: Type.Array(RefundRule, {
    maxItems: MAX_REFUND_RULES,
    description:
      "What a guest's own cancellation refunds of what they paid: the Percent of the rule with the largest HoursBefore that the cancellation " +
      'still comes before (at least HoursBefore hours before the start), none when it comes after them all. Empty (the default): all of it. ' +
      'Shown to guests before they pay. Each HoursBefore once.',
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
  GuestRescheduleHours: Type.Optional(activityFields.GuestRescheduleHours),
  GuestRefundRules: Type.Optional(activityFields.GuestRefundRules),
  MeetingPoint: Type.Optional(activityFields.MeetingPoint),
  Inclusions: Type.Optional(activityFields.Inclusions),
  WhatToBring: Type.Optional(activityFields.WhatToBring),
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
