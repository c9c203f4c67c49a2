// The request rate limit (@fastify/rate-limit over the SharedLimiter, so that it holds across processes):
// per verified API key on keyed routes, per client address on the public shop. It runs at preParsing,
// after the onRequest authentication hook, so a key is counted only once it has been verified: a made-up
// key is a failed sign-in (auth/plugin.ts), never a fresh bucket. A channel that verifies its own
// credentials (GetYourGuide's Basic) names its verified client's bucket in `request.limitBucket` and is
// limited alike. Health checks, docs and the dashboard's files are not limited.
import type { FastifyRequest } from 'fastify';
import type { RateLimitPluginOptions } from '@fastify/rate-limit';
import type { Config } from '../config.js';
import type { Grant, SharedLimiter } from './shared-limiter.js';

export const RATE_LIMIT_WINDOW_MS = 60_000;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by a channel's own authentication, once verified: the bucket its client counts in (`gyg:<operator>`). */
    limitBucket?: string;
  }
}

/** A 429 that both error formats (problem+json, OCTo's) turn into their "too many requests". */
export function tooManyRequests(message: string): Error & { statusCode: number } {
  return Object.assign(new Error(message), { statusCode: 429 });
}

/** The bucket of a request that passed authentication (or needs none): its key, its signed-in user, or its address. */
function bucketOf(request: FastifyRequest): string {
  if (request.limitBucket !== undefined) return request.limitBucket;
  const caller = request.caller;
  if (!caller) return `address:${request.ip}`;
  return caller.keyId !== null ? `key:${caller.keyId}` : `user:${caller.userId}`;
}

type StoreCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** @fastify/rate-limit's store interface over the shared limiter. */
function sharedStore(limiter: SharedLimiter) {
  const answer = (grant: Grant, max: number) => ({ current: grant.allowed ? max - grant.remaining : max + 1, ttl: grant.resetMs });
  return class SharedStore {
    /** A route with a limit of its own (config.rateLimit) counts in buckets of its own. */
    readonly prefix: string;

    // The plugin passes its options to the first store; child() passes the route's prefix.
    constructor(prefix?: unknown) {
      this.prefix = typeof prefix === 'string' ? prefix : '';
    }

    incr(key: string, callback: StoreCallback, timeWindow: number, max: number): void {
      const grant = limiter.take(this.prefix + key, max, timeWindow);
      if (grant instanceof Promise)
        grant.then(
          (g) => callback(null, answer(g, max)),
          (error: Error) => callback(error),
        );
      else callback(null, answer(grant, max));
    }

    child(options: { routeInfo?: { method?: unknown; url?: string } }): SharedStore {
      return new SharedStore(`${String(options.routeInfo?.method)} ${options.routeInfo?.url ?? ''}|`);
    }
  };
}

export function rateLimitOptions(config: Config, limiter: SharedLimiter): RateLimitPluginOptions {
  return {
    max: config.rateLimitPerMinute,
    timeWindow: RATE_LIMIT_WINDOW_MS,
    hook: 'preParsing',
    store: sharedStore(limiter) as unknown as RateLimitPluginOptions['store'],
    keyGenerator: bucketOf,
    allowList: (request) => {
      const { scope, shopper, signedIn } = request.routeOptions.config;
      return !scope && !shopper && !signedIn && request.limitBucket === undefined;
    },
    errorResponseBuilder: (_request, context) =>
      tooManyRequests(`Rate limit of ${context.max} requests per minute exceeded; retry in ${context.after}`),
  };
}
