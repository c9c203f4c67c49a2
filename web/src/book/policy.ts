// The activity's cancellation and refund policy and its rule for changing the time, in the guest's words,
// shown before they pay (the activity's page and the basket): until when they may cancel or move their
// booking online, and what each moment of cancelling gives back. The cancellation sentences are the ones
// the guest's confirmation e-mail states (src/lib/guest-messages.ts).
import { policySentences as sentences } from '../../../src/lib/guest-messages';
import type { Activity } from './api';
import { t } from './app';

/** The policy's sentences: whether and until when they may cancel, then what they get back. */
export function policySentences(policy: Activity['GuestCancellation']): string[] {
  return sentences(t, policy);
}

/** Whether and until when guests may move their own booking to another time (GuestRescheduleHours). */
export function rescheduleSentence(rule: Activity['GuestReschedule']): string {
  return rule === null ? t.rescheduleRuleNone : t.rescheduleRuleUntil(rule.HoursBefore);
}
