// Failed authentications counted per client address, across processes (the shared limiter): API keys
// (auth/plugin.ts) and GetYourGuide's Basic credentials count in one bucket per address, so a client
// cannot double its guesses by alternating; Stripe's webhook signatures count in their own (its route
// verifies first, payments/providers/stripe/webhook-routes.ts). Past `perMinute` failures in a window, the caller answers 429
// (or its channel's equivalent) with Retry-After until the window passes.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RATE_LIMIT_WINDOW_MS, tooManyRequests } from './rate-limit.js';
import type { Grant, SharedLimiter } from './shared-limiter.js';

export interface FailureLimitOptions {
  /** Failures per minute per client address; 0 counts nothing. */
  perMinute: number;
  limiter: SharedLimiter;
}

export class FailureLimit {
  readonly #options: FailureLimitOptions;
  readonly #bucket: string;

  /** `bucket` names what fails (`auth-failures`, `stripe-signature-failures`); the client's address completes it. */
  constructor(options: FailureLimitOptions, bucket: string) {
    this.#options = options;
    this.#bucket = bucket;
  }

  get perMinute(): number {
    return this.#options.perMinute;
  }

  /** Whether this process already knows the address is past the limit: no database work either way. */
  blocked(request: FastifyRequest): Grant | undefined {
    if (this.#options.perMinute <= 0) return undefined;
    return this.#options.limiter.exhausted(this.#bucketOf(request));
  }

  /** Counts one failure of the address; the grant is not allowed once it is past the limit. */
  async count(request: FastifyRequest): Promise<Grant> {
    if (this.#options.perMinute <= 0) return { allowed: true, remaining: Number.POSITIVE_INFINITY, resetMs: 0 };
    return this.#options.limiter.take(this.#bucketOf(request), this.#options.perMinute, RATE_LIMIT_WINDOW_MS);
  }

  /** Seconds until the address may try again. */
  static retryAfter(grant: Grant): number {
    return Math.max(1, Math.ceil(grant.resetMs / 1000));
  }

  /** A 429 with Retry-After that says what failed too often (`failed sign-ins`). */
  refusal(reply: FastifyReply, grant: Grant, what: string): Error & { statusCode: number } {
    const seconds = FailureLimit.retryAfter(grant);
    reply.header('Retry-After', String(seconds));
    return tooManyRequests(`Too many ${what} from this address (${this.#options.perMinute} a minute); retry in ${seconds} s`);
  }

  #bucketOf(request: FastifyRequest): string {
    return `${this.#bucket}:${request.ip}`;
  }
}
