// Amending a live booking: another timeslot (of its activity or of another), another ticket mix, or both,
// in the caller's write transaction (OCTo's PATCH and confirm with unitItems). The booking row is locked
// first (every booking writer touches bookings rows before timeslot rows), and the seats move as the
// transaction's last statements (changeSeatsAtCommit): the new ones are taken and the old ones given back
// in the same commit, so the booking never holds both, never neither, and a timeslot never overbooks.
// The amendment states where the booking should be, so repeating it changes nothing: a retry is safe.
import type { Tx } from '../../db/connection.js';
import type { ActivityRow } from '../../catalog/index.js';
import { changeSeatsAtCommit } from './seat-ledger.js';
import { findTimeslotById } from '../../availability/index.js';
import { bookableRefusal, refuseSeats } from './place.js';
import { refusalOf, type CallerKind } from './policy.js';
import { policyFacts } from './commands.js';
import { refused, type Outcome } from './refusals.js';
import type { BookableTimeslot } from '../store.js';
import { lockBooking, moveBooking } from './store.js';
import { deleteWaiverAnswers } from '../../questions/index.js';
import { effectiveStatus } from '../view.js';
import { publishBookingChange } from '../../hooks/platform-hooks.js';
import { sameTickets, ticketRows, type TicketMix } from '../../catalog/tickets/mix.js';
import { bookingTicketsOf, deleteBookingTickets, insertBookingTickets } from '../../catalog/index.js';
import type { UnixSeconds } from '../../lib/clock.js';

/** Where the booking should be: the timeslot (of `activity`) and its tickets. */
export interface AmendmentTarget {
  activity: ActivityRow;
  timeslot: BookableTimeslot;
  mix: TicketMix;
}

/**
 * Moves the booking to `target` if the caller may move it now (the policy: a cancelled, expired or started
 * booking, or one past the caller's cut-off, is refused); `changed` says whether anything changed. A target
 * timeslot that takes no more bookings is refused as timeslot.closed; not enough seats there is a 409 when
 * the transaction commits. Tickets are priced anew unless only the timeslot of the same activity changes. A
 * move to another activity leaves the waiver pending: the answers were to the old activity's questions.
 */
export async function amendBooking(
  tx: Tx,
  bookingId: number,
  target: AmendmentTarget,
  caller: CallerKind,
  now: UnixSeconds,
): Promise<Outcome<{ changed: boolean; rescheduled: boolean }>> {
  const booking = await lockBooking(tx, bookingId);
  if (!booking) throw new Error(`Booking ${bookingId} vanished`);
  const refusal = refusalOf(caller, 'move', await policyFacts(tx, booking, caller, 'move', now), now);
  if (refusal) return { ok: false, refusal: { ...refusal, message: `${booking.reference}: ${refusal.message}` } };
  const status = effectiveStatus(booking, now);
  const current = await findTimeslotById(tx, booking.timeslot_id);
  if (!current) throw new Error(`Timeslot ${booking.timeslot_id} of booking ${booking.reference} vanished`);
  const closed = bookableRefusal(target.timeslot, now);
  if (closed) return refused('timeslot.closed', closed);

  const tickets = (await bookingTicketsOf(tx, [booking.id])).get(booking.id) ?? [];
  const sameActivity = current.activity_id === target.activity.id;
  const sameTimeslot = booking.timeslot_id === target.timeslot.id;
  const sameMix = sameActivity && sameTickets(tickets, target.mix);
  if (sameTimeslot && sameMix) return { ok: true, changed: false, rescheduled: false };

  await moveBooking(tx, booking.id, {
    timeslot_id: target.timeslot.id,
    participants: target.mix.people,
    seats: target.mix.seats,
    ...(!sameActivity && { waiver_status: 'pending' as const }),
  });
  if (!sameActivity) await deleteWaiverAnswers(tx, booking.id);
  if (!sameMix) {
    await deleteBookingTickets(tx, booking.id);
    await insertBookingTickets(tx, ticketRows(booking.id, target.mix, target.activity.currency));
  }
  await changeSeatsAtCommit(
    tx,
    booking.operator_id,
    [
      { timeslotId: booking.timeslot_id, seats: -booking.seats },
      { timeslotId: target.timeslot.id, seats: target.mix.seats },
    ],
    now,
    // Only the target timeslot can be asked for seats (on its own timeslot, the booking asks for the difference).
    (_timeslotId, seats) => refuseSeats(booking.operator_id, target.timeslot, seats),
  );
  const rescheduled = status === 'confirmed' && !sameTimeslot;
  if (rescheduled) await publishBookingChange(tx, booking, 'rescheduled', now);
  return { ok: true, changed: true, rescheduled };
}
