// Viator's error models on /viator, and the one place slotbook's typed domain errors become them:
// - v2 (calendar, check, reserve, special offers): HTTP statuses; 422 {error, message} with
//   INVALID_SUPPLIER / API_DISABLED / INVALID_PRODUCT_OPTION, 500 {error: INTERNAL_ERROR}; 400 and 401
//   carry {error, message} too, naming the field, though Viator reads only the status.
// - v1 (booking, amendment, cancellation, redemption, tour list): HTTP 200 with RequestStatus ERROR and one
//   of Viator's TGDS codes; a refusal of the operation itself is a TransactionStatus REJECTED with a reason.
// - reserve's refusals (NOT_RESERVED with a reason) and the booking operations' REJECTED reasons, from the
//   domain's refusals (a timeslot that takes no bookings, a mix the activity refuses, seats gone).
import { refusalProblem, refusalSentence, type Refusal } from '../bookings/index.js';
import type { FastifyError } from 'fastify';
import { DomainError } from '../http/errors.js';
import { fieldErrors } from '../http/validation.js';
import { CommitOutcomeUnknown } from '../db/connection.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import type { ContentError, NotReservedReason, TgdsCode } from './schemas.js';
import { TGDS } from './schemas.js';

/** 400: the request is not what Viator's document describes. */
export class ViatorBadRequest extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ViatorBadRequest';
  }
}

/** 401: no key, or not one slotbook issued. */
export class ViatorUnauthorized extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ViatorUnauthorized';
  }
}

/** 422: Viator's content errors. */
export class ViatorContentError extends Error {
  constructor(
    readonly code: ContentError,
    message: string,
  ) {
    super(message);
    this.name = 'ViatorContentError';
  }
}

/** A v1 request refused as a whole: RequestStatus ERROR with a TGDS code. */
export class ViatorRequestError extends Error {
  constructor(
    readonly code: TgdsCode,
    message: string,
    readonly details?: string,
  ) {
    super(message);
    this.name = 'ViatorRequestError';
  }
}

export interface V2Reply {
  status: number;
  body: { error: string; message: string };
  unexpected?: boolean;
}

function validationMessage(error: FastifyError): string {
  const errors = fieldErrors(error.validation as Parameters<typeof fieldErrors>[0]);
  return errors.map((e) => `${e.field}: ${e.message}`).join('; ') || 'The request is invalid';
}

/** A request slotbook could not read at all (body, media type, size), as a message; undefined otherwise. */
function unreadable(error: FastifyError): string | undefined {
  if (error.validation) return validationMessage(error);
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large (at most 1 MiB)';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported Content-Type; send application/json';
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is not valid JSON';
  }
  if (error instanceof SyntaxError) return 'The request body is not valid JSON';
  return undefined;
}

const internal = (message: string, unexpected = false): V2Reply => ({ status: 500, body: { error: 'INTERNAL_ERROR', message }, unexpected });

/** Any error thrown while serving a v2 endpoint, as Viator's status and body. */
export function toV2Reply(error: FastifyError): V2Reply {
  if (error instanceof ViatorContentError) return { status: 422, body: { error: error.code, message: error.message } };
  if (error instanceof ViatorBadRequest) return { status: 400, body: { error: 'BAD_REQUEST', message: error.message } };
  if (error instanceof ViatorUnauthorized) return { status: 401, body: { error: 'UNAUTHORIZED', message: error.message } };
  const bad = unreadable(error);
  if (bad)
    return {
      status: error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? 415 : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 413 : 400,
      body: { error: 'BAD_REQUEST', message: bad },
    };
  if (error.statusCode === 429) return { status: 429, body: { error: 'TOO_MANY_REQUESTS', message: `${error.message} (rate limited: retry later)` } };
  if (error instanceof DomainError && error.kind === 'validation') return { status: 400, body: { error: 'BAD_REQUEST', message: error.message } };
  if (isDatabaseUnavailable(error)) {
    return {
      status: 503,
      body: { error: 'SERVICE_UNAVAILABLE', message: 'The reservation system is briefly unavailable; nothing was written. Retry shortly.' },
    };
  }
  if (error instanceof CommitOutcomeUnknown) return internal(`${error.message}. Check availability before reserving again.`, true);
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)
    return { status: 400, body: { error: 'BAD_REQUEST', message: error.message } };
  return internal('There was an unexpected error in the reservation system; nothing was written. Please retry.', true);
}

export interface V1Failure {
  code: TgdsCode;
  message: string;
  details?: string;
  unexpected?: boolean;
}

