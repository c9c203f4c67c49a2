// An activity's refund policy for guests who cancel their own booking (docs/payments.md, "Refunds by the
// rules"): rules of "at least HoursBefore hours before the start: Percent back". The rule that applies is
// the one with the largest HoursBefore the cancellation still comes before; after them all, nothing. No
// rules at all means the whole amount, which is what guests got before the rules existed.
import type { FieldError } from '../http/errors.js';
import type { ActivityRow } from './store.js';
import type { RefundRule } from './schemas.js';
import type { UnixSeconds } from '../lib/clock.js';

/** The rules stored for the activity, largest HoursBefore first. */
export const refundRulesOf = (row: Pick<ActivityRow, 'guest_refund_rules'>): RefundRule[] => JSON.parse(row.guest_refund_rules) as RefundRule[];

/** The rules as stored: largest HoursBefore first, so that reading them is reading the policy in time order. */
export const storedRefundRules = (rules: RefundRule[]): string =>
  JSON.stringify([...rules].sort((a, b) => b.HoursBefore - a.HoursBefore).map(({ HoursBefore, Percent }) => ({ HoursBefore, Percent })));

/** Each HoursBefore once: two rules for the same moment would contradict each other. */
export function refundRuleErrors(rules: RefundRule[] | undefined): FieldError[] {
  if (rules === undefined) return [];
  const seen = new Set<number>();
  for (const rule of rules) {
    if (seen.has(rule.HoursBefore))
      return [{ field: 'GuestRefundRules', message: `GuestRefundRules names HoursBefore ${rule.HoursBefore} twice; each moment may have one rule` }];
    seen.add(rule.HoursBefore);
  }
  return [];
}

/** The percentage of what was paid that a cancellation at `now` (Unix seconds) gets back, for a start at `startsAt`. */
export function refundPercent(rules: RefundRule[], startsAt: UnixSeconds, now: UnixSeconds): number {
  if (rules.length === 0) return 100;
  const hoursLeft = (startsAt - now) / 3600;
  return rules.find((rule) => hoursLeft >= rule.HoursBefore)?.Percent ?? 0;
}

/**
 * What a cancellation refunds of a booking that paid `paid` (minor units) and got `refunded` back already: the
 * percentage of the paid amount, rounded to the nearest minor unit (halves up), less what went back before.
 */
export const refundAmount = (paid: number, refunded: number, percent: number): number => Math.max(0, Math.round((paid * percent) / 100) - refunded);
