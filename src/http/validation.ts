// Request validation. Query strings and path parameters are text, so their schemas coerce ("5" -> 5);
// JSON bodies are validated exactly as sent, so `"Participants": "3"` is an error and a decimal sent as a
// string keeps every digit. Every failing field is reported, not only the first.
import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldError } from './errors.js';
import { isEmailAddress } from '../lib/email-address.js';

function makeAjv(coerceTypes: 'array' | false): Ajv {
  const ajv = new Ajv({ coerceTypes, useDefaults: true, allErrors: true, verbose: true, removeAdditional: false, strict: false });
  addFormats.default(ajv, ['date', 'date-time']);
  // The one e-mail rule (lib/email-address.ts), which channels that check an address by hand share.
  ajv.addFormat('email', isEmailAddress);
  return ajv;
}

const forText = makeAjv('array');
const forBody = makeAjv(false);

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? forBody : forText).compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;

/**
 * At most this many fields are listed in one 422: a 1 MiB body of 20,000 empty objects would otherwise
 * be answered with megabytes of errors. A whole usage batch (1,000 entries) still fits.
 */
export const MAX_LISTED_FIELDS = 1_000;

/** Turns Ajv's errors into one message per field, named the way the API names it (the first MAX_LISTED_FIELDS). */
export function fieldErrors(errors: ErrorObject[]): FieldError[] {
  const byField = new Map<string, ErrorObject[]>();
  // An if/then fails with the findings of its `then` (e.g. a conditionally required field) and one more
  // error about the object as a whole, which names no field: those findings say it all.
  for (const error of errors.filter((e) => e.keyword !== 'if')) {
    const field = fieldName(error);
    const same = byField.get(field);
    if (same) same.push(error);
    else if (byField.size < MAX_LISTED_FIELDS) byField.set(field, [error]);
  }
  return [...byField].map(([field, fieldErrs]) => ({ field, message: `${field} ${describe(fieldErrs)}` }));
}

function fieldName(error: ErrorObject): string {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') segments.push(String(error.params.missingProperty));
  const path = segments.reduce((out, segment) => (/^\d+$/.test(segment) ? `${out}[${segment}]` : out ? `${out}.${segment}` : segment), '');
  // An error about the request body as a whole (absent, or not an object) is reported on the field "Body".
  return path || 'Body';
}

function describe(errors: ErrorObject[]): string {
  const required = errors.find((e) => e.keyword === 'required');
  if (required) return 'is required';
  // A union (e.g. a number or a numeric string) fails once per branch: name the types it accepts.
  const types = [...new Set(errors.filter((e) => e.keyword === 'type').map((e) => String(e.params.type)))];
  if (errors.some((e) => e.keyword === 'anyOf') && types.length > 0) return `must be ${types.join(' or ')}`;
  const first = errors.find((e) => e.keyword !== 'anyOf') ?? errors[0]!;
  if (first.keyword === 'pattern' && first.parentSchema && typeof first.parentSchema.description === 'string') {
    return `must be ${first.parentSchema.description.charAt(0).toLowerCase()}${first.parentSchema.description.slice(1)}`;
  }
  return sentence(first) ?? first.message ?? 'is invalid';
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
};

const FORMAT_WORDS: Record<string, string> = {
  email: 'an e-mail address, such as ada@example.com',
  date: 'a date written YYYY-MM-DD, such as 2026-05-01',
  'date-time': 'a date and time in ISO 8601, such as 2026-05-01T09:00:00Z',
};

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

/**
 * The common findings as a person would say them ("must be an e-mail address"), not as the schema
 * language does (`must match format "email"`): the dashboard shows these next to its fields, and an
 * integrator reads them in a log. Anything not listed keeps Ajv's own words.
 */
function sentence(error: ErrorObject): string | undefined {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return `must be ${String(params.type)
        .split(',')
        .map((type) => TYPE_WORDS[type] ?? type)
        .join(' or ')}`;
    case 'format':
      return FORMAT_WORDS[String(params.format)] && `must be ${FORMAT_WORDS[String(params.format)]}`;
    case 'minLength':
      return params.limit === 1 ? 'must not be empty' : `must be at least ${plural(Number(params.limit), 'character')} long`;
    case 'maxLength':
      return `must be at most ${plural(Number(params.limit), 'character')} long`;
    case 'minimum':
      return `must be at least ${String(params.limit)}`;
    case 'maximum':
      return `must be at most ${String(params.limit)}`;
    case 'minItems':
      return `must have at least ${plural(Number(params.limit), 'item')}`;
    case 'maxItems':
      return `must have at most ${plural(Number(params.limit), 'item')}`;
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'const':
      return `must be ${String(params.allowedValue)}`;
    case 'additionalProperties':
      return `has a field this request does not take: ${String(params.additionalProperty)}`;
    default:
      return undefined;
  }
}
