// Exact decimal usage amounts. Amounts travel as integer micro-units (10^-6) in BigInt and decimal
// strings; they never pass through floating point on the way to a sum.

export const MICROS_PER_UNIT = 1_000_000n;
export const MAX_FRACTION_DIGITS = 6;

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * Parses a non-negative decimal ("12", "0.5", "1e-3" as a JSON number's text) to micro-units.
 * Returns undefined when the value is not such a number or has more than six fractional digits.
 */
export function toMicros(value: number | string): bigint | undefined {
  const text = typeof value === 'number' ? numberToPlainString(value) : value.trim();
  if (text === undefined) return undefined;
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const whole = match[1]!;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > MAX_FRACTION_DIGITS) return undefined;
  return BigInt(whole) * MICROS_PER_UNIT + BigInt(fraction.padEnd(MAX_FRACTION_DIGITS, '0'));
}

/** The shortest decimal text of a finite non-negative JSON number, without exponent. */
function numberToPlainString(value: number): string | undefined {
  if (!Number.isFinite(value) || value < 0) return undefined;
  const text = String(value);
  if (!text.includes('e')) return text;
  // e.g. 1e-7 or 1e+21: toFixed/toLocaleString would round; expand the exponent by hand.
  const [mantissa, exponentText] = text.split('e') as [string, string];
  const exponent = Number(exponentText);
  const [intPart, fracPart = ''] = mantissa.split('.') as [string, string?];
  const digits = intPart + fracPart;
  const point = intPart.length + exponent;
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return digits + '0'.repeat(point - digits.length);
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** Micro-units back to a decimal string with no trailing zeros ("100000", "0.1"). */
export function microsToDecimalString(micros: bigint | string): string {
  const value = BigInt(micros);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / MICROS_PER_UNIT;
  const fraction = (abs % MICROS_PER_UNIT).toString().padStart(MAX_FRACTION_DIGITS, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

const MAX_SAFE_MICROS = BigInt(Number.MAX_SAFE_INTEGER);

/** Micro-units as a JSON number: exact up to 15 significant digits, which is what the API promises. */
export function microsToNumber(micros: bigint | string): number {
  const value = BigInt(micros);
  // Below 2^53 both operands are exact doubles and IEEE division rounds once, to the double nearest the
  // exact quotient: the same double as parsing the decimal text, without building the text.
  if (value <= MAX_SAFE_MICROS && value >= -MAX_SAFE_MICROS) return Number(value) / 1e6;
  return Number(microsToDecimalString(value));
}

export function addDecimalStrings(a: string, b: string): string {
  return (BigInt(a) + BigInt(b)).toString();
}
