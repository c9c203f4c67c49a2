// The event types a webhook endpoint can subscribe to, and who may receive each. One list drives the
// endpoint schemas (which types an endpoint may name), the fan-out (who gets what) and the OpenAPI
// document's `webhooks` section (webhooks/openapi.ts).

export const EVENT_TYPES = [
  'booking.created',
  'booking.confirmed',
  'booking.cancelled',
  'booking.expired',
  'booking.updated',
  'availability.changed',
  'product.created',
  'product.updated',
  'product.archived',
  'order.completed',
  'waitlist.offered',
  'usage.recorded',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Sent by "test an endpoint" only; nobody subscribes to it. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** Types that "*" does not include: an endpoint receives them only when it names them. */
export const OPT_IN_TYPES: ReadonlySet<EventType> = new Set(['usage.recorded']);

/** The types a marketplace's endpoint may receive: its own bookings, and the public catalogue and availability. */
export const MARKETPLACE_TYPES: ReadonlySet<EventType> = new Set(
  EVENT_TYPES.filter((type) => type.startsWith('booking.') || type.startsWith('product.') || type === 'availability.changed'),
);

export const EVENT_DESCRIPTIONS: Record<EventType, string> = {
  'booking.created': 'A booking was placed by any channel (partner API, OCTo, online shop, point of sale, a waitlist offer): confirmed at once, or on hold.',
  'booking.confirmed': 'A booking became confirmed: placed confirmed, a hold confirmed, or a basket paid.',
  'booking.cancelled': 'A booking or hold was cancelled; its seats are free again.',
  'booking.expired': 'A hold lapsed without being confirmed; its seats are free again.',
  'booking.updated': 'A live booking changed without changing status: the guest\'s details, the payment reference, a hold extended.',
  'availability.changed':
    'A timeslot\'s seats left, capacity or sold-out state changed (or it was created). Coalesced: at most one per timeslot every few seconds, showing the timeslot as it is when sent.',
  'product.created': 'An activity was created.',
  'product.updated': 'An activity changed (name, price, limits...), or was taken out of the archive.',
  'product.archived': 'An activity was archived: it is no longer sold.',
  'order.completed': 'An online-shop basket was paid: its bookings are confirmed.',
  'waitlist.offered': 'Freed seats were offered to a waitlisted customer and are held for them.',
  'usage.recorded': 'Usage entries were recorded (opt-in: "*" does not include it). Batched: one event per write, with up to 1,000 entries.',
};

/** Who receives an event beside the operator's own endpoints (which receive everything they subscribe to). */
export type Audience = 'public' | 'partner' | 'operator';

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
