// The OpenAPI 3.1 `webhooks` section: one entry per event type, with the body slotbook POSTs (the event
// envelope around the resource as the API shows it) and the Standard Webhooks headers. @fastify/swagger
// passes the section through as given (app.ts), so the payload schemas are inlined here, from the same
// TypeBox schemas the API answers with.
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { Booking } from '../bookings/schemas.js';
import { AdminTimeslot } from '../availability/schemas.js';
import { AdminProduct } from '../catalog/schemas.js';
import { Basket } from '../shop/schemas.js';
import { PaymentRefundedEvent, PaymentSucceededEvent } from '../payments/schemas.js';
import { WaitlistEntry } from '../waitlists/schemas.js';
import { StoredUsageEntry } from '../usage/schemas.js';
import { GuestErasure } from '../guests/schemas.js';
import { EVENT_DESCRIPTIONS, EVENT_TYPES, type EventType } from '../events/types.js';
import { MARKETPLACE_TYPES, OPT_IN_TYPES, TEST_EVENT_TYPE } from './endpoints/subscriptions.js';

/** A paid basket as order.completed carries it: the shop's Basket without its token, with its ID. */
export const Order = Type.Composite([
  Type.Object({ BasketID: Type.Integer({ description: 'As in the order-completed usage entry' }) }),
  Type.Omit(Basket, ['BasketToken']),
]);

const UsageRecorded = Type.Object({
  Entries: Type.Array(StoredUsageEntry, { maxItems: 1000, description: 'The entries recorded by one write, in order' }),
});
const TestData = Type.Object({ EndpointID: Type.Integer(), Message: Type.String() });

const PAYLOADS: Record<EventType, TSchema> = {
  'booking.created': Booking,
  'booking.confirmed': Booking,
  'booking.cancelled': Booking,
  'booking.expired': Booking,
  'booking.updated': Booking,
  'availability.changed': AdminTimeslot,
  'product.created': AdminProduct,
  'product.updated': AdminProduct,
  'product.archived': AdminProduct,
  'order.completed': Order,
  'payment.succeeded': PaymentSucceededEvent,
  'payment.refunded': PaymentRefundedEvent,
  'waitlist.offered': WaitlistEntry,
  'usage.recorded': UsageRecorded,
  'guest.erased': GuestErasure,
};

/** The schema without $id (and plain JSON): the components keep theirs, and an $id may appear once. */
function inline(schema: TSchema): unknown {
  return JSON.parse(JSON.stringify(schema), (key, value) => (key === '$id' ? undefined : value));
}

const HEADERS = [
  {
    name: 'webhook-id',
    description: 'The event ID: the same on every attempt and replay, so a receiver can drop repeats',
    example: 'evt_3nVq7Zk1cB2mQx9L',
  },
  {
    name: 'webhook-timestamp',
    description: 'Unix seconds of this attempt; reject a request more than 5 minutes off your clock',
    example: '1767225600',
  },
  {
    name: 'webhook-signature',
    description:
      'Space-separated v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}" under the endpoint secret (base64 after whsec_)>; two while a rotated-out secret still signs',
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
].map(({ name, description, example }) => ({ name, in: 'header', required: true, description, schema: { type: 'string' }, example }));

function webhook(type: string, data: TSchema, description: string) {
  const body = Type.Object({
    id: Type.String({ description: 'The event ID (also webhook-id)' }),
    type: Type.Literal(type),
    timestamp: Type.String({ format: 'date-time', description: 'When the event happened' }),
    data,
  });
  return {
    post: {
      tags: ['Webhooks'],
      summary: type,
      description:
        `${description} Sent to every enabled endpoint that subscribes to it, signed per Standard Webhooks; answer 2xx within 5 seconds. ` +
        'Anything else (a redirect too) is retried with exponential back-off for about three days, in order per endpoint and resource.',
      parameters: HEADERS,
      requestBody: { required: true, content: { 'application/json': { schema: inline(body) } } },
      responses: { '2XX': { description: 'Received. The body of the answer is recorded (its first 4 KiB) and otherwise ignored.' } },
    },
  };
}

/** The shape @fastify/swagger takes for OpenAPI 3.1's `webhooks`. */
type Webhooks = NonNullable<Extract<NonNullable<FastifyDynamicSwaggerOptions['openapi']>, { webhooks?: unknown }>['webhooks']>;

export function webhooksDocument(): Webhooks {
  const document: Record<string, unknown> = {};
  for (const type of EVENT_TYPES) {
    const notes = [
      OPT_IN_TYPES.has(type) ? 'Opt-in: * does not include it.' : '',
      MARKETPLACE_TYPES.has(type) ? '' : 'Operator endpoints only (not marketplaces).',
    ]
      .filter(Boolean)
      .join(' ');
    document[type] = webhook(type, PAYLOADS[type], `${EVENT_DESCRIPTIONS[type]} ${notes}`.trim());
  }
  document[TEST_EVENT_TYPE] = webhook(TEST_EVENT_TYPE, TestData, 'Sent by "Send a test event" only.');
  // The schemas are plain JSON Schema (OpenAPI 3.1 takes 2020-12 as it is).
  return document as Webhooks;
}
