// Deposits per activity (docs/payments.md, "Deposits and balances"): pay in full, or a deposit per booking,
// a percentage of its price or a fixed amount. The activity's settings as the API shows and takes them,
// and `depositOf`, the one computation of what the shop charges for a booking when it is added.
import { ValidationFailed } from '../http/errors.js';
import { formatMinorUnits, minimumCardCharge, parseMinorUnits } from '../lib/money.js';
import type { ActivityRow } from './store.js';
import type { DepositSetting } from './schemas.js';

type DepositColumns = Pick<ActivityRow, 'deposit_percent' | 'deposit_amount'>;

/** The columns of a Deposit as sent (null: pay in full); 422 naming Deposit.Amount for an amount the currency cannot have. */
export function depositColumns(deposit: DepositSetting | null, currency: string): { deposit_percent: number | null; deposit_amount: number | null } {
  if (deposit === null) return { deposit_percent: null, deposit_amount: null };
  if ('Percent' in deposit) return { deposit_percent: deposit.Percent, deposit_amount: null };
  const amount = parseMinorUnits(deposit.Amount, currency);
  if (amount === undefined)
    throw ValidationFailed.field('Deposit.Amount', `Deposit.Amount must be a decimal with at most the minor digits of ${currency}`);
  if (amount <= 0) throw ValidationFailed.field('Deposit.Amount', 'Deposit.Amount must be more than 0');
  const least = minimumCardCharge(currency);
  if (amount < least)
    throw ValidationFailed.field(
      'Deposit.Amount',
      `Deposit.Amount must be at least ${formatMinorUnits(least, currency)} ${currency}: card payments cannot be smaller (Stripe's minimum charge)`,
    );
  return { deposit_percent: null, deposit_amount: amount };
}

export function depositView(row: DepositColumns & { currency: string }): DepositSetting | null {
  if (row.deposit_percent !== null && row.deposit_percent !== undefined) return { Percent: Number(row.deposit_percent) };
  if (row.deposit_amount !== null && row.deposit_amount !== undefined) return { Amount: formatMinorUnits(Number(row.deposit_amount), row.currency) };
  return null;
}

/**
 * What the shop charges now for a booking of `total` (minor units of `currency`): its deposit, or null to
 * charge it all. A percentage is rounded half up to the currency's minor unit; a fixed amount is at most the
 * price. A deposit that would be the whole price (or a price of 0) is no deposit, and so is one below the
 * least a card payment may be in the currency (a small percentage of a cheap booking): it is paid in full.
 */
export function depositOf(row: DepositColumns, total: number, currency: string): number | null {
  let deposit: number | null = null;
  if (row.deposit_percent !== null && row.deposit_percent !== undefined) deposit = Math.floor((total * Number(row.deposit_percent) + 50) / 100);
  else if (row.deposit_amount !== null && row.deposit_amount !== undefined) deposit = Math.min(Number(row.deposit_amount), total);
  return deposit === null || deposit >= total || deposit < minimumCardCharge(currency) ? null : deposit;
}
