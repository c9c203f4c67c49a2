// The booking's lifecycle: every command that moves a booking's status (confirm a hold, cancel, extend or
// release a hold, cancel the live bookings of a departure). Each takes the transaction it runs in and
// answers an Outcome: done, or a refusal with its code (refusals.ts), decided by the one policy
// (../policy.ts) on the booking as it is in this transaction. Placing (place.ts) and moving (move.ts) are
// its other commands; lapsed holds are expired by the seat ledger (seat-ledger.ts). The status itself is
// written only by store.ts.
import type { Kysely } from 'kysely';
import type { Tx } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';
import { audit, type AuditActor } from '../../audit/log.js';
import { closeCancelledTimeslot, findTimeslotById } from '../../availability/index.js';
import { publishBookingChange } from '../../hooks/platform-hooks.js';
import { findActivityById } from '../../catalog/index.js';
import { refusalOf, type BookingFacts, type CallerKind, type PolicyAction } from './policy.js';
import { checkinsOf, type BookingRow } from '../store.js';
import { effectiveStatus } from '../view.js';
import { refused, type Outcome } from './refusals.js';
import { giveBackSeats, releaseLapsedHolds } from './seat-ledger.js';
import { cancelLiveBookingsOf, endHolds, lockBooking } from './store.js';
import { changeStatus, extendHoldUntil } from './transitions.js';
import { addSeconds, asUnixSeconds, earliest, latest, nowMillis, toSeconds, type UnixMillis, type UnixSeconds } from '../../lib/clock.js';

/** Who asks for the change: the kind the policy knows, and the audit log's actor when it is not the request's. */
export interface Caller {
  kind: CallerKind;
  as?: AuditActor;
}

/** The facts the policy decides on, read in the transaction (the activity's guest hours only for a guest). */
export async function policyFacts(
  db: Kysely<Database>,
  booking: BookingRow,
  caller: CallerKind,
  action: PolicyAction,
  now: UnixSeconds,
): Promise<BookingFacts> {
  const timeslot = await findTimeslotById(db, booking.timeslot_id);
  const checkins = (await checkinsOf(db, [booking.id])).get(booking.id) ?? [];
  let guestHours: number | null = null;
  if (caller === 'guest' && timeslot) {
    const activity = await findActivityById(db, booking.operator_id, timeslot.activity_id);
    guestHours = (action === 'cancel' ? activity?.guest_cancel_hours : activity?.guest_reschedule_hours) ?? null;
  }
  return { status: effectiveStatus(booking, now), startsAt: timeslot?.starts_at ?? asUnixSeconds(0), checkedIn: checkins.length > 0, guestHours };
}

/**
 * Confirms a booking on a live hold. A confirmed booking answers done; an expired hold or a cancelled booking
 * is refused (its seats may be someone else's). `beforeConfirm` runs first when it can be confirmed (the guest's
 * details the confirmation e-mail will carry). Lapsed holds of the timeslot are released either way: a caller
 * that throws on a refusal does so after the commit, so that the release is kept.
 */
export async function confirm(tx: Tx, booking: BookingRow, now: UnixSeconds, beforeConfirm?: () => Promise<void>): Promise<Outcome> {
  await releaseLapsedHolds(tx, booking.timeslot_id, now);
  const current = await lockBooking(tx, booking.id);
  const status = effectiveStatus(current ?? booking, now);
  if (status === 'expired')
    return refused('booking.expired', `The hold of booking ${booking.reference} has expired; its seats are released. Create a new booking.`);
  if (status === 'cancelled') return refused('booking.cancelled', `Booking ${booking.reference} is cancelled and cannot be confirmed`);
  await beforeConfirm?.();
  if (status === 'on_hold') {
    const confirmed = await changeStatus(tx, booking.id, ['on_hold'], { status: 'confirmed', hold_expires_at: null });
    if (confirmed) await publishBookingChange(tx, confirmed, 'confirmed', now);
  }
  return { ok: true };
}

