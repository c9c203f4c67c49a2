// API types of the booking pages' own shop endpoints (api-routes.ts): the shop's profile with its
// activities in one answer (the first page needs nothing else), and an activity's month calendar.
import { Type, type Static } from '@sinclair/typebox';
import { LocalDate } from '../http/schemas.js';
import { Product, RefundRule } from '../catalog/schemas.js';

export const StorefrontProfile = Type.Object(
  {
    Name: Type.String({ description: 'The name the booking pages show' }),
    Slug: Type.String({ description: "The booking pages' address: /book/{Slug}" }),
    BrandColour: Type.Union([Type.String(), Type.Null()], { description: "The pages' accent colour (#rrggbb), or null for the default" }),
    LogoUrl: Type.Union([Type.String(), Type.Null()], { description: "The operator's logo, or null" }),
    TermsUrl: Type.Union([Type.String(), Type.Null()], {
      description: "The shop's terms; while it or PrivacyUrl is set, checkout needs AcceptTerms: true (the form's checkbox)",
    }),
    PrivacyUrl: Type.Union([Type.String(), Type.Null()], { description: "The shop's privacy notice, or null" }),
  },
  { $id: 'StorefrontProfile' },
);
export type StorefrontProfile = Static<typeof StorefrontProfile>;

export const StorefrontActivity = Type.Composite([
  Product,
  Type.Object({
    PriceFrom: Type.Integer({
      description: 'The lowest price a guest pays, minor units of Currency: free ticket types (an infant) are left out unless every type is free',
    }),
    NextAvailableDate: Type.Union([LocalDate, Type.Null()], { description: 'The first date within a year with a seat left, or null' }),
    GuestCancellation: Type.Union(
      [
        Type.Object({
          HoursBefore: Type.Integer(),
          Refunds: Type.Array(RefundRule, {
            description:
              "What the cancellation refunds of what was paid, largest HoursBefore first (the activity's GuestRefundRules); empty: all of it",
          }),
        }),
        Type.Null(),
      ],
      {
        description:
          'Whether guests may cancel their own booking, until HoursBefore hours before the start, and what they get back; null: they may not',
      },
    ),
    GuestReschedule: Type.Union([Type.Object({ HoursBefore: Type.Integer() }), Type.Null()], {
      description:
        'Whether guests may move their own booking to another time (the link in their e-mails), until HoursBefore hours before the start; null: they may not',
    }),
  }),
]);
export type StorefrontActivity = Static<typeof StorefrontActivity>;

export const Storefront = Type.Object(
  {
    Profile: StorefrontProfile,
    TestMode: Type.Boolean({
      description:
        'The shop takes no real payments: the test provider charges it (test cards such as 4242424242424242). Its booking pages say "test mode" on every page.',
    }),
    Activities: Type.Array(StorefrontActivity),
  },
  { $id: 'Storefront' },
);
export type Storefront = Static<typeof Storefront>;

export const CalendarQuery = Type.Object({
  Month: Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description: 'The month, YYYY-MM' }),
});

export const CalendarDay = Type.Object(
  {
    Date: LocalDate,
    Timeslots: Type.Integer({ description: 'Timeslots of the day that have not started' }),
    Available: Type.Integer({ description: 'Seats left over those timeslots' }),
    SoldOut: Type.Boolean({ description: 'The day has timeslots that have not started, none with a seat left (they take a waitlist)' }),
  },
  { $id: 'CalendarDay' },
);
export type CalendarDay = Static<typeof CalendarDay>;
