// Unit tests of the exact decimal helpers: no floating point between a client's text and a sum.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDecimalStrings, microsToDecimalString, microsToNumber, toMicros } from '../../src/lib/decimal.js';

describe('toMicros', () => {
  it('parses plain decimals from numbers and strings', () => {
    expect(toMicros(0.1)).toBe(100_000n);
    expect(toMicros('0.1')).toBe(100_000n);
    expect(toMicros(12)).toBe(12_000_000n);
    expect(toMicros('0.000001')).toBe(1n);
    expect(toMicros(' 7.5 ')).toBe(7_500_000n);
    expect(toMicros('1000000000000')).toBe(1_000_000_000_000_000_000n);
  });

  it('ignores trailing zeros, also beyond the sixth fractional digit', () => {
    expect(toMicros('1.500000000')).toBe(1_500_000n);
    expect(toMicros('2.0')).toBe(2_000_000n);
    expect(toMicros('0.0000010')).toBe(1n);
  });

  it('rejects more than six significant fractional digits', () => {
    expect(toMicros('0.0000001')).toBeUndefined();
    expect(toMicros(0.1234567)).toBeUndefined();
    expect(toMicros('1.0000001')).toBeUndefined();
  });

  it('expands exponent notation of JSON numbers exactly', () => {
    expect(toMicros(1e-7)).toBeUndefined(); // 0.0000001: seven digits
    expect(toMicros(1e-6)).toBe(1n);
    expect(toMicros(1.5e-6)).toBeUndefined();
    expect(toMicros(1e21)).toBe(10n ** 21n * 1_000_000n);
    expect(toMicros(1.25e22)).toBe(125n * 10n ** 20n * 1_000_000n);
  });

  it('rejects exponent notation, signs and anything else in strings', () => {
    for (const text of ['1e-7', '1e3', 'abc', '', ' ', '-1', '+1', '.5', '5.', '1,5', '0x10', 'NaN', 'Infinity', '1 000']) {
      expect(toMicros(text), text).toBeUndefined();
    }
  });

  it('rejects negative and non-finite numbers', () => {
    expect(toMicros(-1)).toBeUndefined();
    expect(toMicros(-0.5)).toBeUndefined();
    expect(toMicros(Number.NaN)).toBeUndefined();
    expect(toMicros(Number.POSITIVE_INFINITY)).toBeUndefined();
    expect(toMicros(0)).toBe(0n); // the "> 0" rule is the caller's
  });
});

describe('micro-units back to decimals', () => {
  it('prints without trailing zeros', () => {
    expect(microsToDecimalString(100_000n)).toBe('0.1');
    expect(microsToDecimalString('100000000000')).toBe('100000');
    expect(microsToDecimalString(1n)).toBe('0.000001');
    expect(microsToDecimalString(0n)).toBe('0');
    expect(microsToDecimalString(-1_500_000n)).toBe('-1.5');
  });

  it('converts to the nearest JSON number', () => {
    expect(microsToNumber(1_000_000_000n)).toBe(1000);
    expect(microsToNumber('1000000000000000000')).toBe(1e12);
    expect(microsToNumber(123_456n)).toBe(0.123456);
  });

  it('gives the number of the decimal text, on both sides of 2^53 micro-units', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 60n), max: 2n ** 60n }), (micros) => {
        expect(microsToNumber(micros)).toBe(Number(microsToDecimalString(micros)));
      }),
      { numRuns: 20_000 },
    );
    for (const micros of [2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, 9_007_199_254_740_993n, 1_000_000_000_000_000_000n]) {
      expect(microsToNumber(micros)).toBe(Number(microsToDecimalString(micros)));
    }
  });

  it('adds integer strings beyond 2^64 exactly', () => {
    expect(addDecimalStrings('9223372036854775807', '9223372036854775807')).toBe('18446744073709551614');
    expect(addDecimalStrings('0', '100000')).toBe('100000');
  });
});
