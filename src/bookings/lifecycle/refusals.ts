// Why the lifecycle refused a command: a reason code every channel maps to its own error model at its edge
// (the partner API's and the operator's problem types, OCTo's errors, GetYourGuide's errorCodes, Viator's
// statuses and rejection reasons), with a sentence for a person. Commands answer a refusal as a value; a
// caller that has nothing better to say throws it as the default problem (refusalProblem).
import { Conflict, type DomainError, ValidationFailed } from '../../http/errors.js';

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
] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

export interface Refusal {
  code: RefusalCode;
  message: string;
}

/** A refusal that only says the booking is over already (cancelled, or a lapsed hold): a repeated cancel answers it as it is. */
export const isOverAlready = (refusal: Refusal): boolean => refusal.code === 'booking.cancelled' || refusal.code === 'booking.expired';

/** A command's answer: done, with what it did, or refused with why. */
export type Outcome<T extends object = object> = ({ ok: true } & T) | { ok: false; refusal: Refusal };

export const refused = (code: RefusalCode, message: string): { ok: false; refusal: Refusal } => ({ ok: false, refusal: { code, message } });

/**
 * The problem a refusal is when the channel has no error model of its own (the partner API, the operator's
 * API, the booking pages): a timeslot that takes no bookings is a 422 on Time, the rest 409.
 */
export function refusalProblem(refusal: Refusal): DomainError {
  if (refusal.code === 'timeslot.closed') return ValidationFailed.field('Time', refusal.message);
  return new Conflict(refusal.message);
}

/** The value of an outcome, or its refusal thrown as the default problem. */
export function orThrow<T extends object>(outcome: Outcome<T>): { ok: true } & T {
  if (!outcome.ok) throw refusalProblem(outcome.refusal);
  return outcome;
}
