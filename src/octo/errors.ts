// OCTo's error format on /octo: {"error": CODE, "errorMessage": "...", plus the offending id}. The OCTo
// document lists every error under HTTP 400 except the server's own failure; slotbook keeps 400 for the
// INVALID_* codes, BAD_REQUEST and UNPROCESSABLE_ENTITY, and answers UNAUTHORIZED with 401 and FORBIDDEN
// with 403, as HTTP clients expect. The same typed domain errors the partner API turns into RFC 7807
// problems become OCTo errors here (toOctoError), so the services stay unaware of either format.
import { refusalSentence, type Outcome, type Refusal } from '../bookings/index.js';
import type { FastifyError } from 'fastify';
import { DomainError } from '../http/errors.js';
import { fieldErrors } from '../http/validation.js';
import type { OctoErrorBody } from './schemas.js';
import { CommitOutcomeUnknown } from '../db/connection.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';

export type OctoErrorCode =
  | 'INVALID_PRODUCT_ID'
  | 'INVALID_OPTION_ID'
  | 'INVALID_UNIT_ID'
  | 'INVALID_AVAILABILITY_ID'
  | 'INVALID_BOOKING_UUID'
  | 'BAD_REQUEST'
  | 'UNPROCESSABLE_ENTITY'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'TOO_MANY_REQUESTS'
  | 'INTERNAL_SERVER_ERROR';

/** The id field OCTo adds to each INVALID_* error. */
const ID_FIELD: Partial<Record<OctoErrorCode, keyof OctoErrorBody>> = {
  INVALID_PRODUCT_ID: 'productId',
  INVALID_OPTION_ID: 'optionId',
  INVALID_UNIT_ID: 'unitId',
  INVALID_AVAILABILITY_ID: 'availabilityId',
  INVALID_BOOKING_UUID: 'uuid',
};

/** An error in OCTo's words, thrown by the OCTo services where they know which id was wrong. */
export class OctoError extends Error {
  constructor(
    readonly code: OctoErrorCode,
    message: string,
    readonly id?: string,
    readonly status = 400,
  ) {
    super(message);
    this.name = 'OctoError';
  }

  static invalidProduct = (id: string) => new OctoError('INVALID_PRODUCT_ID', `The productId "${id}" was missing or invalid`, id);
  static invalidOption = (id: string) =>
    new OctoError('INVALID_OPTION_ID', `The optionId "${id}" was missing or invalid; every product has the one option DEFAULT`, id);
  static invalidUnit = (id: string, units?: string[]) =>
    new OctoError(
      'INVALID_UNIT_ID',
      `The unitId "${id}" was missing or invalid${units ? `; the product's units are ${units.map((u) => `"${u}"`).join(', ')}` : ''}`,
      id,
    );
  static invalidAvailability = (id: string, why = 'was missing or invalid') =>
    new OctoError('INVALID_AVAILABILITY_ID', `The availabilityId "${id}" ${why}`, id);
  static invalidBooking = (uuid: string, why = 'is not a booking of yours') =>
    new OctoError('INVALID_BOOKING_UUID', `The uuid "${uuid}" ${why}`, uuid);
  static badRequest = (message: string) => new OctoError('BAD_REQUEST', message);
  static unprocessable = (message: string) => new OctoError('UNPROCESSABLE_ENTITY', message);
}

/**
 * A lifecycle command's outcome in OCTo's words: a refusal (started, redeemed, cancelled, a lapsed hold, a
 * hold at its ceiling, a closed timeslot) is UNPROCESSABLE_ENTITY with the refusal's sentence; OCTo has no
 * finer code for any of them.
 */
export function octoOrThrow<T extends object>(outcome: Outcome<T>): { ok: true } & T {
  if (!outcome.ok) throw OctoError.unprocessable(outcome.refusal.message);
  return outcome;
}

/** A reservation the domain refused (an unknown activity, a ticket mix, seats gone), in OCTo's words. */
export function octoReservationError(refusal: Refusal): OctoError {
  if (refusal.code === 'activity.unknown') return new OctoError('NOT_FOUND', refusal.message, undefined, 404);
  return OctoError.unprocessable(refusalSentence(refusal));
}

export interface OctoReply {
  status: number;
  body: OctoErrorBody;
  /** Only an unexpected error is logged with its stack. */
  unexpected?: boolean;
  /** The database is unavailable: the answer carries Retry-After. */
  retryAfter?: boolean;
}

