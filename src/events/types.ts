// The platform's events: what can happen that something else reacts to. Domains write them into the
// outbox (outbox.ts) inside the transaction of the change; webhooks deliver them to subscribers, and the
// descriptions here are the ones the webhook catalogue and the OpenAPI document show.

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
  'payment.succeeded',
  'payment.refunded',
  'waitlist.offered',
  'usage.recorded',
  'guest.erased',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const EVENT_DESCRIPTIONS: Record<EventType, string> = {
  'booking.created':
    'A booking was placed by any channel (partner API, OCTo, online shop, point of sale, a waitlist offer): confirmed at once, or on hold.',
  'booking.confirmed': 'A booking became confirmed: placed confirmed, a hold confirmed, or a basket paid.',
  'booking.cancelled': 'A booking or hold was cancelled; its seats are free again.',
  'booking.expired': 'A hold lapsed without being confirmed; its seats are free again.',
  'booking.updated': "A live booking changed without changing status: the guest's details, the payment reference, a hold extended.",
  'availability.changed':
    "A timeslot's seats left, capacity or sold-out state changed (or it was created). Coalesced: at most one per timeslot every few seconds, showing the timeslot as it is when sent.",
  'product.created': 'An activity was created.',
  'product.updated': 'An activity changed (name, price, limits...), or was taken out of the archive.',
  'product.archived': 'An activity was archived: it is no longer sold.',
  'order.completed': 'An online-shop basket was paid: its bookings are confirmed.',
  'payment.succeeded':
    "A payment took money: a shop basket's online payment (Stripe, or the test provider), and any later payment of a booking. Sent once per payment, when it succeeds; never for a declined, expired or pending one.",
  'payment.refunded':
    "A refund of a booking succeeded (by staff or a guest's cancellation): sent once the provider confirmed it, never while it is pending or when it failed.",
  'waitlist.offered': 'Freed seats were offered to a waitlisted customer and are held for them.',
  'guest.erased':
    "A guest's personal data was erased (on request, or by GUEST_RETENTION_DAYS): the bookings named lost their guest details; erase the guest in your own systems too. The address is not in the event.",
  'usage.recorded': 'Usage entries were recorded (opt-in: "*" does not include it). Batched: one event per write, with up to 1,000 entries.',
};

/** Who receives an event beside the operator's own endpoints (which receive everything they subscribe to). */
export type Audience = 'public' | 'partner' | 'operator';
