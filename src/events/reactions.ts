// Reactions to a booking's change that run inside the change's own transaction, so that what they write
// (a workflow's e-mails, ...) commits exactly when the change does. The domain that changes a booking
// publishes here and never imports who reacts; the composition (src/reactions.ts) subscribes the
// reactions, once per process, for the server, the command line and the tests alike.
import { expressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { Tx } from '../db/connection.js';

/** `rescheduled`: a confirmed booking moved to another timeslot. */
export type BookingChange = 'confirmed' | 'cancelled' | 'rescheduled';

export interface ChangedBooking {
  id: number;
  operator_id: number;
}

export interface BookingReaction {
  /** Runs inside the transaction of the change; it may read the booking as the change left it. */
  react(tx: Tx, booking: ChangedBooking, change: BookingChange, now: number): Promise<void>;
  /**
   * Whether the reaction can have anything to do for the operator's new bookings, as a condition (built
   * with Kysely's standalone `expressionBuilder`) that the booking's first query folds in
   * (bookings/store.ts, findBookingTarget): a new booking of an operator that no reaction cares about then
   * costs nothing more. Absent: the reaction never acts on a new booking (only on later changes).
   */
  interested?(operatorId: number): Expression<SqlBool>;
}

const reactions = new Map<string, BookingReaction>();

/** Subscribes a reaction under its name (subscribing the same name again replaces it). */
export function reactToBookings(name: string, reaction: BookingReaction): void {
  reactions.set(name, reaction);
}

/** Runs every reaction to the booking's change, in the order they were subscribed. */
export async function publishBookingChange(tx: Tx, booking: ChangedBooking, change: BookingChange, now: number): Promise<void> {
  for (const reaction of reactions.values()) await reaction.react(tx, booking, change, now);
}

/** Whether any reaction cares about the operator's new bookings (see BookingReaction.interested). */
export function anyReactionInterested(operatorId: number): Expression<SqlBool> {
  // Kysely's `or`: one condition as it is, several in parentheses, none a literal `1 = 0` (false on both dialects).
  return expressionBuilder().or([...reactions.values()].flatMap((reaction) => reaction.interested?.(operatorId) ?? []));
}

/** A shop basket that was just paid (its bookings confirmed in the same transaction). */
export interface PaidBasket {
  id: number;
  operator_id: number;
}

export type BasketReaction = (tx: Tx, basket: PaidBasket) => Promise<void>;

const basketReactions = new Map<string, BasketReaction>();

/** Subscribes a reaction to paid baskets under its name (subscribing the same name again replaces it). */
export function reactToPaidBaskets(name: string, reaction: BasketReaction): void {
  basketReactions.set(name, reaction);
}

/** Runs every reaction to the basket's payment, inside the checkout's transaction. */
export async function publishBasketPaid(tx: Tx, basket: PaidBasket): Promise<void> {
  for (const reaction of basketReactions.values()) await reaction(tx, basket);
}

/** What a cancelled departure tells its guests: the operator's words, and where to book again. */
export interface CancelledDeparture {
  /** The operator's message to the guests (plain text). */
  message: string;
  /** The activity's public ID, for the link to book another time. */
  activityId: string;
  /** PUBLIC_URL, for that link. */
  publicUrl: string;
}

/**
 * The operator cancelled a departure (a timeslot) and with it this booking (bookings/departures.ts). Runs
 * inside the cancellation's transaction, after the booking reactions: the shop refunds what was paid
 * online in full, the guest is e-mailed the message.
 */
export type DepartureCancellationReaction = (tx: Tx, booking: ChangedBooking, departure: CancelledDeparture, now: number) => Promise<void>;

const departureReactions = new Map<string, DepartureCancellationReaction>();

/** Subscribes a reaction to cancelled departures under its name (the same name again replaces it). */
export function reactToDepartureCancellations(name: string, reaction: DepartureCancellationReaction): void {
  departureReactions.set(name, reaction);
}

export async function publishDepartureCancellation(tx: Tx, booking: ChangedBooking, departure: CancelledDeparture, now: number): Promise<void> {
  for (const reaction of departureReactions.values()) await reaction(tx, booking, departure, now);
}

/**
 * A new operator (the command line, the demo, the tests' operators), inside the transaction that creates
 * it: what every operator starts with besides its row and first key (the starter workflows,
 * workflows/starter.ts) is added here, so the operators domain never imports the domains that add it.
 */
export type OperatorCreationReaction = (tx: Tx, operatorId: number) => Promise<void>;

const operatorCreationReactions = new Map<string, OperatorCreationReaction>();

/** Subscribes a reaction to new operators under its name (the same name again replaces it). */
export function reactToNewOperators(name: string, reaction: OperatorCreationReaction): void {
  operatorCreationReactions.set(name, reaction);
}

export async function publishOperatorCreated(tx: Tx, operatorId: number): Promise<void> {
  for (const reaction of operatorCreationReactions.values()) await reaction(tx, operatorId);
}
