// The octo/pricing capability: every ticket type has its price (minor units of the activity's Currency),
// and slotbook knows no taxes or commission, so retail = original and net is null. Prices are per unit
// (pricingPer UNIT): a unit is a ticket type, a unit item one ticket.
import type { ActivityRow } from '../../catalog/index.js';
import type { TicketTypeRow } from '../../catalog/index.js';
import type { Pricing, PricingUnit } from './schemas.js';

/** Digits after the decimal point of a currency's minor unit (2 for EUR, 0 for JPY). */
export function currencyPrecision(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** An amount in minor units of `currency`. */
export function pricing(amount: number, currency: string): Pricing {
  return { original: amount, retail: amount, net: null, currency, currencyPrecision: currencyPrecision(currency), includedTaxes: [] };
}

/** Each ticket type's price, as OCTo's unitPricing (availability) and unitPricingFrom (calendar). */
export const unitPricingOf = (activity: ActivityRow, types: TicketTypeRow[]): PricingUnit[] =>
  types.map((type) => ({ unitId: type.code, ...pricing(type.price, activity.currency) }));

/** The lowest price a booking's ticket can cost: the option's pricingFrom. */
export function lowestPriceOf(activity: ActivityRow, types: TicketTypeRow[]): Pricing {
  const prices = types.map((type) => type.price);
  return pricing(prices.length > 0 ? Math.min(...prices) : activity.unit_price, activity.currency);
}
