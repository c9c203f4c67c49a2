// Who is making the current request, available to any code that runs for it (AsyncLocalStorage), so that
// a service can write an audit entry without every function in between passing the actor along. The auth
// hook (src/auth/plugin.ts) decides the actor; `actorContext` runs each handler inside it. Code that runs
// outside a request (the command line, the demo seed, tests that call services) acts as `system`.
import { AsyncLocalStorage } from 'node:async_hooks';
import fp from 'fastify-plugin';
import type { StaffRole } from '../db/schema.js';
import type { Permission } from './permissions.js';

export type Actor =
  | { kind: 'key'; operatorId: number; keyId: number; label: string; permissions: readonly Permission[] }
  | { kind: 'user'; operatorId: number; userId: number; label: string; role: StaffRole; sessionId: number; permissions: readonly Permission[] };

export interface ActorContext {
  actor: Actor | undefined;
  /** The client's address. */
  address: string | null;
}

const storage = new AsyncLocalStorage<ActorContext>();

export function currentContext(): ActorContext | undefined {
  return storage.getStore();
}

/** Runs fn as `actor` (e.g. a command-line action on behalf of a user). */
export function runAs<T>(context: ActorContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** Whether the actor may do what `permission` covers: for checks inside a route (e.g. another day's manifest). */
export function can(actor: Actor | undefined, permission: Permission): boolean {
  return actor?.permissions.includes(permission) === true;
}

/**
 * Who holds records scoped to the caller, such as Idempotency-Key records: `key:<id>` or `user:<id>`. Two
 * users of one operator never share them, and neither do a user and a key.
 */
declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated key or user; undefined on public routes. */
    actor: Actor | undefined;
  }
}

/**
 * Runs every handler inside its request's actor context. preHandler is the last hook before the handler,
 * after the body was read: an earlier hook's context would not survive the body's stream events.
 */
export const actorContext = fp(async (app) => {
  app.decorateRequest('actor', undefined);
  app.addHook('preHandler', (request, _reply, done) => {
    storage.run({ actor: request.actor, address: request.ip }, done);
  });
});
