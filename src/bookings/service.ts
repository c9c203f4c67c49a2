import { guestLanguage } from '../lib/guest-messages.js';
import type { Kysely } from 'kysely';
import { readOncePerTransaction, type Db, type Tx } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { NotFound, ValidationFailed } from '../http/errors.js';
import type { ActivityRow } from '../catalog/index.js';
import { addSeconds, unixNow, type UnixSeconds } from '../lib/clock.js';
import { fileScopeOf, validateWaiverAnswers } from '../questions/service.js';
import { placeBooking, type BookingDraft } from './lifecycle/place.js';
import { cancel, confirm, type Caller } from './lifecycle/commands.js';
import { isOverAlready, orThrow, refusalProblem } from './lifecycle/refusals.js';
import { findBooking, findBookingTarget, listBookings, type BookableTimeslot, type BookingRecord, type BookingRow } from './store.js';
import { toBooking } from './view.js';
import { requestedMix } from '../catalog/tickets/mix.js';
import { bookingTicketsOf, listTicketTypes, type TicketTypeRow } from '../catalog/index.js';
import {
  PAYMENT_STATE_WINDOW,
  type AdminBookingListItem,
  type Booking,
  type BookingListQuery,
  type BookingSource,
  type PosBookingBody,
} from './schemas.js';
import { owedOf, type Owed } from '../payments/booking-money.js';

/** The fields every source books with; a hold is asked for separately (only partners may). */
export type BookingRequest = PosBookingBody;

/** Who is booking: a partner (its marketplace), the online shop, or the operator's point of sale. */
export interface BookingOrigin {
  operatorId: number;
  source: BookingSource;
  partner: string | null;
  /** The shop basket an online booking is an item of: its waiver answers may name the basket's uploads. */
  basketId?: number;
}

export interface PreparedBooking {
  draft: BookingDraft;
  activity: ActivityRow;
}

/** The activity's live ticket types, read once per transaction (a group of bookings shares them). */
export function ticketTypesOf(tx: Tx, activityRowId: number): Promise<TicketTypeRow[]> {
  return readOncePerTransaction(tx, `ticket-types:${activityRowId}`, () => listTicketTypes(tx, [activityRowId]));
}

/**
 * Everything about a booking request that can be decided before taking seats, in the contract's order:
 * the activity and a timeslot at Date and Time must exist (404); then the fields that depend on them,
 * the ticket mix (Participants or Tickets, against the types and the product's maximum) and the waiver
 * answers, are reported together (422).
 * It only reads. The booking routes run it inside the idempotent write transaction rather than before
 * it: a retry with the same Idempotency-Key must replay the first answer, not be judged again against
 * a catalogue that may have changed since (an archived activity, a new required question).
 */
export async function prepareBooking(
  tx: Tx,
  origin: BookingOrigin,
  request: BookingRequest,
  holdMinutes: number | undefined,
  now: UnixSeconds,
): Promise<PreparedBooking> {
  // The bookings of a group (Db.writeGrouped) name the same timeslot: one read serves them all.
  const key = JSON.stringify(['booking-target', origin.operatorId, request.ActivityID, request.Date, request.Time]);
  const target = await readOncePerTransaction(tx, key, () =>
    findBookingTarget(tx, origin.operatorId, request.ActivityID, request.Date, request.Time),
  );
  // An archived activity takes no bookings, as the catalogue's requireActivity says.
  if (!target || target.activity.archived) throw new NotFound(`No activity ${request.ActivityID}`);
  const { activity, timeslot } = target;
  if (!timeslot) throw new NotFound(`Activity ${request.ActivityID} has no timeslot on ${request.Date} at ${request.Time}`);

  const { mix, errors } = requestedMix(await ticketTypesOf(tx, activity.id), request, activity.max_participants_per_booking);
  let waiver: BookingDraft['waiver'] = { status: 'pending', answers: [], fileIds: [] };
  try {
    waiver = await validateWaiverAnswers(tx, fileScopeOf(origin), activity.id, request.WaiverAnswers);
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    errors.push(...(error.errors ?? []));
  }
  if (errors.length > 0 || !mix) throw new ValidationFailed(errors);

  const draft: BookingDraft = {
    operatorId: origin.operatorId,
    timeslot,
    reactionsInterested: target.reactionsInterested,
    source: origin.source,
    partner: origin.partner,
    paymentReference: request.PaymentReference ?? null,
    mix,
    currency: activity.currency,
    customer: {
      firstName: request.Customer.FirstName.trim(),
      // A walk-in's missing last name, e-mail and phone are stored empty (PosCustomer).
      lastName: request.Customer.LastName?.trim() ?? '',
      email: request.Customer.Email?.trim() ?? '',
      phone: request.Customer.Phone ?? '',
    },
    locale: guestLanguage(request.Locale),
    waiver,
    holdExpiresAt: holdMinutes === undefined ? null : addSeconds(now, holdMinutes * 60),
  };
  return { draft, activity };
}

function record(row: BookingRow, activity: ActivityRow, timeslot: BookableTimeslot): BookingRecord {
  return {
    ...row,
    activity_public_id: activity.public_id,
    timezone: activity.timezone,
    date: timeslot.date,
    time: timeslot.time,
    starts_at: timeslot.starts_at,
  };
}

