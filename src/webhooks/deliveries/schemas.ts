// The API types of an endpoint's deliveries: listed, inspected with their attempts.
import { Type, type Static } from '@sinclair/typebox';
import { MAX_LIST_LIMIT } from '../../http/schemas.js';
import { Instant, stringEnum } from '../endpoints/schemas.js';

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

export const DeliveryListQuery = Type.Object({
  Status: Type.Optional(stringEnum(DELIVERY_STATUSES, 'Only deliveries in this status')),
  EventType: Type.Optional(Type.String({ maxLength: 64, description: 'Only deliveries of this event type' })),
  // Optional for the client (the OpenAPI document says so); validation fills in the default.
  Limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIST_LIMIT, default: 50 })),
  Offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
});
/** The query as the handler gets it, the defaults filled in. */
export type DeliveryListQuery = Static<typeof DeliveryListQuery> & { Limit: number; Offset: number };