/**
 * Confirms a hold its guest has paid for (a basket's item), with the payment's reference as the booking's.
 * The payer checked that its seats are still counted for it (a live hold, or for Stripe a lapsed one nobody
 * released), so the hold's expiry is not asked again. False when it left its hold meanwhile (a concurrent
 * cancellation or release): the caller rolls the payment back.
 */
export async function confirmPaidHold(
  tx: Tx,
  booking: { id: number; operator_id: number },
  paymentReference: string | null,
  now: UnixSeconds,
): Promise<boolean> {
  const confirmed = await changeStatus(tx, booking.id, ['on_hold'], {
    status: 'confirmed',
    hold_expires_at: null,
    ...(paymentReference !== null && { payment_reference: paymentReference }),
  });
  if (confirmed) await publishBookingChange(tx, confirmed, 'confirmed', now);
  return confirmed !== undefined;
}

/** Keeps a live hold until `until` (a payment page's lifetime), never past what the caller checked against its ceiling. */
export const holdUntil = (tx: Tx, bookingId: number, until: UnixSeconds, now: UnixSeconds): Promise<boolean> =>
  extendHoldUntil(tx, bookingId, until, now);

/** What a cancellation does beyond the status: the booking's reactions (workflows' e-mails, ...) and the audit entry. */
async function cancelled(tx: Tx, row: BookingRow, before: string, caller: Caller, now: UnixSeconds, reason?: Record<string, unknown>): Promise<void> {
  await publishBookingChange(tx, row, 'cancelled', now);
  await audit(
    tx,
    {
      operatorId: row.operator_id,
      action: 'booking.cancel',
      resource: { type: 'booking', id: row.reference },
      before: { Status: before },
      after: { Status: 'cancelled', ...reason },
    },
    caller.as,
  );
}

/**
 * Cancels a confirmed booking or a live hold, if the caller may now (the policy: a refusal says why), and
 * gives its seats back. A booking cancelled (or expired) already is refused as booking.cancelled (or
 * booking.expired): the caller answers it as it is if that is its API's way. `booking` names it; its row is
 * read again under its lock.
 */
export async function cancel(tx: Tx, booking: BookingRow, caller: Caller, now: UnixSeconds): Promise<Outcome<{ cancelled: BookingRow }>> {
  // A lapsed hold is expired, not cancelled: release it as such first, so its seats come back once.
  await releaseLapsedHolds(tx, booking.timeslot_id, now);
  const current = (await lockBooking(tx, booking.id)) ?? booking;
  const refusal = refusalOf(caller.kind, 'cancel', await policyFacts(tx, current, caller.kind, 'cancel', now), now);
  if (refusal) return { ok: false, refusal: { ...refusal, message: `${current.reference}: ${refusal.message}` } };
  const before = effectiveStatus(current, now);
  const row = await changeStatus(tx, current.id, ['confirmed', 'on_hold'], { status: 'cancelled', cancelled_at: nowMillis() });
  if (!row) return refused('booking.cancelled', `${current.reference}: the booking is cancelled`);
  await giveBackSeats(tx, { operatorId: row.operator_id, timeslotId: row.timeslot_id }, row.seats);
  await cancelled(tx, row, before, caller, now);
  return { ok: true, cancelled: row };
}

/**
 * Cancels every live booking of a departure (a timeslot the operator called off: every channel, holds too)
 * as `cancel` does each, and closes the timeslot to new bookings with a capacity of 0. Bookings rows first,
 * then the timeslot's, as every booking writer: a booking committed between the two statements is cancelled
 * by a second round, the timeslot's row being ours by then, and every later booking is refused by the
 * capacity of 0. Answers the bookings it cancelled.
 */