function reply(code: OctoErrorCode, message: string, status = 400, id?: string): OctoReply {
  const body: OctoErrorBody = { error: code, errorMessage: message };
  const field = ID_FIELD[code];
  if (field) body[field] = id ?? '';
  return { status, body };
}

/** A schema error on a named id field is that id's INVALID_* error; anything else is BAD_REQUEST. */
const CODE_BY_FIELD: Record<string, OctoErrorCode> = {
  productId: 'INVALID_PRODUCT_ID',
  id: 'INVALID_PRODUCT_ID',
  optionId: 'INVALID_OPTION_ID',
  availabilityId: 'INVALID_AVAILABILITY_ID',
  uuid: 'INVALID_BOOKING_UUID',
};

function fromValidation(error: FastifyError, sent: unknown): OctoReply {
  const errors = fieldErrors(error.validation as Parameters<typeof fieldErrors>[0]);
  const message = errors.map((e) => e.message).join('; ') || 'The request is invalid';
  for (const { field } of errors) {
    const unit = /^(unitItems|units)\[\d+\]\.(unitId|id)$/.exec(field);
    const code = unit ? 'INVALID_UNIT_ID' : CODE_BY_FIELD[field];
    if (code) return reply(code, message, 400, textAt(sent, field));
  }
  return reply('BAD_REQUEST', message);
}

/** The value the client sent at a dotted field path, when it is a string (for the id an error names). */
function textAt(sent: unknown, field: string): string {
  let value: unknown = sent;
  for (const part of field.split(/[.[\]]+/).filter(Boolean)) {
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  }
  return typeof value === 'string' ? value : '';
}

const BY_KIND: Partial<Record<DomainError['kind'], OctoErrorCode>> = {
  'bad-request': 'BAD_REQUEST',
  unauthenticated: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  'not-found': 'NOT_FOUND',
  // A business rule refused a well-formed request: sold out, a started timeslot, too many units, a hold
  // that lapsed, a cancelled booking. OCTo's word for all of them is UNPROCESSABLE_ENTITY.
  'insufficient-capacity': 'UNPROCESSABLE_ENTITY',
  conflict: 'UNPROCESSABLE_ENTITY',
  validation: 'UNPROCESSABLE_ENTITY',
};
const STATUS_BY_CODE: Partial<Record<OctoErrorCode, number>> = { UNAUTHORIZED: 401, FORBIDDEN: 403, NOT_FOUND: 404 };

/** Any error thrown while serving /octo, as OCTo's error body and status. */
export function toOctoError(error: FastifyError, request: { params: unknown; body: unknown }): OctoReply {
  if (error instanceof OctoError) return reply(error.code, error.message, error.status, error.id);
  if (error instanceof DomainError) {
    const code = BY_KIND[error.kind];
    // A rule that named several fields (a ticket mix) says all of them.
    const message = error.errors && error.errors.length > 1 ? error.errors.map((e) => e.message).join('; ') : error.message;
    if (code) return reply(code, message, STATUS_BY_CODE[code] ?? 400);
  }
  if (error.validation) {
    return fromValidation(error, error.validationContext === 'params' ? request.params : request.body);
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return reply('BAD_REQUEST', 'The request body is too large (at most 1 MiB)', 413);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return reply('BAD_REQUEST', 'Unsupported Content-Type; send application/json', 415);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return reply('BAD_REQUEST', 'The request body is not valid JSON');
  }
  if (error instanceof SyntaxError) return reply('BAD_REQUEST', 'The request body is not valid JSON');
  if (error.statusCode === 429) return reply('TOO_MANY_REQUESTS', error.message, 429);
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) return reply('BAD_REQUEST', error.message, error.statusCode);
  // OCTo has no code of its own for these; its INTERNAL_SERVER_ERROR with the HTTP status that tells them apart.
  if (error instanceof CommitOutcomeUnknown) {
    return { ...reply('INTERNAL_SERVER_ERROR', `${error.message}. Retry with the same uuid to receive its outcome.`, 500), unexpected: true };
  }
  if (isDatabaseUnavailable(error)) {
    return {
      ...reply('INTERNAL_SERVER_ERROR', 'The database is unavailable right now; nothing was written. Retry shortly (with the same uuid).', 503),
      retryAfter: true,
    };
  }
  return { ...reply('INTERNAL_SERVER_ERROR', 'There was an unexpected error; nothing was written. Please retry.', 500), unexpected: true };
}
