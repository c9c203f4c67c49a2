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
