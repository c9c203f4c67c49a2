// The API types of webhook endpoints, their deliveries and the operator's webhook settings.
import { Type, type Static } from '@sinclair/typebox';
import { RowId } from '../../http/schemas.js';
import { MAX_LIST_LIMIT } from '../../bookings/schemas.js';
import { EVENT_TYPES } from '../../events/types.js';

export const MAX_URL_LENGTH = 2048;
const Instant = (description: string) => Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });
const stringEnum = <T extends readonly string[]>(values: T, description: string) =>
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

export const DELIVERY_STATUSES = ['pending', 'sending', 'delivered', 'failed'] as const;

const deliveryView = {
  ID: Type.Integer(),
  EndpointID: Type.Integer(),
  EventID: Type.String({ description: "The event's ID, sent as webhook-id (the same on every attempt and replay)" }),
  EventType: Type.String(),
  Status: stringEnum(
    DELIVERY_STATUSES,
    'pending (due at NextAttemptAt), sending, delivered (2xx), failed (gave up after about three days, or a test)',
  ),
  Attempts: Type.Integer(),
  NextAttemptAt: Instant('When the next attempt is due, while pending'),
  LastAttemptAt: Instant('When it was last attempted'),
  LastStatusCode: Type.Union([Type.Integer(), Type.Null()], { description: 'The HTTP status of the last answer; null when none came' }),
  LastDurationMs: Type.Union([Type.Integer(), Type.Null()]),
  LastError: Type.Union([Type.String(), Type.Null()]),
  ReplayOf: Type.Union([Type.Integer(), Type.Null()], { description: 'The delivery this one replays' }),
  Test: Type.Boolean({ description: 'A test event sent from the dashboard or the API' }),
  CreatedAt: Type.String({ format: 'date-time' }),
  DeliveredAt: Instant('When the endpoint accepted it'),
};

export const WebhookDelivery = Type.Object(deliveryView, { $id: 'WebhookDelivery' });
export type WebhookDelivery = Static<typeof WebhookDelivery>;

const DeliveryAttempt = Type.Object({
  AttemptedAt: Type.String({ format: 'date-time' }),
  StatusCode: Type.Union([Type.Integer(), Type.Null()]),
  DurationMs: Type.Integer(),
  Error: Type.Union([Type.String(), Type.Null()]),
  ResponseBody: Type.Union([Type.String(), Type.Null()], { description: 'The start of the answer (at most 4 KiB)' }),
});

export const WebhookDeliveryDetail = Type.Object(
  {
    ...deliveryView,
    Event: Type.Unknown({ description: 'The body sent: {id, type, timestamp, data}, data being the resource as the API shows it' }),
    AttemptLog: Type.Array(DeliveryAttempt, { description: 'Every attempt, oldest first' }),
  },
  { $id: 'WebhookDeliveryDetail' },
);
export type WebhookDeliveryDetail = Static<typeof WebhookDeliveryDetail>;

export const EndpointIdParams = Type.Object({ ID: RowId('The webhook endpoint ID') });
export const DeliveryParams = Type.Composite([EndpointIdParams, Type.Object({ DeliveryID: RowId('The delivery ID') })]);

export const DeliveryListQuery = Type.Object({
  Status: Type.Optional(stringEnum(DELIVERY_STATUSES, 'Only deliveries in this status')),
  EventType: Type.Optional(Type.String({ maxLength: 64, description: 'Only deliveries of this event type' })),
  // Optional for the client (the OpenAPI document says so); validation fills in the default.
  Limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIST_LIMIT, default: 50 })),
  Offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
});
/** The query as the handler gets it, the defaults filled in. */
export type DeliveryListQuery = Static<typeof DeliveryListQuery> & { Limit: number; Offset: number };

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
    ContactEmail: Type.Union([Type.String({ format: 'email', maxLength: 254 }), Type.Null()], {
      description: 'Where slotbook e-mails the operator about its webhooks (an endpoint disabled for failing); null: nowhere',
    }),
  },
  { $id: 'WebhookSettings' },
);
export type WebhookSettings = Static<typeof WebhookSettings>;
