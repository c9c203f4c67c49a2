// Placing a booking of any source (partner, online shop, point of sale, OCTo) on a timeslot. Everything here runs inside the caller's write transaction, so a failure at any step
// leaves nothing behind: no seats taken, no booking, no waiver answers.
import type { Kysely } from 'kysely';
import type { Tx } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';
import { InsufficientCapacity, ValidationFailed } from '../../http/errors.js';
import { newBookingReference } from '../../lib/ids.js';
import { findZonedTimeslot } from '../../availability/index.js';
import { nowMillis, toMillis, unixNow, type UnixSeconds } from '../../lib/clock.js';
import { takeSeatsAtCommit } from './seat-ledger.js';
import type { BookableTimeslot, BookingRow } from '../store.js';
import { insertBooking } from './store.js';
import { insertWaiverAnswers } from '../../questions/index.js';
import { publishBookingChange } from '../../hooks/platform-hooks.js';
import { tallyBooking } from '../../hooks/tallies.js';
import { annotateSpan } from '../../lib/tracing.js';
import { keepBookingFiles } from '../../questions/index.js';
import { ticketRows, type TicketMix } from '../../catalog/tickets/mix.js';
import { insertBookingTickets } from '../../catalog/index.js';
import type { BookingSource } from '../schemas.js';

/** A draft judged against the catalogue (prepareDraft): its timeslot found, its mix priced, its waiver checked. */
export interface Placement {
  operatorId: number;
  /** The operator's timeslot, found with the activity. */
  timeslot: BookableTimeslot;
  /** Whether any reaction to bookings (workflows' e-mails, ...) cares about the operator's bookings. */
  reactionsInterested: boolean;
  source: BookingSource;
  /** The marketplace, for partner bookings. */
  partner: string | null;
  paymentReference: string | null;
  /** The tickets, their people (Participants) and seats; priced in `currency`. */
  mix: TicketMix;
  currency: string;
  customer: { firstName: string; lastName: string; email: string; phone: string };
  /** The guest's language for e-mails: 'en' or 'de'. */
  locale: string;
  waiver: { status: 'pending' | 'complete'; answers: { questionId: number; answer: string }[]; fileIds: string[] };
  /** Unix seconds at which the hold lapses; null confirms the booking at once. */
  holdExpiresAt: UnixSeconds | null;
}

/**
 * The files the answers name are kept: for good by a confirmed booking, until its expiry by a hold
 * (keepBookingFiles). The answers were checked against the uploads in this transaction; on PostgreSQL a
 * sweep may still have deleted one in between (its UPDATE then finds no row), which is a 422 like a file
 * that was never there.
 */
async function keepAnsweredFiles(tx: Tx, booking: BookingRow, draft: Placement, now: UnixSeconds): Promise<void> {
  const gone = await keepBookingFiles(tx, booking, toMillis(now), draft.waiver.fileIds);
  if (gone.length > 0)
    throw ValidationFailed.field('WaiverAnswers', `The uploaded file ${gone.join(', ')} was deleted before this booking named it; upload it again`);
}

// 40 random bits per reference: a collision is rare, five in a row means something else is wrong.
const REFERENCE_ATTEMPTS = 5;

/** Why the timeslot takes no more bookings (past its start, or its closing for opening hours), or undefined while it does. */
export function bookableRefusal(slot: BookableTimeslot, now: UnixSeconds): string | undefined {
  if (slot.bookable_until > now) return undefined;
  // A cancelled departure closed before its start; opening hours close after it.
  const why = slot.bookable_until < slot.starts_at ? 'was cancelled' : slot.bookable_until > slot.starts_at ? 'has closed' : 'has already started';
  return `The timeslot on ${slot.date} at ${slot.time} ${why} and can no longer be booked`;
}

/** 422 on Time unless the timeslot still takes bookings. */
export function requireBookable(slot: BookableTimeslot, now: UnixSeconds): void {
  const refusal = bookableRefusal(slot, now);
  if (refusal) throw ValidationFailed.field('Time', refusal);
}

/** The 409 of a seat statement that did not fit: the seats left, read after the rollback. */
export function refuseSeats(operatorId: number, slot: BookableTimeslot, seats: number) {
  return async (db: Kysely<Database>): Promise<Error> => {
    const current = await findZonedTimeslot(db, operatorId, slot.id, unixNow());
    const left = current ? Math.max(0, current.capacity - current.booked + current.lapsed_hold_seats) : 0;
    return new InsufficientCapacity(
      `Not enough seats on ${slot.date} at ${slot.time}: ${seats} requested, ${left} left. Offer the customer another timeslot.`,
    );
  };
}

/**
 * Records the booking, its tickets and takes its seats. Rules in the contract's order: a timeslot that has
 * started cannot be booked (422), then there must be enough seats left (409). Lapsed holds of the timeslot
 * are released before the seats are counted, so theirs count as free for this booking. The seats are taken
 * when the caller's transaction commits (seat-ledger.ts): a 409 then rejects the caller's whole write, and
 * nothing of it stays.
 */
export async function placeBooking(tx: Tx, draft: Placement, now: UnixSeconds): Promise<BookingRow> {
  const slot = draft.timeslot;
  requireBookable(slot, now);

  const values = {
    operator_id: draft.operatorId,
    timeslot_id: slot.id,
    status: draft.holdExpiresAt === null ? 'confirmed' : 'on_hold',
    source: draft.source,
    partner: draft.partner,
    payment_reference: draft.paymentReference,
    participants: draft.mix.people,
    seats: draft.mix.seats,
    customer_first_name: draft.customer.firstName,
    customer_last_name: draft.customer.lastName,
    customer_email: draft.customer.email,
    customer_phone: draft.customer.phone,
    waiver_status: draft.waiver.status,
    locale: draft.locale,
    hold_expires_at: draft.holdExpiresAt,
    created_at: nowMillis(),
    cancelled_at: null,
  };
  for (let attempt = 0; attempt < REFERENCE_ATTEMPTS; attempt++) {
    const booking = await insertBooking(tx, { ...values, reference: newBookingReference() });
    if (booking) {
      await insertBookingTickets(tx, ticketRows(booking.id, draft.mix, draft.currency));
      await insertWaiverAnswers(tx, booking.id, draft.waiver.answers);
      await keepAnsweredFiles(tx, booking, draft, now);
      // The reactions to a confirmed booking (workflows' e-mails, ...), in this transaction.
      if (booking.status === 'confirmed' && draft.reactionsInterested) await publishBookingChange(tx, booking, 'confirmed', now);
      if (booking.status === 'confirmed') tallyBooking(tx, 'confirmed', booking);
      annotateSpan({ 'slotbook.booking_reference': booking.reference, 'slotbook.operator_id': booking.operator_id });
      await takeSeatsAtCommit(
        tx,
        { operatorId: draft.operatorId, timeslotId: slot.id },
        draft.mix.seats,
        now,
        refuseSeats(draft.operatorId, slot, draft.mix.seats),
      );
      return booking;
    }
  }
  throw new Error(`No free booking reference after ${REFERENCE_ATTEMPTS} attempts`);
}
