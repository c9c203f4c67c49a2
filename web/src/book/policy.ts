// The activity's cancellation and refund policy and its rule for changing the time, in the guest's words,
// shown before they pay (the activity's page and the basket): until when they may cancel or move their
// booking online, and what each moment of cancelling gives back.
import type { Activity } from './api';
import { t } from './app';

/** The policy's sentences: whether and until when they may cancel, then what they get back. */
export function policySentences(policy: Activity['GuestCancellation']): string[] {
  if (policy === null) return [t.policyNone];
  const until = t.policyUntil(policy.HoursBefore);
  if (policy.Refunds.length === 0) return [until, t.policyAllBack];
  // Largest HoursBefore first: once a rule reaches the close of online cancellation, the later ones never
  // apply; when none reaches it, the time between the last rule and the close gives nothing back.
  const closing = policy.Refunds.findIndex((rule) => rule.HoursBefore <= policy.HoursBefore);
  const rules = closing === -1 ? policy.Refunds : policy.Refunds.slice(0, closing + 1);
  const parts = rules.map((rule) => t.policyRule(rule.Percent, rule.HoursBefore));
  if (closing === -1) parts.push(t.policyNothingLater);
  return [until, `${parts.join(', ')}.`];
}

/** Whether and until when guests may move their own booking to another time (GuestRescheduleHours). */
export function rescheduleSentence(rule: Activity['GuestReschedule']): string {
  return rule === null ? t.rescheduleRuleNone : t.rescheduleRuleUntil(rule.HoursBefore);
}