/**
 * The group (Db.writeGrouped) of a booking request: the bookings of one timeslot queue for its one row
 * lock (PostgreSQL) anyway, so they may as well share a transaction and its commit.
 */
export function timeslotGroup(operatorId: number, request: Pick<BookingRequest, 'ActivityID' | 'Date' | 'Time'>): string {
  return JSON.stringify(['booking', operatorId, request.ActivityID, request.Date, request.Time]);
}

/**
 * Creates a booking of any source inside the caller's write transaction: confirmed, or on hold for
 * `holdMinutes` when given. The online shop's checkout and an OCTo API book through this too.
 */
export async function bookTimeslot(tx: Tx, origin: BookingOrigin, request: BookingRequest, holdMinutes?: number): Promise<Booking> {
  const now = unixNow();
  const { draft, activity } = await prepareBooking(tx, origin, request, holdMinutes, now);
  const row = await placeBooking(tx, draft, now);
  return toBooking(record(row, activity, draft.timeslot), (await bookingTicketsOf(tx, [row.id])).get(row.id) ?? [], now);
}

async function requireBooking(db: Kysely<Database>, operatorId: number, reference: string, partner?: string): Promise<BookingRecord> {
  const found = await findBooking(db, operatorId, reference, partner);
  if (!found) throw new NotFound(`No booking ${reference}`);
  return found;
}

/** A booking of the operator; with `partner`, only one that marketplace made. */
export async function getBooking(db: Kysely<Database>, operatorId: number, reference: string, partner?: string): Promise<Booking> {
  const [booking] = await withTickets(db, [await requireBooking(db, operatorId, reference, partner)], unixNow());
  return booking!;
}

/** The bookings as the API shows them, their tickets read in one query. */
export async function withTickets(db: Kysely<Database>, records: BookingRecord[], now: UnixSeconds): Promise<Booking[]> {
  const tickets = await bookingTicketsOf(
    db,
    records.map((row) => row.id),
  );
  return records.map((row) => toBooking(row, tickets.get(row.id) ?? [], now));
}

/**
 * Cancels the operator's booking (with `partner`, only that marketplace's own) as `caller`, within the
 * policy, and answers it. A booking cancelled or expired already changes nothing and answers as it is;
 * another refusal is the default problem (409).
 */
export async function cancelBooking(db: Db, operatorId: number, reference: string, caller: Caller, partner?: string): Promise<Booking> {
  const booking = await requireBooking(db.kysely, operatorId, reference, partner);
  const outcome = await db.write((tx) => cancel(tx, booking, caller, unixNow()));
  if (!outcome.ok && !isOverAlready(outcome.refusal)) throw refusalProblem(outcome.refusal);
  return getBooking(db.kysely, operatorId, reference, partner);
}

/**
 * Confirms a booking on hold while its hold is live. A confirmed booking answers unchanged; an expired
 * hold or a cancelled booking cannot be confirmed (409): its seats may already be someone else's. The
 * refusal is thrown after the commit, so that the release of lapsed holds is kept.
 */
export async function confirmBooking(db: Db, operatorId: number, reference: string, partner?: string): Promise<Booking> {
  const booking = await requireBooking(db.kysely, operatorId, reference, partner);
  orThrow(await db.write((tx) => confirm(tx, booking, unixNow())));
  return getBooking(db.kysely, operatorId, reference, partner);
}

/** Operator: bookings of every source, filtered and paged, each with its payment state and amount due. */
export async function listOperatorBookings(db: Kysely<Database>, operatorId: number, query: BookingListQuery): Promise<AdminBookingListItem[]> {
  if (query.From !== undefined && query.To !== undefined && query.To < query.From) {
    throw ValidationFailed.field('To', 'To must not be before From');
  }
  const now = unixNow();
  const filter = {
    from: query.From,
    to: query.To,
    source: query.Source,
    activityId: query.ActivityID,
    status: query.Status,
    search: query.Search,
    limit: query.Limit,
    offset: query.Offset,
  };
  let rows: BookingRecord[];
  let owed: Map<number, Owed>;
  if (query.PaymentState === undefined) {
    rows = await listBookings(db, operatorId, filter, now);
    owed = await owedOf(
      db,
      operatorId,
      rows.map((row) => row.id),
    );
  } else {
    // A booking's payment state is computed from its payments (payments/booking-money.ts), so the filter
    // reads the bookings the other filters keep, at most PAYMENT_STATE_WINDOW of them, and their money
    // sums in a few indexed queries, then pages what is left.
    const window = await listBookings(db, operatorId, { ...filter, limit: PAYMENT_STATE_WINDOW + 1, offset: 0 }, now);
    if (window.length > PAYMENT_STATE_WINDOW)
      throw ValidationFailed.field(
        'PaymentState',
        `PaymentState looks at most ${PAYMENT_STATE_WINDOW} bookings and more match the other filters: narrow From and To (or add Status, Source or ActivityID)`,
      );
    owed = await owedOf(
      db,
      operatorId,
      window.map((row) => row.id),
    );
    rows = window.filter((row) => owed.get(row.id)?.PaymentState === query.PaymentState).slice(query.Offset, query.Offset + query.Limit);
  }
  const bookings = await withTickets(db, rows, now);
  return bookings.map((booking, index) => {
    const money = owed.get(rows[index]!.id);
    return { ...booking, PaymentState: money?.PaymentState ?? 'unpaid', AmountDue: money?.AmountDue ?? 0 };
  });
}
