import { Type, type Static } from '@sinclair/typebox';
import { LocalDate, RowId } from '../http/schemas.js';
import { MAX_BATCH_ENTRIES } from './batch.js';

// Usage and OccurredAt accept a JSON number or a string, and are not coerced by the schema, so that a
// decimal sent as text keeps every digit; their fine rules (range, digits) are checked in entry.ts.
export const RecordUsageBody = Type.Object({
  Meter: Type.String({ description: 'Meter name, 1 to 255 characters once trimmed (stored trimmed). The built-in meter names are reserved.' }),
  Usage: Type.Union([Type.Number(), Type.String()], {
    description:
      'Greater than 0, at most 1e12, at most 6 fractional digits; a JSON number or a string holding a decimal (send a string to keep more than 15 significant digits)',
    examples: [12.5, '0.000001'],
  }),
  ExtraInfo: Type.Optional(
    Type.Union([Type.String(), Type.Null()], { description: 'Free metadata, e.g. a JSON-encoded payload; at most 65,536 characters' }),
  ),
  OccurredAt: Type.Optional(
    Type.Union([Type.Integer(), Type.String()], { description: 'Unix seconds, 0 to 253402300799, as an integer or integer string; default: now' }),
  ),
});

export const UsageEntry = Type.Object(
  {
    ID: Type.Integer(),
    Meter: Type.String(),
    Usage: Type.Number(),
    OccurredAt: Type.Integer({ description: 'Unix seconds' }),
  },
  { $id: 'UsageEntry' },
);
export type UsageEntry = Static<typeof UsageEntry>;

export const RecordUsageBatchBody = Type.Object({
  Entries: Type.Array(RecordUsageBody, {
    minItems: 1,
    maxItems: MAX_BATCH_ENTRIES,
    description: '1 to 1,000 usage entries, each with the fields and rules of POST /api/v2/usage/meters',
  }),
});

export const RecordedUsageBatch = Type.Object(
  {
    Count: Type.Integer({ description: 'How many entries were stored: all of the batch' }),
    Entries: Type.Array(UsageEntry, { description: 'The stored entries, in the order sent, each with its ID' }),
  },
  { $id: 'RecordedUsageBatch' },
);
export type RecordedUsageBatch = Static<typeof RecordedUsageBatch>;

export const StoredUsageEntry = Type.Composite([UsageEntry, Type.Object({ ExtraInfo: Type.Union([Type.String(), Type.Null()]) })], {
  $id: 'StoredUsageEntry',
});
export type StoredUsageEntry = Static<typeof StoredUsageEntry>;

export const UsageEntryParams = Type.Object({ ID: RowId('The usage entry ID') });

export const SummaryQuery = Type.Object({
  from: Type.String({ ...LocalDate, description: 'First UTC day, YYYY-MM-DD, from 00:00:00' }),
  to: Type.String({ ...LocalDate, description: 'Last UTC day, YYYY-MM-DD, through 23:59:59; on or after from' }),
});

const Period = Type.Object({
  From: Type.String(),
  To: Type.String(),
  FromTimestamp: Type.Integer({ description: 'Unix seconds of From 00:00:00 UTC' }),
  ToTimestamp: Type.Integer({ description: 'Unix seconds of To 23:59:59 UTC' }),
});
export type Period = Static<typeof Period>;

const MeterTotal = Type.Object({ Meter: Type.String(), TotalUsage: Type.Number(), EventCount: Type.Integer() });

export const UsageSummary = Type.Object(
  {
    Period,
    Totals: Type.Object({ Usage: Type.Number(), Events: Type.Integer() }),
    Meters: Type.Array(MeterTotal, {
      description: 'One item per meter with entries in the period, by TotalUsage descending, then by Meter',
    }),
  },
  { $id: 'UsageSummary' },
);
export type UsageSummary = Static<typeof UsageSummary>;

export const DailyUsage = Type.Object(
  {
    Period,
    Days: Type.Array(
      Type.Object({ Date: Type.String({ description: 'UTC day' }), Meters: Type.Array(MeterTotal, { description: 'By Meter name' }) }),
      { description: 'Days with usage, ascending; days without usage are left out' },
    ),
  },
  { $id: 'DailyUsage' },
);
export type DailyUsage = Static<typeof DailyUsage>;
