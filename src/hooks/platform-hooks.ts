// The platform's hooks (hooks.ts) that run inside the transaction of their change, so that what their
// reactions write (a workflow's e-mails, ...) commits exactly when the change does: a booking's change, a
// paid basket, a new operator. The composition (src/reactions.ts) subscribes the reactions, once per
// process, for the server, the command line and the tests alike.
import { expressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { Tx } from '../db/connection.js';
import { Hook, Reactions } from './registry.js';
import type { UnixMillis, UnixSeconds } from '../lib/clock.js';

/** `rescheduled`: a confirmed booking moved to another timeslot. */
export type BookingChange = 'confirmed' | 'cancelled' | 'rescheduled';

export interface ChangedBooking {
  id: number;
  operator_id: number;
}

export interface BookingReaction {
  /** Runs inside the transaction of the change; it may read the booking as the change left it. */
  react(tx: Tx, booking: ChangedBooking, change: BookingChange, now: UnixSeconds): Promise<void>;
  /**
   * Whether the reaction can have anything to do for the operator's new bookings, as a condition (built
   * with Kysely's standalone `expressionBuilder`) that the booking's first query folds in
   * (bookings/store.ts, findBookingTarget): a new booking of an operator that no reaction cares about then
   * costs nothing more. Absent: the reaction never acts on a new booking (only on later changes).
   */
  interested?(operatorId: number): Expression<SqlBool>;
}

/** A booking was confirmed, cancelled or rescheduled (the lifecycle runs it). */
export const bookingChanged = new Reactions<BookingReaction>();

/** Runs every reaction to the booking's change, in the order they were subscribed. */
export async function publishBookingChange(tx: Tx, booking: ChangedBooking, change: BookingChange, now: UnixSeconds): Promise<void> {
  for (const reaction of bookingChanged.all) await reaction.react(tx, booking, change, now);
}

/** Whether any reaction cares about the operator's new bookings (see BookingReaction.interested). */
export function anyReactionInterested(operatorId: number): Expression<SqlBool> {
  // Kysely's `or`: one condition as it is, several in parentheses, none a literal `1 = 0` (false on both dialects).
  return expressionBuilder().or(bookingChanged.all.flatMap((reaction) => reaction.interested?.(operatorId) ?? []));
}

/** A shop basket that was just paid (its bookings confirmed in the same transaction). */
export interface PaidBasket {
  id: number;
  operator_id: number;
}

/** A basket was paid, inside the checkout's transaction (its bookings confirmed in it). */
export const basketPaid = new Hook<[tx: Tx, basket: PaidBasket]>();

/**
 * A new operator (the command line, the demo, the tests' operators), inside the transaction that creates
 * it: what every operator starts with besides its row and first key (the starter workflows,
 * workflows/starter.ts) is added here, so the operators domain never imports the domains that add it.
 */
export const operatorCreated = new Hook<[tx: Tx, operatorId: number]>();

/** An activity (a product) changed: its details, its price or its ticket types (recordProductEvent runs it). */
export const productChanged = new Hook<[tx: Tx, product: { id: number; operator_id: number }, nowMs: UnixMillis]>();
