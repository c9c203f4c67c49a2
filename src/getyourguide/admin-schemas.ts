// The operator's side of the GetYourGuide connection (/api/v2/admin/getyourguide), in the operator API's
// own conventions (PascalCase, problem+json).
import { Type, type Static } from '@sinclair/typebox';
import { GYG_CATEGORIES, TICKET_STYLES } from './schemas.js';
import { NOT_OFFERED } from './offer.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const GYG_PRODUCT_ID_PATTERN = '^[A-Za-z0-9_.:-]{1,100}$';
const SUPPLIER_ID = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[A-Za-z0-9_.:-]+$',
  description: "The operator's supplier ID at GetYourGuide",
});

export const GygRequestEntry = Type.Object({
  Endpoint: Type.String({ description: 'e.g. reserve, book, get-availabilities' }),
  ProductID: Type.Union([Type.String(), Type.Null()]),
  ErrorCode: Type.Union([Type.String(), Type.Null()], { description: 'null when the answer was a success' }),
  DurationMs: Type.Integer(),
  At: Type.String({ format: 'date-time' }),
});

export const GygNotificationEntry = Type.Object({
  Type: Type.String({ description: 'PRODUCT_DEACTIVATION, ...' }),
  ProductID: Type.Union([Type.String(), Type.Null()]),
  Description: Type.String(),
  Details: Type.Record(Type.String(), Type.Unknown(), { description: "GYG's details of the notification, as sent" }),
  ReceivedAt: Type.String({ format: 'date-time' }),
});

export const GygConnection = Type.Object({
  Configured: Type.Boolean({ description: 'Whether the connection has been set up (credentials exist)' }),
  Enabled: Type.Boolean({ description: 'Whether GetYourGuide may call; a switched-off connection answers AUTHORIZATION_FAILURE' }),
  EndpointURL: Type.String({ description: 'The base URL to give GetYourGuide (its supplier endpoints are below it)' }),
  Username: Type.Union([Type.String(), Type.Null()], { description: 'The inbound HTTP Basic user name GetYourGuide calls with' }),
  Password: Type.Optional(Type.String({ description: 'The inbound password: only in the answer that made it, never again' })),
  SupplierID: Type.Union([Type.String(), Type.Null()]),
  HoldMinutes: Type.Union([Type.Integer(), Type.Null()], { description: "This connection's hold length; null: the instance's GYG_HOLD_MINUTES" }),
  EffectiveHoldMinutes: Type.Integer({ description: 'How long a reservation holds its seats' }),
  TicketStyle: Type.Union([Type.Literal('INDIVIDUAL'), Type.Literal('COLLECTIVE')], {
    description: 'INDIVIDUAL: one ticket per person (or group); COLLECTIVE: one ticket for the booking',
  }),
  OutboundUsername: Type.Union([Type.String(), Type.Null()], { description: 'The user name GetYourGuide issued for its API (pushes)' }),
  OutboundPasswordSet: Type.Boolean({ description: "Whether GetYourGuide's password is stored (sealed; never shown)" }),
  PushesAvailability: Type.Boolean({
    description:
      "Whether availability changes are pushed to GetYourGuide (notify-availability-update): only while the connection is switched on and GetYourGuide's credentials for its API are stored. Off, GetYourGuide learns of changes when it asks.",
  }),
  Notifications: Type.Array(GygNotificationEntry, { description: "GetYourGuide's latest notifications, newest first" }),
  Requests: Type.Array(GygRequestEntry, { description: 'The latest requests GetYourGuide made, newest first (no personal data)' }),
});
export type GygConnection = Static<typeof GygConnection>;

export const UpdateConnectionBody = Type.Object(
  {
    Enabled: Type.Optional(Type.Boolean()),
    SupplierID: Type.Optional(Nullable(SUPPLIER_ID)),
    HoldMinutes: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 24 * 60 }), Type.Null()])),
    TicketStyle: Type.Optional(Type.Union(TICKET_STYLES.map((style) => Type.Literal(style)))),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateConnectionBody = Static<typeof UpdateConnectionBody>;

export const OutboundBody = Type.Object(
  {
    Username: Type.String({ minLength: 1, maxLength: 200, pattern: '^[^:\\x00-\\x1f\\x7f]+$', description: 'No colon, no control characters' }),
    Password: Type.String({ minLength: 1, maxLength: 500, pattern: '^[^\\x00-\\x1f\\x7f]+$' }),
  },
  { additionalProperties: false },
);
export type OutboundBody = Static<typeof OutboundBody>;

const CategoryChoice = Type.Union(
  [...GYG_CATEGORIES, NOT_OFFERED].map((value) => Type.Literal(value)),
  { description: `One of GetYourGuide's categories, or ${NOT_OFFERED} to keep the ticket type off GetYourGuide` },
);

export const GygTicketTypeMapping = Type.Object({
  Type: Type.String({ description: "The ticket type's code" }),
  Name: Type.String(),
  Category: Type.Union([Type.String(), Type.Null()], { description: 'The GetYourGuide category it sells as; null: none' }),
  Chosen: Type.Boolean({ description: "Whether the category is the operator's choice (else the ticket type's own category implies it)" }),
  Offered: Type.Boolean(),
  Reason: Type.Union([Type.String(), Type.Null()], { description: 'Why it is not offered; null when it is' }),
});

export const GygProductMapping = Type.Object({
  ActivityID: Type.String(),
  Name: Type.String(),
  ProductID: Type.Union([Type.String(), Type.Null()], { description: 'The GetYourGuide product ID it is offered under; null: not offered' }),
  TicketTypes: Type.Array(GygTicketTypeMapping),
});
export type GygProductMapping = Static<typeof GygProductMapping>;

export const ActivityParams = Type.Object({ ActivityID: Type.String({ pattern: '^s_[A-Za-z0-9]{8,32}$' }) });

export const ProductMappingBody = Type.Object(
  {
    ProductID: Type.Optional(
      Type.Union([Type.String({ pattern: GYG_PRODUCT_ID_PATTERN, description: 'Letters, digits, _ . : - (never %)' }), Type.Null()]),
    ),
    Categories: Type.Optional(
      Type.Array(
        Type.Object(
          {
            Type: Type.String({ minLength: 1, maxLength: 40 }),
            Category: Type.Union([CategoryChoice, Type.Null()], { description: 'null: back to the default' }),
          },
          { additionalProperties: false },
        ),
        { maxItems: 20 },
      ),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type ProductMappingBody = Static<typeof ProductMappingBody>;
