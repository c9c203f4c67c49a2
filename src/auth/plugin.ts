// Authentication and authorisation, run on every request before validation so that the check order is
// the contract's: authentication (401), scope, permission and marketplace (403), then parameters (400/422).
// A route opts in with `config: { scope }` (API keys), `config: requires(permission)` (operator endpoints:
// an admin key, or a signed-in user whose role has the permission) or `config: { signedIn: true }` (a
// user's own account). Routes with none of these (health, docs, sign-in) are public.
// Failed key sign-ins are limited per client address (AUTH_FAILURE_LIMIT_PER_MINUTE, across processes):
// past the limit, the address's keyed requests get 429 before any key is looked up, until the window
// passes. (Password sign-ins have their own throttle, src/staff.)
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Forbidden, Unauthenticated } from '../http/errors.js';
import { parseKey, secretMatches, type Scope } from './keys.js';
import { findKeyCached } from './key-cache.js';
import { ADMIN_KEY_PERMISSIONS, type Permission } from '../access/permissions.js';
import type { Actor } from '../access/actor.js';
import type { FailureLimit } from '../http/failure-limit.js';

/** `any` accepts every valid key of the operator (e.g. the core questions path). */
export type RouteScope = Scope | 'any';

export interface Caller {
  operatorId: number;
  /** The API key, or null for a signed-in user. */
  keyId: number | null;
  /** The signed-in user, or null for an API key. */
  userId: number | null;
  scopes: string[];
  /** The marketplace an `ota` key sells for. */
  partner: string | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    scope?: RouteScope;
    /** What a user's role (or an admin key) needs for this operator endpoint (permissions.ts). */
    permission?: Permission;
    /** A signed-in user's own account (any role); API keys are refused. */
    signedIn?: boolean;
  }
  interface FastifyRequest {
    caller: Caller;
  }
  interface FastifyInstance {
    /** Every route with its method and config, as registered (for the permission and audit safety-net tests). */
    routeTable: RouteInfo[];
  }
}

export interface RouteInfo {
  method: string;
  url: string;
  config: { scope?: RouteScope; permission?: Permission; signedIn?: boolean };
}

// The admin scope is the operator's own: it may also read and record usage. `ota` is never implied,
// because an ota key is bound to one marketplace.
const IMPLIED: Partial<Record<Scope, Scope[]>> = { admin: ['usage:read', 'usage:write'] };

export function hasScope(caller: Pick<Caller, 'scopes'>, scope: RouteScope): boolean {
  if (scope === 'any') return true;
  return caller.scopes.some((own) => own === scope || IMPLIED[own as Scope]?.includes(scope));
}

/** The permissions a key's scopes give it: an admin key's (permissions.ts), and usage:read for reading usage. */
export function keyPermissions(scopes: string[]): readonly Permission[] {
  if (scopes.includes('admin')) return ADMIN_KEY_PERMISSIONS;
  return scopes.includes('usage:read') ? ['usage:read'] : [];
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

async function authenticateKey(request: FastifyRequest, scope: RouteScope, permission: Permission | undefined): Promise<void> {
  const parsed = parseKey(bearerToken(request) ?? '');
  const key = parsed && (await findKeyCached(request.server.db, parsed.lookupId));
  if (!parsed || !key || key.revokedAt !== null || !secretMatches(parsed.secret, key.secretHash)) {
    throw new Unauthenticated(parsed ? 'The API key is unknown or revoked' : undefined);
  }
  const caller: Caller = { operatorId: key.operatorId, keyId: key.id, userId: null, scopes: key.scopes, partner: key.partner };
  if (!hasScope(caller, scope)) throw new Forbidden(`This API key lacks the "${scope}" scope`);
  const permissions = keyPermissions(key.scopes);
  if (permission !== undefined && !permissions.includes(permission)) {
    throw new Forbidden(`API keys cannot do this: it needs the "${permission}" permission, which only a signed-in user with the right role has`);
  }
  const partner = (request.params as { partner?: string }).partner;
  if (scope === 'ota' && partner !== undefined && partner !== caller.partner) {
    throw new Forbidden(`This API key sells for marketplace "${caller.partner}", not "${partner}"`);
  }
  request.caller = caller;
  request.actor = { kind: 'key', operatorId: key.operatorId, keyId: key.id, label: key.name, permissions };
}

async function authenticateUser(request: FastifyRequest, sessions: Sessions, token: string): Promise<void> {
  const { permission, scope } = request.routeOptions.config;
  const { csrfToken: _csrf, ...actor } = await sessions.authenticate(request, token);
  if (permission !== undefined && !actor.permissions.includes(permission)) {
    throw new Forbidden(`Your role (${actor.role}) does not allow this: it needs the "${permission}" permission`);
  }
  // An operator endpoint that forgot to declare its permission is for owners only (test/staff/roles.test.ts fails for it).
  if (permission === undefined && scope === 'admin' && actor.role !== 'owner') throw new Forbidden('Only an owner may use this endpoint');
  request.caller = { operatorId: actor.operatorId, keyId: null, userId: actor.userId, scopes: [], partner: null };
  request.actor = actor satisfies Actor;
}

/** Signed-in users' sessions (src/staff), handed in by the composition (app.ts): this plugin only asks. */
export interface Sessions {
  /** The session cookie's token, if the request has one. */
  token(request: FastifyRequest): string | undefined;
  /** The session's user (with the session's CSRF token), or Unauthenticated. */
  authenticate(request: FastifyRequest, token: string): Promise<Actor & { kind: 'user'; csrfToken: string }>;
}

export interface AuthOptions {
  sessions: Sessions;
  /** Failed key sign-ins per client address (shared with GetYourGuide's credentials); absent: not limited. */
  failures?: FailureLimit;
}

export const authPlugin = fp<AuthOptions>(async (app, { sessions, failures }) => {
  app.decorateRequest('caller', null as unknown as Caller);
  /** A key that fails counts against its address; past the limit the answer is 429, not 401. */
  const authenticateKeyCounted = async (request: FastifyRequest, reply: FastifyReply, scope: RouteScope, permission: Permission | undefined) => {
    if (!failures) return authenticateKey(request, scope, permission);
    const blocked = failures.blocked(request);
    if (blocked) throw failures.refusal(reply, blocked, 'failed sign-ins');
    try {
      await authenticateKey(request, scope, permission);
    } catch (error) {
      if (error instanceof Unauthenticated) {
        const grant = await failures.count(request);
        if (!grant.allowed) throw failures.refusal(reply, grant, 'failed sign-ins');
      }
      throw error;
    }
  };
  const routes: RouteInfo[] = [];
  app.decorate('routeTable', routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, config: (route.config ?? {}) as RouteInfo['config'] });
  });
  app.addHook('onRequest', async (request, reply) => {
    const { scope, permission, signedIn } = request.routeOptions.config;
    if (!scope && !signedIn) return;
    try {
      const cookie = sessions.token(request);
      const usersMayCall = signedIn || permission !== undefined || scope === 'admin';
      if (bearerToken(request) === undefined && cookie !== undefined && usersMayCall) return await authenticateUser(request, sessions, cookie);
      if (signedIn) {
        if (bearerToken(request) !== undefined) throw new Forbidden('This endpoint is for signed-in users; API keys cannot use it');
        throw new Unauthenticated('Sign in first: this endpoint needs a signed-in user');
      }
      await authenticateKeyCounted(request, reply, scope!, permission);
    } catch (error) {
      if (error instanceof Unauthenticated) reply.header('WWW-Authenticate', 'Bearer');
      throw error;
    }
  });
});
