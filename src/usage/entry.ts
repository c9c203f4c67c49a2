// The fine rules of a usage entry sent by a client (contract "Usage"). The route's schema checks presence
// and JSON types; this checks the rest, for every field the schema did not already reject, so that one
// 422 names every failing field.
import { ValidationFailed, type FieldError } from '../http/errors.js';
import { toMicros } from '../lib/decimal.js';
import { invisibleCharacter, isReservedMeter, MAX_METER_LENGTH } from './meters.js';
import { asUnixSeconds, type UnixSeconds } from '../lib/clock.js';

export const MAX_USAGE_MICROS = 1_000_000_000_000n * 1_000_000n; // 1e12 units
export const MAX_OCCURRED_AT = 253_402_300_799; // 9999-12-31T23:59:59Z
export const MAX_EXTRA_INFO_LENGTH = 65_536;
// A valid amount has at most 13 integer and 6 fractional digits; leading zeros and spaces get room, and
// nothing longer reaches BigInt.
const MAX_USAGE_TEXT = 64;

export interface UsageEntryInput {
  meter: string;
  micros: bigint;
  extraInfo: string | null;
  occurredAt: UnixSeconds;
}

/**
 * One entry's findings: the schema's and the fine rules', or the entry ready to store. `prefix` says where
 * the entry sits in the body ("" for POST /meters, "Entries[3]." in a batch); every message names its
 * field in full, so that a batch's 422 says which entry failed.
 */
export type EntryCheck = { entry: UsageEntryInput; errors: [] } | { entry: undefined; errors: FieldError[] };

/**
 * `schemaErrors` are the route schema's findings about this entry (fields named with the prefix);
 * `now` (Unix seconds) is the default OccurredAt.
 */
export function checkUsageEntry(body: unknown, schemaErrors: FieldError[], now: UnixSeconds, prefix = ''): EntryCheck {
  const errors = [...schemaErrors];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    const where = prefix === '' ? 'Body' : prefix.replace(/\.$/, '');
    return { entry: undefined, errors: errors.length > 0 ? errors : [{ field: where, message: `${where} must be object` }] };
  }
  const failed = new Set(schemaErrors.map((error) => error.field));
  const fields = body as Record<string, unknown>;
  // Each rule's message starts with the field's own name, so the prefix makes it the full path.
  const fine = (field: string, check: () => string | undefined) => {
    if (failed.has(prefix + field)) return;
    const message = check();
    if (message) errors.push({ field: prefix + field, message: prefix + message });
  };

  const meter = typeof fields.Meter === 'string' ? fields.Meter.trim() : '';
  fine('Meter', () => checkMeter(fields.Meter, meter));
  const micros = typeof fields.Usage === 'number' || typeof fields.Usage === 'string' ? usageMicros(fields.Usage) : undefined;
  fine('Usage', () => checkUsage(micros));
  const occurredAt = fields.OccurredAt === undefined ? now : unixSeconds(fields.OccurredAt);
  fine('OccurredAt', () => (occurredAt === undefined ? `OccurredAt must be an integer of Unix seconds from 0 to ${MAX_OCCURRED_AT}` : undefined));
  const extraInfo = typeof fields.ExtraInfo === 'string' ? fields.ExtraInfo : null;
  fine('ExtraInfo', () =>
    extraInfo !== null && characterCount(extraInfo) > MAX_EXTRA_INFO_LENGTH
      ? `ExtraInfo must be at most ${MAX_EXTRA_INFO_LENGTH.toLocaleString('en')} characters`
      : undefined,
  );

  if (errors.length > 0) return { entry: undefined, errors };
  return { entry: { meter, micros: micros!, extraInfo, occurredAt: occurredAt! }, errors: [] };
}

/** One entry (POST /meters): the entry, or a 422 naming every failing field. */
export function parseUsageEntry(body: unknown, schemaErrors: FieldError[], now: UnixSeconds): UsageEntryInput {
  const { entry, errors } = checkUsageEntry(body, schemaErrors, now);
  if (!entry) throw new ValidationFailed(errors);
  return entry;
}

function checkMeter(raw: unknown, meter: string): string | undefined {
  if (typeof raw !== 'string' || meter === '') return 'Meter must not be empty';
  if (characterCount(meter) > MAX_METER_LENGTH) return `Meter must be at most ${MAX_METER_LENGTH} characters`;
  const invisible = invisibleCharacter(meter);
  if (invisible) return `Meter must not contain control, format or other invisible characters (found ${invisible})`;
  if (isReservedMeter(meter)) return `Meter "${meter}" is, or reads as, a built-in meter, recorded by the platform only`;
  return undefined;
}

function usageMicros(value: number | string): bigint | undefined {
  if (typeof value === 'string' && value.length > MAX_USAGE_TEXT) return undefined;
  return toMicros(value);
}

function checkUsage(micros: bigint | undefined): string | undefined {
  if (micros === undefined) return 'Usage must be a number greater than 0 with at most 6 fractional digits';
  if (micros <= 0n) return 'Usage must be greater than 0';
  if (micros > MAX_USAGE_MICROS) return 'Usage must be at most 1e12';
  return undefined;
}

function unixSeconds(value: unknown): UnixSeconds | undefined {
  const seconds = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d{1,15}\s*$/.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(seconds) && seconds >= 0 && seconds <= MAX_OCCURRED_AT ? asUnixSeconds(seconds) : undefined;
}

/** Characters as people count them (code points), so that an emoji is one, not two. */
function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
