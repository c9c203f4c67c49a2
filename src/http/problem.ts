// The one place where errors become RFC 7807 responses: domain errors, Fastify's own validation, body
// parsing and routing errors, rate limiting, and anything unexpected (logged, never shown).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, PROBLEM_KINDS, RetryLater, type FieldError, type ProblemKind } from './errors.js';
import { fieldErrors } from './validation.js';
import { CommitOutcomeUnknown } from '../db/connection.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  errors?: FieldError[];
}

export function sendProblem(reply: FastifyReply, kind: ProblemKind, detail: string, errors?: FieldError[]): FastifyReply {
  const { status, title } = PROBLEM_KINDS[kind];
  const body: ProblemBody = {
    type: `${reply.server.problemBaseUrl}/${kind}`,
    title,
    status,
    detail,
    instance: reply.request.url.split('?')[0]!,
  };
  if (errors) body.errors = errors;
  return reply.code(status).type(PROBLEM_CONTENT_TYPE).send(body);
}

/** Seconds a client should wait before retrying a 503. */
export const RETRY_AFTER_SECONDS = 2;

/** 503 `unavailable` with Retry-After: the service cannot serve this now, and a retry is safe. */
export function sendUnavailable(reply: FastifyReply, detail: string): FastifyReply {
  return sendProblem(reply.header('Retry-After', String(RETRY_AFTER_SECONDS)), 'unavailable', detail);
}

const FASTIFY_CODES: Record<string, ProblemKind> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload-too-large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported-media-type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad-request',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'bad-request',
  FST_ERR_CTP_INVALID_JSON_BODY: 'bad-request',
};

const KIND_BY_STATUS: Record<number, ProblemKind> = {
  400: 'bad-request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not-found',
  405: 'method-not-allowed',
  413: 'payload-too-large',
  415: 'unsupported-media-type',
  429: 'rate-limited',
};

export function errorHandler(this: FastifyInstance, error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof RetryLater) reply.header('Retry-After', String(error.retryAfterSeconds));
  if (error instanceof DomainError) {
    if (error.logContext) request.log.error({ kind: error.kind, ...error.logContext }, error.message);
    return sendProblem(reply, error.kind, error.message, error.errors);
  }

  if (error.validation) {
    const errors = fieldErrors(error.validation as Parameters<typeof fieldErrors>[0]);
    // A malformed path parameter (e.g. an ActivityID) is 400; query, header and body problems are 422.
    if (error.validationContext === 'params') {
      const first = errors[0];
      return sendProblem(reply, 'bad-request', first ? `Invalid path parameter: ${first.message}` : 'Invalid path parameter');
    }
    return sendProblem(reply, 'validation', errors[0]?.message ?? 'The request is invalid', errors);
  }

  const byCode = error.code ? FASTIFY_CODES[error.code] : undefined;
  if (byCode) return sendProblem(reply, byCode, publicMessage(error, byCode));
  if (error instanceof SyntaxError) return sendProblem(reply, 'bad-request', 'The request body is not valid JSON');

  const byStatus = error.statusCode ? KIND_BY_STATUS[error.statusCode] : undefined;
  if (byStatus) return sendProblem(reply, byStatus, error.message);

  if (error instanceof CommitOutcomeUnknown) {
    request.log.error({ err: error }, 'commit outcome unknown');
    return sendProblem(reply, 'outcome-unknown', error.message);
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    return sendUnavailable(reply, 'The database is unavailable right now; nothing was written. Retry shortly (with the same Idempotency-Key).');
  }
  request.log.error({ err: error }, 'unhandled error');
  return sendProblem(reply, 'internal', 'An unexpected error occurred. Nothing was written; please retry.');
}

function publicMessage(error: FastifyError, kind: ProblemKind): string {
  switch (kind) {
    case 'payload-too-large':
      return 'The request body is too large';
    case 'unsupported-media-type':
      return `Unsupported Content-Type; send application/json`;
    default:
      return error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'The request body is empty' : 'The request body is not valid JSON';
  }
}
