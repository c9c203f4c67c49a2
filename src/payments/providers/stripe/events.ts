// What Stripe's events do. The payments domain receives and verifies them (routes.ts) and records each
// event id once; what an event means for a basket or a booking is another domain's, which it cannot import
// (the shop imports payments). So handlers are registered here by event type, wired by the composition
// (src/reactions.ts), and run inside the transaction that records the event: the event counts as received
// exactly when its effect commits. A handler may answer a follow-up that calls Stripe after the commit
// (a refund): no network call is ever made inside a transaction.
import type Stripe from 'stripe';
import type { Db, Tx } from '../../../db/connection.js';
import type { StripeEvent } from './gateway.js';
import type { UnixSeconds } from '../../../lib/clock.js';

export interface StripeEventContext {
  operatorId: number;
  event: StripeEvent;
  /** Unix seconds. */
  now: UnixSeconds;
  /** For follow-ups: their own transactions, after the event's commit. */
  db: Db;
  /** The operator's Stripe client (its key opened from the seal), for follow-ups. */
  client: () => Stripe;
  /** Notes why an event changed nothing; logged with the event's id and type, never a guest's details. */
  ignore: (reason: string) => void;
}

/** Work to do after the commit, such as a refund. If it throws, Stripe's next delivery of the event runs the handler again. */
export type FollowUp = () => Promise<void>;

export type StripeEventHandler = (tx: Tx, context: StripeEventContext) => Promise<FollowUp | undefined>;

const handlers = new Map<string, StripeEventHandler>();

/** Subscribes `handler` to Stripe's events of `types` (subscribing a type again replaces its handler). */
export function handleStripeEvents(types: readonly string[], handler: StripeEventHandler): void {
  for (const type of types) handlers.set(type, handler);
}

export function stripeEventHandler(type: string): StripeEventHandler | undefined {
  return handlers.get(type);
}
