// GetYourGuide's error model on /gyg: every answer is HTTP 200, an error is {errorCode, errorMessage} with
// one of GYG's codes. The services throw GygError where they know GYG's code; the typed domain errors of
// the layers below (a sold-out timeslot, a ticket mix the activity refuses) are translated here, so that
// the shared booking services stay unaware of GYG.
import type { FastifyError } from 'fastify';
import { refusalSentence, type Refusal } from '../bookings/index.js';
import { DomainError } from '../http/errors.js';
import { fieldErrors } from '../http/validation.js';
import { CommitOutcomeUnknown } from '../db/connection.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import type { GygErrorBody, GygErrorCode } from './schemas.js';

export class GygError extends Error {
  constructor(
    readonly code: GygErrorCode,
    message: string,
    readonly extra: Pick<GygErrorBody, 'participantsConfiguration' | 'groupConfiguration'> = {},
  ) {
    super(message);
    this.name = 'GygError';
  }

  static authorization = (why: string) => new GygError('AUTHORIZATION_FAILURE', why);
  static invalidProduct = (productId: string) =>
    new GygError('INVALID_PRODUCT', `Product "${productId}" is not offered to GetYourGuide by this supplier (unknown, archived or not mapped)`);
  static validation = (message: string) => new GygError('VALIDATION_FAILURE', message);
  static noAvailability = (message: string) => new GygError('NO_AVAILABILITY', message);
  static participants = (message: string, min: number, max: number | null) =>
    new GygError('INVALID_PARTICIPANTS_CONFIGURATION', message, { participantsConfiguration: { min, max } });
}

/**
 * A reservation the domain refused, in GetYourGuide's errorCodes: a ticket type's or the activity's limits
 * are INVALID_PARTICIPANTS_CONFIGURATION with the limits (the type named by its GYG category,
 * `categoryOf`), seats gone NO_AVAILABILITY, an unknown activity INVALID_PRODUCT, the rest
 * VALIDATION_FAILURE.
 */
export function gygReservationError(refusal: Refusal, categoryOf: (typeCode: string) => string | undefined): GygError {
  const limited = refusal.mix?.find((p) => p.rule === 'mix.below-minimum' || p.rule === 'mix.above-maximum' || p.rule === 'mix.too-many-people');
  if (limited?.limits) {
    const { type, max } = limited.limits;
    const category = type === undefined ? undefined : categoryOf(type);
    if (category === undefined) return GygError.participants(`The activity cannot be reserved for more than ${max} participants`, 1, max);
    const min = Math.max(1, limited.limits.min);
    const what = category === 'GROUP' ? 'groups' : `${category} tickets`;
    return GygError.participants(`This activity sells ${max === null ? `at least ${min}` : `${min} to ${max}`} ${what} per booking`, min, max);
  }
  if (refusal.code === 'seats.gone') return GygError.noAvailability(refusal.message);
  if (refusal.code === 'activity.unknown') return new GygError('INVALID_PRODUCT', refusal.message);
  return GygError.validation(refusalSentence(refusal));
}

export interface GygReply {
  body: GygErrorBody;
  /** Only an unexpected error is logged with its stack. */
  unexpected?: boolean;
}

const body = (code: GygErrorCode, message: string): GygReply => ({ body: { errorCode: code, errorMessage: message } });

/** Any error thrown while serving /gyg, as GYG's error body (always sent with HTTP 200). */
export function toGygError(error: FastifyError): GygReply {
  if (error instanceof GygError) return { body: { errorCode: error.code, errorMessage: error.message, ...error.extra } };
  if (error instanceof DomainError) {
    const message = error.errors && error.errors.length > 1 ? error.errors.map((e) => e.message).join('; ') : error.message;
    if (error.kind === 'insufficient-capacity') return body('NO_AVAILABILITY', message);
    if (error.kind === 'unauthenticated' || error.kind === 'forbidden') return body('AUTHORIZATION_FAILURE', message);
    if (error.kind === 'not-found') return body('INVALID_PRODUCT', message);
    if (error.kind === 'validation' || error.kind === 'bad-request' || error.kind === 'conflict') return body('VALIDATION_FAILURE', message);
  }
  if (error.validation) {
    const errors = fieldErrors(error.validation as Parameters<typeof fieldErrors>[0]);
    return body('VALIDATION_FAILURE', errors.map((e) => e.message).join('; ') || 'The request is invalid');
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return body('VALIDATION_FAILURE', 'The request body is too large (at most 1 MiB)');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return body('VALIDATION_FAILURE', 'Unsupported Content-Type; send application/json');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return body('VALIDATION_FAILURE', 'The request body is not valid JSON');
  }
  if (error instanceof SyntaxError) return body('VALIDATION_FAILURE', 'The request body is not valid JSON');
  if (error.statusCode === 429) return body('INTERNAL_SYSTEM_FAILURE', `${error.message} (rate limited: retry later)`);
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) return body('VALIDATION_FAILURE', error.message);
  if (error instanceof CommitOutcomeUnknown) {
    return {
      ...body('INTERNAL_SYSTEM_FAILURE', `${error.message}. Retry with the same gygBookingReference to receive its outcome.`),
      unexpected: true,
    };
  }
  if (isDatabaseUnavailable(error)) {
    return body('INTERNAL_SYSTEM_FAILURE', 'The reservation system is briefly unavailable; nothing was written. Retry shortly.');
  }
  return {
    ...body('INTERNAL_SYSTEM_FAILURE', 'There was an unexpected error in the reservation system; nothing was written. Please retry.'),
    unexpected: true,
  };
}
