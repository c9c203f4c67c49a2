import { Type, type Static } from '@sinclair/typebox';

export const Product = Type.Object(
  {
    ID: Type.Integer({ description: 'Numeric product ID, as used by resolve-product' }),
    ActivityID: Type.String({ description: 'Activity identifier used by availability, questions and bookings', examples: ['s_h8Kd2LwQ9xTz4mPa'] }),
    Name: Type.String(),
    Description: Type.String(),
    DurationMinutes: Type.Integer(),
    Timezone: Type.String({ description: 'IANA time zone in which Date and Time are given' }),
    Currency: Type.String({ description: 'ISO 4217 code' }),
    UnitPrice: Type.Integer({ description: 'Price per participant in minor units of Currency' }),
    MaxParticipantsPerBooking: Type.Integer(),
    UpdatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Product' },
);
export type Product = Static<typeof Product>;

export const AdminProduct = Type.Composite([Product, Type.Object({ Archived: Type.Boolean() })], { $id: 'AdminProduct' });
export type AdminProduct = Static<typeof AdminProduct>;

export const ListProductsQuery = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 255, description: 'Case-insensitive partial match on the product name' })),
});

export const ResolveProductQuery = Type.Object({
  ID: Type.Optional(Type.String({ description: 'Numeric product ID (a positive integer)' })),
  Name: Type.Optional(Type.String({ description: 'Exact product name, case-insensitive' })),
});

const activityFields = {
  Name: Type.String({ minLength: 1, maxLength: 200 }),
  Description: Type.String({ maxLength: 10_000 }),
  DurationMinutes: Type.Integer({ minimum: 1, maximum: 10_080 }),
  Timezone: Type.String({ description: 'IANA time zone, e.g. Europe/Berlin' }),
  Currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 currency code' }),
  UnitPrice: Type.Integer({ minimum: 0, maximum: 100_000_000 }),
  MaxParticipantsPerBooking: Type.Integer({ minimum: 1, maximum: 1000 }),
};

export const CreateActivityBody = Type.Object({
  Name: activityFields.Name,
  Description: Type.Optional(activityFields.Description),
  DurationMinutes: activityFields.DurationMinutes,
  Timezone: activityFields.Timezone,
  Currency: activityFields.Currency,
  UnitPrice: activityFields.UnitPrice,
  MaxParticipantsPerBooking: Type.Optional(activityFields.MaxParticipantsPerBooking),
});
export type CreateActivityBody = Static<typeof CreateActivityBody>;

export const UpdateActivityBody = Type.Partial(
  Type.Object({ ...activityFields, Archived: Type.Boolean({ description: 'true hides the activity from partners' }) }),
  { minProperties: 1 },
);
export type UpdateActivityBody = Static<typeof UpdateActivityBody>;
