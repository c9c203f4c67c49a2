// A card payment below Stripe's minimum charge is refused by Stripe whatever is retried, so it is refused
// here first, clearly, before any session is made (lib/money.ts has the table).
import { ValidationFailed } from '../../../http/errors.js';
import { formatMinorUnits, minimumCardCharge } from '../../../lib/money.js';

/** 422 naming `field` when `amount` (minor units) is less than a card payment may be in `currency`. */
export function refuseBelowCardMinimum(amount: number, currency: string, field: string): void {
  const least = minimumCardCharge(currency);
  if (amount >= least) return;
  throw ValidationFailed.field(
    field,
    `${formatMinorUnits(amount, currency)} ${currency} is less than a card payment may be (${formatMinorUnits(least, currency)} ${currency}, ` +
      "Stripe's minimum charge); nothing was charged. Pay it at the desk, or ask the shop.",
  );
}