export async function cancelDepartureBookings(
  tx: Tx,
  slot: { operatorId: number; timeslotId: number },
  caller: Caller,
  now: UnixSeconds,
): Promise<BookingRow[]> {
  await releaseLapsedHolds(tx, slot.timeslotId, now);
  const rows: BookingRow[] = [];
  for (let round = 0; round < 2; round++) {
    const more = await cancelLiveBookingsOf(tx, slot.timeslotId, now);
    rows.push(...more);
    if (round === 0 || more.length > 0) await closeCancelledTimeslot(tx, slot, seatsOf(more), now);
  }
  for (const row of rows) {
    await cancelled(tx, row, row.hold_expires_at === null ? 'confirmed' : 'on_hold', caller, now, {
      Reason: 'departure-cancelled',
      TimeslotID: slot.timeslotId,
    });
  }
  return rows;
}

const seatsOf = (rows: BookingRow[]) => rows.reduce((sum, row) => sum + Number(row.seats), 0);

/**
 * The latest moment (Unix seconds) a hold made at `createdAt` may be extended to: no renewal keeps seats
 * longer than `maxLifetimeMinutes` (HOLD_MAX_LIFETIME_MINUTES) after the hold was made, whatever the channel.
 */
export const holdCeiling = (createdAt: UnixMillis, maxLifetimeMinutes: number): UnixSeconds =>
  addSeconds(toSeconds(createdAt), maxLifetimeMinutes * 60);

/**
 * Keeps a live hold for `minutes` more from now (never shortening it), but never beyond its ceiling
 * (holdCeiling): a hold cannot be renewed forever. A hold that lapsed, a confirmed or cancelled booking is
 * refused (a lapsed hold's seats may already be someone else's); so is a hold at its ceiling.
 */
export async function extendHold(
  tx: Tx,
  booking: BookingRow,
  hold: { minutes: number; maxLifetimeMinutes: number },
  now: UnixSeconds,
): Promise<Outcome> {
  await releaseLapsedHolds(tx, booking.timeslot_id, now);
  const current = (await lockBooking(tx, booking.id)) ?? booking;
  const status = effectiveStatus(current, now);
  if (status === 'expired')
    return refused('booking.expired', `The hold of booking ${current.reference} has expired; its seats are released. Create a new booking.`);
  if (status !== 'on_hold')
    return refused(
      status === 'cancelled' ? 'booking.cancelled' : 'booking.not-on-hold',
      `Booking ${current.reference} is ${status}, not on hold: only a hold can be extended`,
    );
  const expiresAt = current.hold_expires_at ?? now;
  const wanted = latest(expiresAt, addSeconds(now, hold.minutes * 60));
  const until = earliest(wanted, latest(expiresAt, holdCeiling(current.created_at, hold.maxLifetimeMinutes)));
  if (until < wanted && until === expiresAt) {
    return refused(
      'hold.at-ceiling',
      `The hold of booking ${current.reference} cannot be extended: a hold lasts at most ${hold.maxLifetimeMinutes} minutes from when it was made. Confirm it, or cancel it.`,
    );
  }
  if (!(await extendHoldUntil(tx, current.id, until, now)))
    return refused('booking.expired', `The hold of booking ${current.reference} has expired; its seats are released.`);
  return { ok: true };
}

/**
 * Ends these live holds now, as a lapsed hold ends (expired: nobody is e-mailed, paying or confirming them is
 * refused), and gives their seats back timeslot by timeslot (bookings rows first: the lock order). Answers
 * the holds it ended; one that lapsed, was paid or cancelled meanwhile is left as it is.
 */
export async function expireHolds(tx: Tx, bookingIds: number[], now: UnixSeconds): Promise<BookingRow[]> {
  const ended = await endHolds(tx, bookingIds, now);
  const bySlot = new Map<number, { operatorId: number; seats: number }>();
  for (const hold of ended) {
    const slot = bySlot.get(hold.timeslot_id) ?? { operatorId: hold.operator_id, seats: 0 };
    bySlot.set(hold.timeslot_id, { ...slot, seats: slot.seats + Number(hold.seats) });
  }
  for (const [timeslotId, { operatorId, seats }] of [...bySlot].sort(([a], [b]) => a - b)) await giveBackSeats(tx, { operatorId, timeslotId }, seats);
  return ended;
}
