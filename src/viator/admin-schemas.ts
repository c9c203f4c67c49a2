// The operator's side of the Viator connection (/api/v2/admin/viator), in the operator API's own
// conventions (PascalCase, problem+json).
import { Type, type Static } from '@sinclair/typebox';
import { TICKET_TYPES } from './schemas.js';
import { NOT_OFFERED } from './age-bands.js';

/** Viator's SupplierProductCode: at most 50 characters and never "|" (Viator's rule); slotbook keeps to a safe set. */
export const OPTION_ID_PATTERN = '^[A-Za-z0-9_.:-]{1,50}$';

export const ViatorRequestEntry = Type.Object({
  Endpoint: Type.String({ description: 'e.g. calendar, availability-check, reserve, booking' }),
  ProductOptionID: Type.Union([Type.String(), Type.Null()]),
  Outcome: Type.Union([Type.String(), Type.Null()], {
    description: "null when answered as asked; else Viator's error code (INVALID_SUPPLIER, TGDS0026, ...), reason (SOLD_OUT) or rejection",
  }),
  DurationMs: Type.Integer(),
  At: Type.String({ format: 'date-time' }),
});

export const ViatorConnection = Type.Object({
  Configured: Type.Boolean({ description: 'Whether the connection has been set up (a key exists)' }),
  Enabled: Type.Boolean({ description: 'Whether Viator may call; a switched-off connection answers API_DISABLED (v1: TGDS0016)' }),
  EndpointURL: Type.String({ description: 'The base URL to give Viator (its endpoints are below it: /v2/availability/calendar, /booking, ...)' }),
  KeyHint: Type.Union([Type.String(), Type.Null()], { description: 'The first characters of the key Viator sends, to recognise it' }),
  Key: Type.Optional(Type.String({ description: 'The key Viator sends in X-Api-Key: only in the answer that made it, never again' })),
  SupplierID: Type.Union([Type.String(), Type.Null()], { description: "Viator's supplier ID of the operator (digits)" }),
  HoldMinutes: Type.Integer({ description: 'How long a reservation holds its seats and price (VIATOR_HOLD_MINUTES; Viator asks for 15 at least)' }),
  OutboundKeySet: Type.Boolean({ description: "Whether Viator's key for its notification endpoint is stored (sealed; never shown)" }),
  NotificationsURL: Type.String({ description: 'Where availability, capacity and price changes are posted (VIATOR_API_URL)' }),
  Requests: Type.Array(ViatorRequestEntry, { description: 'The latest requests Viator made, newest first (no personal data)' }),
});
export type ViatorConnection = Static<typeof ViatorConnection>;

export const UpdateConnectionBody = Type.Object(
  {
    Enabled: Type.Optional(Type.Boolean()),
    SupplierID: Type.Optional(Type.Union([Type.String({ pattern: '^[0-9]{1,18}$', description: "Viator's supplier ID (digits)" }), Type.Null()])),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateConnectionBody = Static<typeof UpdateConnectionBody>;

export const OutboundBody = Type.Object(
  { Key: Type.String({ minLength: 1, maxLength: 500, pattern: '^[\\x21-\\x7e]+$', description: 'Printable characters, no spaces' }) },
  { additionalProperties: false },
);
export type OutboundBody = Static<typeof OutboundBody>;

const BandChoice = Type.Union(
  [...TICKET_TYPES, NOT_OFFERED].map((value) => Type.Literal(value)),
  { description: `One of Viator's ticket types (age bands or UNIT), or ${NOT_OFFERED} to keep the ticket type off Viator` },
);

export const ViatorTicketTypeMapping = Type.Object({
  Type: Type.String({ description: "The ticket type's code" }),
  Name: Type.String(),
  Band: Type.Union([Type.String(), Type.Null()], { description: 'The Viator age band (or UNIT) it sells as; null: none' }),
  Chosen: Type.Boolean({ description: "Whether the band is the operator's choice (else the ticket type's own category implies it)" }),
  Offered: Type.Boolean(),
  Reason: Type.Union([Type.String(), Type.Null()], { description: 'Why it is not offered; null when it is' }),
});

export const ViatorProductMapping = Type.Object({
  ActivityID: Type.String(),
  Name: Type.String(),
  ProductOptionID: Type.Union([Type.String(), Type.Null()], {
    description: 'The productOptionId (and SupplierProductCode) Viator books it by; null: not offered',
  }),
  Notifying: Type.Boolean({
    description: "Whether its changes are posted to Viator (from Viator's first calendar request on, until Viator refuses the option)",
  }),
  TicketTypes: Type.Array(ViatorTicketTypeMapping),
});
export type ViatorProductMapping = Static<typeof ViatorProductMapping>;

export const ActivityParams = Type.Object({ ActivityID: Type.String({ pattern: '^s_[A-Za-z0-9]{8,32}$' }) });

export const ProductMappingBody = Type.Object(
  {
    ProductOptionID: Type.Optional(
      Type.Union([
        Type.String({ pattern: OPTION_ID_PATTERN, description: 'Letters, digits, _ . : - ; at most 50 (Viator never takes "|")' }),
        Type.Null(),
      ]),
    ),
    Bands: Type.Optional(
      Type.Array(
        Type.Object(
          {
            Type: Type.String({ minLength: 1, maxLength: 40 }),
            Band: Type.Union([BandChoice, Type.Null()], { description: 'null: back to the default' }),
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
