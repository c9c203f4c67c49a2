// Typed errors thrown by domain code. They say what went wrong in the domain's words; the error handler
// (http/problem.ts) is the one place that turns them into RFC 7807 responses.

export interface FieldError {
  /** A body field by its dotted path (Customer.Email, Entries[3].Usage), a query parameter or header by name. */
  field: string;
  message: string;
}

export const PROBLEM_KINDS = {
  'bad-request': {
    status: 400,
    title: 'Bad Request',
    about:
      'The request is malformed: a path parameter has the wrong format, the JSON cannot be parsed, or a combination of parameters is not allowed.',
  },
  unauthenticated: {
    status: 401,
    title: 'Unauthorized',
    about: 'No API key was sent, or the key is unknown or revoked. Send `Authorization: Bearer <API_KEY>`.',
  },
  forbidden: {
    status: 403,
    title: 'Forbidden',
    about: 'The API key is valid but lacks the scope this endpoint needs, or names another marketplace.',
  },
  'not-found': { status: 404, title: 'Not Found', about: 'The resource does not exist, or belongs to another operator.' },
  'method-not-allowed': {
    status: 405,
    title: 'Method Not Allowed',
    about: 'The path exists but not with this method; the Allow header lists the methods it takes.',
  },
  'insufficient-capacity': {
    status: 409,
    title: 'Conflict',
    about: 'The timeslot has fewer seats left than requested. Offer the customer another timeslot.',
  },
  conflict: {
    status: 409,
    title: 'Conflict',
    about: 'The change conflicts with the current state, e.g. lowering a capacity below the seats already booked.',
  },
  'idempotency-in-flight': {
    status: 409,
    title: 'Conflict',
    about: 'A request with the same Idempotency-Key is still being processed. Retry a little later to receive its response.',
  },
  'request-timeout': {
    status: 408,
    title: 'Request Timeout',
    about:
      'The request (its headers and body) did not arrive within the time the service allows (REQUEST_TIMEOUT_SECONDS). Send it again, all at once.',
  },
  'payload-too-large': {
    status: 413,
    title: 'Payload Too Large',
    about: 'The request body is larger than allowed: 1 MiB for JSON, 10 MiB for uploads.',
  },
  'unsupported-media-type': {
    status: 415,
    title: 'Unsupported Media Type',
    about:
      'The request body must be sent as application/json; an upload must be a JPEG, PNG, WebP or HEIC/HEIF image or a PDF, judged by its content.',
  },
  validation: {
    status: 422,
    title: 'Unprocessable Entity',
    about: 'One or more fields are missing or invalid. `errors` lists each failing field with a message.',
  },
  'idempotency-key-reuse': {
    status: 422,
    title: 'Unprocessable Entity',
    about: 'The Idempotency-Key was already used with a different request body. Use a new key for a new request.',
  },
  'rate-limited': {
    status: 429,
    title: 'Too Many Requests',
    about:
      'Too many requests for this API key (or, without a key, from this address), too many failed sign-ins from this address, or a staff account locked after wrong passwords. Wait for the number of seconds in Retry-After.',
  },
  'quota-exceeded': {
    status: 429,
    title: 'Too Many Requests',
    about:
      'This client already holds as much as one client may at once: unused uploads (name them in a booking, or wait: unused uploads are deleted after a day), or seats, baskets or waitlist places in a shop (pay or let go of some). Retry-After says when the first lapses; or ask the operator.',
  },
  'too-many-declines': {
    status: 429,
    title: 'Too Many Requests',
    about:
      'Several payments were declined in a row for this basket or from this address. Wait for the number of seconds in Retry-After, which grows with every further decline, then try again (or another card).',
  },
  'headers-too-large': {
    status: 431,
    title: 'Request Header Fields Too Large',
    about: 'The request headers are larger than the service accepts (16 KiB in all).',
  },
  unavailable: {
    status: 503,
    title: 'Service Unavailable',
    about:
      'The service cannot serve the request right now: its database does not answer or refuses writes, or this instance is shutting down. Nothing was written; retry after the seconds in Retry-After (with the same Idempotency-Key).',
  },
  'payment-provider-unavailable': {
    status: 502,
    title: 'Bad Gateway',
    about:
      'The payment provider (Stripe) could not be reached, or failed to answer. Nothing was charged or booked; the seats stay held while they last. Try again in a moment.',
  },
  'payment-provider-refused': {
    status: 502,
    title: 'Bad Gateway',
    about:
      "The payment provider (Stripe) refused slotbook's request: the shop's Stripe account or settings do not allow it. Nothing was charged or booked. Retrying will not help until the shop's owner fixes its Stripe settings.",
  },
  'outcome-unknown': {
    status: 500,
    title: 'Internal Server Error',
    about:
      'The connection to the database was lost while the write was committing, so it may or may not be stored. Retry with the same Idempotency-Key to receive its outcome; without one, look it up before you retry.',
  },
  internal: {
    status: 500,
    title: 'Internal Server Error',
    about: 'Something failed on our side. Nothing was written; the request can be retried (with the same Idempotency-Key).',
  },
} as const;

export type ProblemKind = keyof typeof PROBLEM_KINDS;

export class DomainError extends Error {
  /** What the server log says beside the answer (never sent to the client): e.g. a provider's reason. */
  logContext?: Record<string, unknown>;

  constructor(
    readonly kind: ProblemKind,
    message: string,
    readonly errors?: FieldError[],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationFailed extends DomainError {
  constructor(errors: FieldError[]) {
    super('validation', errors[0]?.message ?? 'The request is invalid', errors);
  }

  static field(field: string, message: string): ValidationFailed {
    return new ValidationFailed([{ field, message }]);
  }
}

export class BadRequest extends DomainError {
  constructor(message: string) {
    super('bad-request', message);
  }
}

export class Unauthenticated extends DomainError {
  constructor(message = 'A valid API key is required: send Authorization: Bearer <API_KEY>') {
    super('unauthenticated', message);
  }
}

export class Forbidden extends DomainError {
  constructor(message: string) {
    super('forbidden', message);
  }
}

export class NotFound extends DomainError {
  constructor(message: string) {
    super('not-found', message);
  }
}

export class InsufficientCapacity extends DomainError {
  constructor(message: string) {
    super('insufficient-capacity', message);
  }
}

export class Conflict extends DomainError {
  constructor(message: string) {
    super('conflict', message);
  }
}

/** A refusal that lifts with time: the problem carries Retry-After (whole seconds, at least 1). */
export class RetryLater extends DomainError {
  readonly retryAfterSeconds: number;

  constructor(kind: 'quota-exceeded' | 'too-many-declines' | 'rate-limited', message: string, retryAfterSeconds: number) {
    super(kind, message);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  }
}
