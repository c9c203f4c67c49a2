// The API types of webhook endpoints, their event types and the operator's webhook settings (their
// deliveries' are deliveries/schemas.ts).
import { Type, type Static } from '@sinclair/typebox';
import { EVENT_TYPES } from '../../events/types.js';
import { EmailAddress } from '../../http/schemas.js';

export const MAX_URL_LENGTH = 2048;
export const Instant = (description: string) => Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });
export const stringEnum = <T extends readonly string[]>(values: T, description: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], description });

const EventTypeName = Type.String({
  minLength: 1,
  maxLength: 64,
  description: `An event type (${EVENT_TYPES.join(', ')}), or * for every type but the opt-in usage.recorded`,
});
const EventTypes = Type.Array(EventTypeName, { minItems: 1, maxItems: EVENT_TYPES.length + 1, uniqueItems: true });

const endpointFields = {
  URL: Type.String({
    minLength: 1,
    maxLength: MAX_URL_LENGTH,
    description:
      'Where events are POSTed: https (http only to localhost, outside production), reaching a public address unless the instance allows a network. Checked again, address and all, at every delivery.',
  }),
  Description: Type.String({
    maxLength: 200,
    pattern: '^[^\\u0000-\\u001F\\u007F]*$',
    description: 'What the endpoint is for (no control characters)',
  }),
  EventTypes,
  Enabled: Type.Boolean({ description: 'false stops deliveries; true again resumes the pending ones (and clears an automatic disabling)' }),
};

export const CreateEndpointBody = Type.Object({
  URL: endpointFields.URL,
  Description: Type.Optional(endpointFields.Description),
  EventTypes: endpointFields.EventTypes,
  Partner: Type.Optional(
    Type.Union([Type.String({ maxLength: 63 }), Type.Null()], {
      description:
        "Admin only: a marketplace name, so the endpoint receives only that marketplace's bookings (and public catalogue and availability events)",
    }),
  ),
  Enabled: Type.Optional(endpointFields.Enabled),
});
export type CreateEndpointBody = Static<typeof CreateEndpointBody>;

export const UpdateEndpointBody = Type.Partial(
  Type.Object({
    URL: endpointFields.URL,
    Description: endpointFields.Description,
    EventTypes: endpointFields.EventTypes,
    Enabled: endpointFields.Enabled,
  }),
  { minProperties: 1 },
);
export type UpdateEndpointBody = Static<typeof UpdateEndpointBody>;

const endpointView = {
  ID: Type.Integer(),
  URL: Type.String(),
  Description: Type.String(),
  EventTypes: Type.Array(Type.String()),
  Partner: Type.Union([Type.String(), Type.Null()], {
    description: "The marketplace whose endpoint this is; null: the operator's own, receiving every event",
  }),
  Status: stringEnum(['enabled', 'disabled'] as const, 'enabled, or disabled (no deliveries)'),
  DisabledReason: Type.Union([
    stringEnum(['manual', 'failing'] as const, 'manual, or failing: disabled automatically after failing for days'),
    Type.Null(),
  ]),
  DisabledAt: Instant('When it was disabled'),
  FailingSince: Instant('The first failed attempt since the last success, while failing'),
  LastSuccessAt: Instant('The last delivery it accepted'),
  PreviousSecretExpiresAt: Instant('After a rotation: until when the previous secret still signs beside the new one'),
  CreatedAt: Type.String({ format: 'date-time' }),
  UpdatedAt: Type.String({ format: 'date-time' }),
};

export const WebhookEndpoint = Type.Object(endpointView, { $id: 'WebhookEndpoint' });
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

export const WebhookEndpointWithSecret = Type.Object(
  { ...endpointView, Secret: Type.String({ description: 'The signing secret (whsec_...). It is shown only in this response; store it now.' }) },
  { $id: 'WebhookEndpointWithSecret' },
);
export type WebhookEndpointWithSecret = Static<typeof WebhookEndpointWithSecret>;

export const EventTypeInfo = Type.Object(
  {
    Type: Type.String(),
    Description: Type.String(),
    OptIn: Type.Boolean({ description: 'Not included in *: name it to receive it' }),
    Marketplaces: Type.Boolean({ description: "Whether a marketplace's endpoint may receive it" }),
  },
  { $id: 'WebhookEventType' },
);

export const WebhookSettings = Type.Object(
  {
    ContactEmail: Type.Union([EmailAddress(), Type.Null()], {
      description: 'Where slotbook e-mails the operator about its webhooks (an endpoint disabled for failing); null: nowhere',
    }),
  },
  { $id: 'WebhookSettings' },
);
export type WebhookSettings = Static<typeof WebhookSettings>;
