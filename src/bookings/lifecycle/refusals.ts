// Why the lifecycle refused a command: a reason code every channel maps to its own error model at its edge
// (the partner API's and the operator's problem types, OCTo's errors, GetYourGuide's errorCodes, Viator's
// statuses and rejection reasons), with a sentence for a person. Commands answer a refusal as a value; a
// caller that has nothing better to say throws it as the default problem (refusalProblem).
import { Conflict, type DomainError, type FieldError, InsufficientCapacity, NotFound, ValidationFailed } from '../../http/errors.js';
import type { MixProblem, MixRule } from '../../catalog/tickets/mix.js';

export const REFUSAL_CODES = [
  /** The timeslot has started (the one definition: its start, in its zone, has passed). */
  'booking.started',
  /** Someone of it was checked in at the door. */
  'booking.checked-in',
  'booking.cancelled',
  'booking.expired',
  /** Only a hold can be extended (or released); the booking is confirmed. */
  'booking.not-on-hold',
  /** Only a confirmed booking may be moved or cancelled this way (the guest's rules). */
  'booking.not-confirmed',
  /** The caller may never do this to the booking (a guest's activity that allows no online changes). */
  'booking.not-allowed',
  /** The caller's cut-off before the start has passed (the guest's hours before the start). */
  'booking.cut-off-passed',
  /** A hold is kept at most HOLD_MAX_LIFETIME_MINUTES from when it was made. */
  'hold.at-ceiling',
  /** The target timeslot takes no more bookings (started, closed, its departure cancelled). */
  'timeslot.closed',
  /** A draft names no live activity, or no timeslot of it at its date and time. */
  'activity.unknown',
  /** The activity has no ticket type on sale, so nothing of it can be booked. */
  'activity.unsellable',
  /** The timeslot has fewer seats left than the draft takes. */
  'seats.gone',
  /** A draft refused for something other than its tickets (its waiver answers). */
  'draft.invalid',
] as const;
/** The lifecycle's own codes and the catalogue's rules of a ticket mix (mix.below-minimum, ...). */
export type RefusalCode = (typeof REFUSAL_CODES)[number] | MixRule;

export interface Refusal {
  code: RefusalCode;
  message: string;
  /** A refused draft's fields, under the names the HTTP contract gives them, each with its sentence. */
  problems?: FieldError[];
  /** The ticket-mix rules a refused draft broke, with their limits, for channels that say limits. */
  mix?: MixProblem[];
}

/** A refusal that only says the booking is over already (cancelled, or a lapsed hold): a repeated cancel answers it as it is. */
export const isOverAlready = (refusal: Refusal): boolean => refusal.code === 'booking.cancelled' || refusal.code === 'booking.expired';

/** A command's answer: done, with what it did, or refused with why. */
export type Outcome<T extends object = object> = ({ ok: true } & T) | { ok: false; refusal: Refusal };

export const refused = (code: RefusalCode, message: string): { ok: false; refusal: Refusal } => ({ ok: false, refusal: { code, message } });

/**
 * The problem a refusal is when the channel has no error model of its own (the partner API, the operator's
 * API, the booking pages): a timeslot that takes no bookings is a 422 on Time, a refused draft a 422 on its
 * fields, an unknown activity 404, seats gone 409 (insufficient capacity), the rest 409.
 */
export function refusalProblem(refusal: Refusal): DomainError {
  if (refusal.code === 'timeslot.closed') return ValidationFailed.field('Time', refusal.message);
  if (refusal.code === 'activity.unknown') return new NotFound(refusal.message);
  if (refusal.code === 'seats.gone') return new InsufficientCapacity(refusal.message);
  if (refusal.problems && refusal.problems.length > 0) return new ValidationFailed(refusal.problems);
  return new Conflict(refusal.message);
}

/** A refusal's sentence with every field it names: one problem's own, several joined. */
export const refusalSentence = (refusal: Refusal): string =>
  refusal.problems && refusal.problems.length > 1 ? refusal.problems.map((p) => p.message).join('; ') : refusal.message;

/** The value of an outcome, or its refusal thrown as the default problem. */
export function orThrow<T extends object>(outcome: Outcome<T>): { ok: true } & T {
  if (!outcome.ok) throw refusalProblem(outcome.refusal);
  return outcome;
}
