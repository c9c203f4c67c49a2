// The OCTo schemas every part of /octo shares (TypeBox): OCTo's error body, the supplier and its
// capabilities, the Octo-Capabilities header, and the pieces of free text and uuids requests are made of.
// Products and availability have theirs in catalog/schemas.ts, bookings in bookings/schemas.ts; all are
// modelled on the components of the OCTo OpenAPI document (../shared/spec/octo/openapi.yaml), serialize
// the replies (a field missing here would be dropped from the reply) and feed /openapi.json under the tag
// "OCTo"; test/octo checks every reply against the OCTo document itself.
import { Type, type Static, type TSchema } from '@sinclair/typebox';

export const Nullable = <T extends TSchema>(schema: T, description?: string) => Type.Union([schema, Type.Null()], description ? { description } : {});

// Free text from a reseller: no control characters (PostgreSQL refuses NUL; none has a use here).
export const Text = (maxLength: number, description?: string) =>
  Type.String({ maxLength, pattern: '^[^\\u0000-\\u001F\\u007F]*$', ...(description && { description }) });
export const Notes = (description: string) => Type.String({ maxLength: 2000, pattern: '^[^\\u0000]*$', description });

export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
export const Uuid = (description: string) => Type.String({ pattern: UUID_PATTERN, description });

export const CapabilityHeaders = Type.Object({
  'octo-capabilities': Type.Optional(
    Type.String({
      maxLength: 1000,
      description:
        'Comma-separated capability IDs; slotbook supports octo/pricing, octo/questions and octo/content. The reply names those it applied.',
    }),
  ),
});

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