/** Any error thrown while serving a v1 endpoint, as its RequestStatus.Error. */
export function toV1Failure(error: FastifyError): V1Failure {
  if (error instanceof ViatorRequestError) return { code: error.code, message: error.message, ...(error.details && { details: error.details }) };
  if (error instanceof ViatorUnauthorized) return { code: TGDS.authentication, message: error.message };
  if (error.validation) return { code: TGDS.fieldValidation, message: 'Field validation error', details: validationMessage(error) };
  const bad = unreadable(error);
  if (bad) return { code: TGDS.malformed, message: 'Malformed request', details: bad };
  if (error.statusCode === 429) return { code: TGDS.internal, message: 'Rate limited: retry later', details: error.message };
  if (error instanceof DomainError) {
    const details = error.errors && error.errors.length > 0 ? error.errors.map((e) => `${e.field}: ${e.message}`).join('; ') : error.message;
    if (error.kind === 'not-found') return { code: TGDS.invalidRequest, message: 'Invalid request', details };
    return { code: TGDS.invalidData, message: 'Invalid data', details };
  }
  if (isDatabaseUnavailable(error)) {
    return { code: TGDS.internal, message: 'The reservation system is briefly unavailable; nothing was written. Retry shortly.' };
  }
  if (error instanceof CommitOutcomeUnknown) {
    return { code: TGDS.internal, message: `${error.message}. Retry the same request to receive its outcome.`, unexpected: true };
  }
  return { code: TGDS.internal, message: 'Unknown internal error; nothing was written. Please retry.', unexpected: true };
}

/**
 * Why the domain refused to place a reservation, in Viator's words. A timeslot that takes no more bookings
 * (started, closed, its departure cancelled) is past its cut-off; a ticket mix the activity refuses is an
 * unsupported combination; too few seats is 'seats' (the caller tells a sell-out from limited
 * availability by what is left). An activity with nothing on sale has no reason of Viator's: thrown.
 */
export function placementRefusal(refusal: Refusal): Exclude<NotReservedReason, 'SOLD_OUT' | 'LIMITED_AVAILABILITY'> | 'seats' {
  if (refusal.code === 'seats.gone') return 'seats';
  if (refusal.code === 'activity.unknown') return 'NO_EVENT';
  if (refusal.code === 'timeslot.closed') return 'PAST_BOOKING_CUTOFF';
  if (refusal.code === 'activity.unsellable') throw refusalProblem(refusal);
  return 'UNSUPPORTED_TICKET_COMBINATION';
}

/** A domain refusal of a booking, as REJECTED details. */
export function bookingRejectionOf(refusal: Refusal): { reason: 'NOT_OPERATING' | 'OTHER'; details: string } {
  return { reason: refusal.code === 'activity.unknown' ? 'NOT_OPERATING' : 'OTHER', details: refusalSentence(refusal) };
}

/** A domain error of an amendment, as REJECTED details; undefined for anything else. */
export function rejectionOf(error: unknown): { reason: 'NOT_OPERATING' | 'OTHER'; details: string } | undefined {
  if (!(error instanceof DomainError)) return undefined;
  const details = error.errors && error.errors.length > 0 ? error.errors.map((e) => e.message).join('; ') : error.message;
  if (error.kind === 'not-found') return { reason: 'NOT_OPERATING', details };
  if (error.kind === 'insufficient-capacity' || error.kind === 'validation' || error.kind === 'conflict') return { reason: 'OTHER', details };
  return undefined;
}

/** The lifecycle's refusal of a cancellation (the policy for Viator), as Viator's cancellation rejection. */
export function cancellationRejectionOf(refusal: Refusal): { reason: 'TOUR_REDEEMED' | 'PAST_TOUR_DATE' | 'OTHER'; details: string } {
  if (refusal.code === 'booking.checked-in') return { reason: 'TOUR_REDEEMED', details: 'The booking was redeemed: its travellers were checked in' };
  if (refusal.code === 'booking.started') return { reason: 'PAST_TOUR_DATE', details: 'The tour has started and can no longer be cancelled' };
  return { reason: 'OTHER', details: refusal.message };
}

/** The lifecycle's refusal of an amendment, as Viator's amendment rejection. */
export function amendmentRejectionOf(refusal: Refusal): { reason: 'OTHER'; details: string } {
  if (refusal.code === 'booking.checked-in') return { reason: 'OTHER', details: 'The booking was redeemed: its travellers were checked in' };
  if (refusal.code === 'booking.started') return { reason: 'OTHER', details: 'The tour has started and can no longer be changed' };
  return { reason: 'OTHER', details: refusal.message };
}
