// Schemas shared by several domains. Each route's TypeBox schemas drive validation, serialization and
// /openapi.json at once.
import { Type, type TSchema } from '@sinclair/typebox';
import { PROBLEM_KINDS } from './errors.js';
import { EMAIL_MAX_LENGTH } from '../lib/email-address.js';

export const ACTIVITY_ID_PATTERN = '^s_[A-Za-z0-9]{8,32}$';

/** Row IDs are 32-bit integers in both databases; a larger number is simply not an ID (and never reaches SQL). */
/** The most rows one page of an operator's list answers (bookings, e-mails, webhook deliveries). */
export const MAX_LIST_LIMIT = 500;

export const MAX_ROW_ID = 2_147_483_647;
export const RowId = (description: string) => Type.Integer({ minimum: 1, maximum: MAX_ROW_ID, description });

export const ActivityIdParams = Type.Object({
  ActivityID: Type.String({ pattern: ACTIVITY_ID_PATTERN, description: 'Activity identifier: s_ and 8 to 32 letters or digits' }),
});

/** One e-mail address (lib/email-address.ts), the same rule for every field that takes one. */
export const EmailAddress = (options: { description?: string } = {}) => Type.String({ format: 'email', maxLength: EMAIL_MAX_LENGTH, ...options });

export const LocalDate = Type.String({ format: 'date', description: 'A calendar date, YYYY-MM-DD' });
export const ClockTime = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'A clock time, HH:MM (00:00 to 23:59)' });

export const Problem = Type.Object(
  {
    type: Type.String({ description: '{problem_base}/{kind}; the page at that address describes the kind' }),
    title: Type.String({ description: 'The HTTP status phrase' }),
    status: Type.Integer(),
    detail: Type.String({ description: 'What went wrong with this request' }),
    instance: Type.String({ description: 'The request path' }),
    requestId: Type.Optional(
      Type.String({ description: 'The X-Request-Id of the answer; every server log line of the request carries it (quote it to support)' }),
    ),
    errors: Type.Optional(
      Type.Array(Type.Object({ field: Type.String(), message: Type.String() }), {
        description: 'Validation problems only: one item per failing field',
      }),
    ),
  },
  { $id: 'Problem', title: 'Problem (RFC 7807)' },
);

const STATUS_DESCRIPTIONS: Record<number, string> = Object.fromEntries(Object.values(PROBLEM_KINDS).map((kind) => [kind.status, kind.title]));

/** Response schemas for the given error statuses, all of them problem+json bodies. */
export function problems(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const status of statuses) {
    out[status] = Type.Ref(Problem, { description: STATUS_DESCRIPTIONS[status] ?? 'Error' });
  }
  return out;
}

/** The errors every authenticated endpoint can answer. */
export const AUTH_ERRORS = [401, 403, 429] as const;

export function envelope<T extends TSchema>(data: T, description?: string) {
  return Type.Object({ data }, description ? { description } : {});
}

export const PartnerParams = Type.Object({
  partner: Type.String({ description: 'The marketplace name; it must be the one bound to the API key' }),
});

export const PartnerActivityParams = Type.Composite([PartnerParams, ActivityIdParams]);

/** A booking's path parameter (bookings, their answers, holds, manifests). */
export const ReferenceParams = Type.Object({
  BookingReference: Type.String({ pattern: '^BK-[A-HJ-NP-Z2-9]{8}$', description: 'A booking reference: BK- and 8 letters or digits' }),
});
