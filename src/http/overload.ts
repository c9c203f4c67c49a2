// Overload: while the event loop lags behind (its mean delay over the last second) or memory runs high,
// requests are answered at once with 503 `unavailable` and Retry-After, instead of queueing until their
// clients time out; a load balancer sends them to another process meanwhile. Through
// @fastify/under-pressure; the limits are OVERLOAD_* (docs/observability.md). /healthz still answers:
// the process is alive, only busy (a liveness probe must not restart it for that); /readyz refuses, so
// that a balancer that asks it stops sending.
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import type { ObservabilityConfig } from '../config.js';
import { DomainError } from './errors.js';
import { RETRY_AFTER_SECONDS } from './problem.js';

class Overloaded extends DomainError {
  constructor() {
    super(
      'unavailable',
      'The service is overloaded right now; nothing was done. Retry after the seconds in Retry-After (with the same Idempotency-Key).',
    );
  }
}

export async function registerOverload(app: FastifyInstance, limits: ObservabilityConfig): Promise<void> {
  if (limits.maxEventLoopDelayMs === 0 && limits.maxHeapUsedBytes === 0 && limits.maxRssBytes === 0) return;
  await app.register(underPressure, {
    maxEventLoopDelay: limits.maxEventLoopDelayMs,
    maxHeapUsedBytes: limits.maxHeapUsedBytes,
    maxRssBytes: limits.maxRssBytes,
    retryAfter: RETRY_AFTER_SECONDS,
    customError: Overloaded,
  });
}

/** Route config for what must answer however busy the process is (the liveness probe). */
export const ANSWERS_UNDER_PRESSURE = { pressureHandler: () => undefined };
