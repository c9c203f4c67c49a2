// Authentication and scope checks, run on every request before validation so that the check order is
// the contract's: authentication (401), scope and marketplace (403), then parameters (400/422).
// A route opts in with `config: { scope }`; routes without it (health, docs) are public.
// Failed sign-ins are limited per client address (AUTH_FAILURE_LIMIT_PER_MINUTE, across processes): past
// the limit, the address's keyed requests get 429 before any key is looked up, until the window passes.
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Forbidden, Unauthenticated } from '../http/errors.js';
import { parseKey, secretMatches, type Scope } from './keys.js';
import { findKeyCached } from './key-cache.js';
import { RATE_LIMIT_WINDOW_MS, tooManyRequests } from '../http/rate-limit.js';
import type { Grant, SharedLimiter } from '../http/shared-limiter.js';

/** `any` accepts every valid key of the operator (e.g. the core questions path). */
export type RouteScope = Scope | 'any';

export interface Caller {
  operatorId: number;
  keyId: number;
  scopes: string[];
  /** The marketplace an `ota` key sells for. */
  partner: string | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    scope?: RouteScope;
  }
  interface FastifyRequest {
    caller: Caller;
  }
}

// The admin scope is the operator's own: it may also read and record usage. `ota` is never implied,
// because an ota key is bound to one marketplace.
const IMPLIED: Partial<Record<Scope, Scope[]>> = { admin: ['usage:read', 'usage:write'] };

export function hasScope(caller: Caller, scope: RouteScope): boolean {
  if (scope === 'any') return true;
  return caller.scopes.some((own) => own === scope || IMPLIED[own as Scope]?.includes(scope));
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

export interface AuthOptions {
  /** Failed sign-ins per minute per client address, counted by `limiter`; absent: not limited. */
  failures?: { perMinute: number; limiter: SharedLimiter };
}

export const authPlugin = fp<AuthOptions>(async (app, { failures }) => {
  app.decorateRequest('caller', null as unknown as Caller);
  const failureBucket = (request: FastifyRequest) => `auth-failures:${request.ip}`;
  const refuse = (reply: FastifyReply, grant: Grant) => {
    reply.header('Retry-After', String(Math.max(1, Math.ceil(grant.resetMs / 1000))));
    return tooManyRequests(`Too many failed sign-ins from this address (${failures!.perMinute} a minute); retry in ${Math.ceil(grant.resetMs / 1000)} s`);
  };
  app.addHook('onRequest', async (request, reply) => {
    const scope = request.routeOptions.config.scope;
    if (!scope) return;
    const blocked = failures?.limiter.exhausted(failureBucket(request));
    if (blocked) throw refuse(reply, blocked);
    const parsed = parseKey(bearerToken(request) ?? '');
    const key = parsed && (await findKeyCached(app.db, parsed.lookupId));
    if (!parsed || !key || key.revokedAt !== null || !secretMatches(parsed.secret, key.secretHash)) {
      if (failures) {
        const grant = await failures.limiter.take(failureBucket(request), failures.perMinute, RATE_LIMIT_WINDOW_MS);
        if (!grant.allowed) throw refuse(reply, grant);
      }
      reply.header('WWW-Authenticate', 'Bearer');
      throw new Unauthenticated(parsed ? 'The API key is unknown or revoked' : undefined);
    }
    const caller: Caller = { operatorId: key.operatorId, keyId: key.id, scopes: key.scopes, partner: key.partner };
    if (!hasScope(caller, scope)) throw new Forbidden(`This API key lacks the "${scope}" scope`);
    const partner = (request.params as { partner?: string }).partner;
    if (scope === 'ota' && partner !== undefined && partner !== caller.partner) {
      throw new Forbidden(`This API key sells for marketplace "${caller.partner}", not "${partner}"`);
    }
    request.caller = caller;
  });
});
