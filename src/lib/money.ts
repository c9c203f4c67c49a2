// Amounts as the API writes them to people: decimal text in a currency's major units ("12.50" EUR,
// "1500" JPY), and back to the minor units slotbook and Stripe count in. No floating point on the way.

/** How many minor digits the currency has (2 for EUR, 0 for JPY; 2 for a code Intl does not know). */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** "12.5" EUR -> 1250; undefined when the text is not a plain decimal or has more digits than the currency's. */
export function parseMinorUnits(text: string, currency: string): number | undefined {
  const match = /^(\d{1,12})(?:\.(\d+))?$/.exec(text);
  if (!match) return undefined;
  const digits = minorDigits(currency);
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > digits) return undefined;
  return Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
}

/** 1250 EUR -> "12.50"; 1500 JPY -> "1500". */
export function formatMinorUnits(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  const text = String(Math.abs(minor)).padStart(digits + 1, '0');
  const sign = minor < 0 ? '-' : '';
  return digits === 0 ? `${sign}${text}` : `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/**
 * The least a card payment may be in a currency, in its major units, as Stripe publishes it ("Minimum and
 * maximum charge amounts", docs.stripe.com/currencies). Below it Stripe refuses to make the payment at all,
 * so slotbook never asks: a deposit below it is no deposit, and a payment below it is refused with a 422
 * before Stripe is called. Currencies not listed have a minimum worth about 0.50 USD that moves with the
 * exchange rate: Stripe's own answer decides for them.
 */
const MINIMUM_CARD_CHARGES: Record<string, string> = {
  AED: '2.00',
  AUD: '0.50',
  BGN: '1.00',
  BRL: '0.50',
  CAD: '0.50',
  CHF: '0.50',
  CZK: '15.00',
  DKK: '2.50',
  EUR: '0.50',
  GBP: '0.30',
  HKD: '4.00',
  HUF: '175.00',
  INR: '0.50',
  JPY: '50',
  MXN: '10',
  MYR: '2',
  NOK: '3.00',
  NZD: '0.50',
  PLN: '2.00',
  RON: '2.00',
  SEK: '3.00',
  SGD: '0.50',
  THB: '10',
  USD: '0.50',
};

/** The least a card payment may be in `currency`, minor units; 1 where slotbook knows no minimum. */
export function minimumCardCharge(currency: string): number {
  const listed = MINIMUM_CARD_CHARGES[currency.toUpperCase()];
  return (listed === undefined ? undefined : parseMinorUnits(listed, currency)) ?? 1;
}
