// Who may cancel or move a booking, and until when: ONE table, per kind of caller. The lifecycle's commands
// (commands.ts, move.ts) decide with it inside their transaction, on the booking as it is there, and
// answer a refusal code; each channel maps the code to its own error model and checks nothing itself.
//
// One definition of "started": the timeslot's start (starts_at, its wall-clock start in its zone) has come.
// A timeslot sold by opening hours has started at its opening, though it is sold until it closes.
import type { BookingStatus } from '../schemas.js';
import type { Refusal } from './refusals.js';
import type { UnixSeconds } from '../../lib/clock.js';

/** Who asks: the operator's staff (or admin key), a marketplace through its interface, or the guest's own link. */
export type CallerKind = 'staff' | 'partner' | 'octo' | 'getyourguide' | 'viator' | 'guest';
export type PolicyAction = 'cancel' | 'move';

interface Rule {
  /** Whether the caller may do it at all. */
  allowed: boolean;
  /** Only a confirmed booking (a guest has no holds to change). */
  confirmedOnly: boolean;
  /** Until when: any time while it is live, until the start, or until the guest's hours before the start. */
  until: 'any-time' | 'start' | 'guest-hours';
  /** Whether it may still be done once someone of it was checked in (redeemed). */
  afterCheckIn: boolean;
}

const MARKETPLACE: Record<PolicyAction, Rule> = {
  cancel: { allowed: true, confirmedOnly: false, until: 'start', afterCheckIn: false },
  move: { allowed: true, confirmedOnly: false, until: 'start', afterCheckIn: false },
};

/** The policy. Staff may cancel any live booking at any time (a no-show, a refund at the desk), and move one until it starts. */
export const POLICY: Record<CallerKind, Record<PolicyAction, Rule>> = {
  staff: {
    cancel: { allowed: true, confirmedOnly: false, until: 'any-time', afterCheckIn: true },
    move: { allowed: true, confirmedOnly: false, until: 'start', afterCheckIn: true },
  },
  partner: MARKETPLACE,
  octo: MARKETPLACE,
  getyourguide: MARKETPLACE,
  viator: MARKETPLACE,
  guest: {
    cancel: { allowed: true, confirmedOnly: true, until: 'guest-hours', afterCheckIn: false },
    move: { allowed: true, confirmedOnly: true, until: 'guest-hours', afterCheckIn: false },
  },
};

/** What the decision depends on, read in the command's transaction. */
export interface BookingFacts {
  /** The effective status (a lapsed hold is expired). */
  status: BookingStatus;
  /** The timeslot's start, Unix seconds. */
  startsAt: UnixSeconds;
  checkedIn: boolean;
  /** The activity's GuestCancelHours or GuestRescheduleHours (for the action asked); null: guests may not. */
  guestHours: number | null;
}

/** Until when (Unix seconds) the caller may do it, by the rule alone; null: never; Infinity: any time. */
function deadline(kind: CallerKind, action: PolicyAction, facts: Pick<BookingFacts, 'startsAt' | 'guestHours'>): number | null {
  const rule = POLICY[kind][action];
  if (!rule.allowed) return null;
  if (rule.until === 'any-time') return Number.POSITIVE_INFINITY;
  if (rule.until === 'start') return facts.startsAt;
  return facts.guestHours === null ? null : facts.startsAt - facts.guestHours * 3600;
}

/**
 * Why the caller may not cancel or move the booking now, or undefined when it may. The booking must be live
 * (a cancelled or expired one answers booking.cancelled or booking.expired: the caller decides whether that
 * is an error or the same answer again).
 */
export function refusalOf(kind: CallerKind, action: PolicyAction, facts: BookingFacts, now: UnixSeconds): Refusal | undefined {
  const rule = POLICY[kind][action];
  const doing = action === 'cancel' ? 'cancelled' : 'moved';
  if (facts.status === 'cancelled') return { code: 'booking.cancelled', message: 'The booking is cancelled' };
  if (facts.status === 'expired') return { code: 'booking.expired', message: 'The hold of the booking has expired; its seats are released' };
  if (rule.confirmedOnly && facts.status !== 'confirmed')
    return { code: 'booking.not-confirmed', message: `Only a confirmed booking can be ${doing} this way` };
  // Letting a hold go is always allowed to whoever may cancel: it only gives seats back.
  if (action === 'cancel' && facts.status === 'on_hold') return undefined;
  if (!rule.afterCheckIn && facts.checkedIn)
    return { code: 'booking.checked-in', message: `The booking was redeemed (guests were checked in) and can no longer be ${doing}` };
  const until = deadline(kind, action, facts);
  if (until === null) return { code: 'booking.not-allowed', message: `The operator does not let this booking be ${doing} online` };
  if (rule.until === 'start' && now >= until) return { code: 'booking.started', message: `The booking has started and can no longer be ${doing}` };
  if (now > until)
    return {
      code: 'booking.cut-off-passed',
      message: `The time to have the booking ${doing} online closed at ${new Date(until * 1000).toISOString()}`,
    };
  return undefined;
}
