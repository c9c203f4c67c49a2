// The booking a channel asks for, in the domain's words. Every channel (the partner API, the desk, the
// shop, OCTo, GetYourGuide, Viator) translates its own request into a BookingDraft at its edge; the
// lifecycle then judges it against the catalogue (prepareDraft) and places it (placeBooking). No channel's
// request body is the domain's type, so a field renamed in one API changes nothing here.
import type { Tx } from '../../db/connection.js';
import { readOncePerTransaction } from '../../db/connection.js';
import { type FieldError, NotFound, ValidationFailed } from '../../http/errors.js';
import type { ActivityRow, TicketTypeRow } from '../../catalog/index.js';
import { listTicketTypes } from '../../catalog/index.js';
import { requestedMix, type MixProblem } from '../../catalog/tickets/mix.js';
import { guestLanguage } from '../../lib/guest-messages.js';
import { fileScopeOf, validateWaiverAnswers } from '../../questions/service.js';
import { findBookingTarget } from '../store.js';
import type { BookingSource } from '../schemas.js';
import type { Placement } from './place.js';
import type { Refusal } from './refusals.js';
import { addSeconds, type UnixSeconds } from '../../lib/clock.js';

export interface BookingDraft {
  /** The activity's public id (s_...), and the timeslot's local date and time. */
  activityId: string;
  date: string;
  time: string;
  /** The tickets by type code; without them, `participants` of the default type (both: they must agree). */
  tickets?: { code: string; quantity: number }[];
  participants?: number;
  /** Only the first name is required: a walk-in at the desk may give nothing else. */
  customer: { firstName: string; lastName?: string; email?: string; phone?: string };
  /** The guest's language as asked for (any BCP 47 tag); the e-mails speak en or de. */
  locale?: string;
  /** The seller's own reference for the money (a marketplace's booking or payment reference). */
  paymentReference?: string;
  /** When given, every required question must be answered and the waiver is complete. */
  waiverAnswers?: { questionId: number; answer: string }[];
  /** Seats are held this long until confirmed; absent, the booking is confirmed at once. */
  holdMinutes?: number;
}

/** Who is booking: a partner (its marketplace), the online shop, or the operator's point of sale. */
export interface BookingOrigin {
  operatorId: number;
  source: BookingSource;
  partner: string | null;
  /** The shop basket an online booking is an item of: its waiver answers may name the basket's uploads. */
  basketId?: number;
}

export interface PreparedBooking {
  placement: Placement;
  activity: ActivityRow;
}

/**
 * A draft the catalogue refused: the 422 of its fields, as ever, and the refusal it is to a channel that
 * says it in its own words (the first broken mix rule's code, or draft.invalid for its waiver answers).
 */
export class DraftRefused extends ValidationFailed {
  readonly refusal: Refusal;
  constructor(problems: FieldError[], mix: MixProblem[]) {
    super(problems);
    this.refusal = { code: mix[0]?.rule ?? 'draft.invalid', message: this.message, problems, mix };
  }
}

/** The activity's live ticket types, read once per transaction (a group of bookings shares them). */
export function ticketTypesOf(tx: Tx, activityRowId: number): Promise<TicketTypeRow[]> {
  return readOncePerTransaction(tx, `ticket-types:${activityRowId}`, () => listTicketTypes(tx, [activityRowId]));
}

/**
 * Everything about a draft that can be decided before taking seats, in the contract's order: the
 * activity and a timeslot at its date and time must exist (404); then the fields that depend on them,
 * the ticket mix (against the types and the product's maximum) and the waiver answers, are reported
 * together (422). Field errors keep the names the HTTP contract gives these fields (Tickets[1].Quantity,
 * Participants, WaiverAnswers[0].Answer), which every channel that shows fields shares.
 * It only reads. The booking routes run it inside the idempotent write transaction rather than before
 * it: a retry with the same Idempotency-Key must replay the first answer, not be judged again against
 * a catalogue that may have changed since (an archived activity, a new required question).
 */
export async function prepareDraft(tx: Tx, origin: BookingOrigin, draft: BookingDraft, now: UnixSeconds): Promise<PreparedBooking> {
  // The bookings of a group (Db.writeGrouped) name the same timeslot: one read serves them all.
  const key = JSON.stringify(['booking-target', origin.operatorId, draft.activityId, draft.date, draft.time]);
  const target = await readOncePerTransaction(tx, key, () => findBookingTarget(tx, origin.operatorId, draft.activityId, draft.date, draft.time));
  // An archived activity takes no bookings, as the catalogue's requireActivity says.
  if (!target || target.activity.archived) throw new NotFound(`No activity ${draft.activityId}`);
  const { activity, timeslot } = target;
  if (!timeslot) throw new NotFound(`Activity ${draft.activityId} has no timeslot on ${draft.date} at ${draft.time}`);

  const asked = { Participants: draft.participants, Tickets: draft.tickets?.map((line) => ({ Type: line.code, Quantity: line.quantity })) };
  const { mix, errors, broken } = requestedMix(await ticketTypesOf(tx, activity.id), asked, activity.max_participants_per_booking);
  let waiver: Placement['waiver'] = { status: 'pending', answers: [], fileIds: [] };
  try {
    const answers = draft.waiverAnswers?.map((a) => ({ QuestionID: a.questionId, Answer: a.answer }));
    waiver = await validateWaiverAnswers(tx, fileScopeOf(origin), activity.id, answers);
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    errors.push(...(error.errors ?? []));
  }
  if (errors.length > 0 || !mix) throw new DraftRefused(errors, broken);

  const placement: Placement = {
    operatorId: origin.operatorId,
    timeslot,
    reactionsInterested: target.reactionsInterested,
    source: origin.source,
    partner: origin.partner,
    paymentReference: draft.paymentReference ?? null,
    mix,
    currency: activity.currency,
    customer: {
      firstName: draft.customer.firstName.trim(),
      // A walk-in's missing last name, e-mail and phone are stored empty (PosCustomer).
      lastName: draft.customer.lastName?.trim() ?? '',
      email: draft.customer.email?.trim() ?? '',
      phone: draft.customer.phone ?? '',
    },
    locale: guestLanguage(draft.locale),
    waiver,
    holdExpiresAt: draft.holdMinutes === undefined ? null : addSeconds(now, draft.holdMinutes * 60),
  };
  return { placement, activity };
}
