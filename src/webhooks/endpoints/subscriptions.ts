// Which events a webhook endpoint can subscribe to, and who may receive each: the endpoint schemas
// (which types an endpoint may name), the fan-out (who gets what) and the OpenAPI document's `webhooks`
// section (webhooks/openapi.ts) all read these rules. The events themselves are events/types.ts.
import { EVENT_TYPES, type Audience, type EventType } from '../../events/types.js';

/** Sent by "test an endpoint" only; nobody subscribes to it. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** Types that "*" does not include: an endpoint receives them only when it names them. */
export const OPT_IN_TYPES: ReadonlySet<EventType> = new Set(['usage.recorded']);

/** The types a marketplace's endpoint may receive: its own bookings, and the public catalogue and availability. */
export const MARKETPLACE_TYPES: ReadonlySet<EventType> = new Set(
  EVENT_TYPES.filter((type) => type.startsWith('booking.') || type.startsWith('product.') || type === 'availability.changed'),
);

/** Whether an endpoint that subscribed to `subscribed` wants `type`. */
export function subscribes(subscribed: readonly string[], type: string): boolean {
  if (subscribed.includes(type)) return true;
  return subscribed.includes('*') && (EVENT_TYPES as readonly string[]).includes(type) && !OPT_IN_TYPES.has(type as EventType);
}

/**
 * Whether an endpoint of marketplace `endpointPartner` (null: the operator's own) may receive an event of
 * this audience: a marketplace gets public events and the events of its own bookings, nothing else.
 */
export function reaches(endpointPartner: string | null, event: { audience: Audience; partner: string | null }): boolean {
  if (endpointPartner === null) return true;
  if (event.audience === 'public') return true;
  return event.audience === 'partner' && event.partner === endpointPartner;
}
