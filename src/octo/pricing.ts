// The octo/pricing capability: slotbook has one price per participant (the activity's UnitPrice, in minor
// units of its Currency) and no taxes or commission it knows of, so retail = original and net is null.
import type { ActivityRow } from '../catalog/store.js';
import type { Pricing, PricingUnit } from './schemas.js';
import { UNIT_ID } from './terms.js';

/** Digits after the decimal point of a currency's minor unit (2 for EUR, 0 for JPY). */
export function currencyPrecision(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** The price of `participants` seats of the activity. */
export function priceOf(activity: ActivityRow, participants = 1): Pricing {
  const amount = activity.unit_price * participants;
  return { original: amount, retail: amount, net: null, currency: activity.currency, currencyPrecision: currencyPrecision(activity.currency), includedTaxes: [] };
}

export const unitPriceOf = (activity: ActivityRow): PricingUnit => ({ unitId: UNIT_ID, ...priceOf(activity) });
