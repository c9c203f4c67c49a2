// A batch of usage entries (POST /api/v2/usage/meters/batch): all of them are stored, or none. Every
// entry is checked by the same rules as a single POST (entry.ts), and the 422 names every failing field
// of every entry at once, as Entries[3].Usage, so a client fixes its whole batch in one round trip.
import { ValidationFailed, type FieldError } from '../http/errors.js';
import { checkUsageEntry, type UsageEntryInput } from './entry.js';
import type { UnixSeconds } from '../lib/clock.js';

/** The most entries one batch takes: with a typical entry of ~100 bytes, well inside the 1 MiB body limit. */
export const MAX_BATCH_ENTRIES = 1000;

const ENTRY_FIELD = /^Entries\[(\d+)\]/;

/**
 * The batch's entries ready to store, or a 422. `schemaErrors` are the route schema's findings, named
 * as fieldErrors names them (Entries, Entries[3], Entries[3].Usage); `now` is the default OccurredAt.
 */
export function parseUsageBatch(body: unknown, schemaErrors: FieldError[], now: UnixSeconds): UsageEntryInput[] {
  const byEntry = new Map<number, FieldError[]>();
  const aboutBatch: FieldError[] = [];
  for (const error of schemaErrors) {
    const index = ENTRY_FIELD.exec(error.field)?.[1];
    if (index === undefined) aboutBatch.push(error);
    else byEntry.set(Number(index), [...(byEntry.get(Number(index)) ?? []), error]);
  }
  // No Entries array, or too few or too many: the entries are not looked at one by one.
  if (aboutBatch.length > 0) throw new ValidationFailed([...aboutBatch, ...schemaErrors.filter((error) => !aboutBatch.includes(error))]);
  const raw = (body as { Entries?: unknown } | null)?.Entries;
  if (!Array.isArray(raw)) throw ValidationFailed.field('Entries', 'Entries is required');

  const entries: UsageEntryInput[] = [];
  const errors: FieldError[] = [];
  raw.forEach((item, index) => {
    const check = checkUsageEntry(item, byEntry.get(index) ?? [], now, `Entries[${index}].`);
    if (check.entry) entries.push(check.entry);
    else errors.push(...check.errors);
  });
  if (errors.length > 0) throw new ValidationFailed(errors);
  return entries;
}
