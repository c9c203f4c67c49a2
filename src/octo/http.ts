// The HTTP conventions of the /octo plugin, all encapsulated in it so that the partner API keeps its own:
// OCTo's error format (for errors of the global auth, rate-limit and NUL hooks too, since Fastify hands a
// hook's error to the error handler of the route's plugin), 404/405 in that format, a redirect for the
// OCTo document's trailing-slash paths, empty JSON bodies
// allowed (resellers POST .../cancel with a JSON content type and nothing in it), and the
// Octo-Capabilities reply header.
import FindMyWay from 'find-my-way';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { OctoError, toOctoError } from './errors.js';
import { RETRY_AFTER_SECONDS } from '../http/problem.js';

/** The capabilities this interface implements. */
export const SUPPORTED_CAPABILITIES = ['octo/pricing', 'octo/questions', 'octo/content'] as const;
export type CapabilityId = (typeof SUPPORTED_CAPABILITIES)[number];

/** The supported capabilities the request asked for in Octo-Capabilities (unknown ones are ignored). */
export function requestedCapabilities(request: FastifyRequest): Set<CapabilityId> {
  const header = request.headers['octo-capabilities'];
  const asked = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((id) => id.trim());
  return new Set(SUPPORTED_CAPABILITIES.filter((id) => asked.includes(id)));
}

/** What a reply adds for the capabilities the request asked for. */
export interface Wants {
  pricing: boolean;
  questions: boolean;
  /** octo/content: the product's words and photos (src/octo/catalog/content.ts). */
  content: boolean;
}

export function wantsOf(request: FastifyRequest): Wants {
  const asked = requestedCapabilities(request);
  return { pricing: asked.has('octo/pricing'), questions: asked.has('octo/questions'), content: asked.has('octo/content') };
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export const isOctoPath = (url: string): boolean => url === '/octo' || url.startsWith('/octo/') || url.startsWith('/octo?');

/**
 * The router's own errors (a malformed or over-long path parameter) happen before any plugin is chosen,
 * in the app's frameworkErrors; app.ts hands those of /octo paths here for OCTo's format.
 */
export function sendOctoBadUrl(reply: FastifyReply, message: string): FastifyReply {
  return reply
    .code(400)
    .type('application/json; charset=utf-8')
    .header('Octo-Capabilities', '')
    .send({ error: 'BAD_REQUEST', errorMessage: message });
}

export function registerOctoConventions(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const { status, body, unexpected, retryAfter } = toOctoError(error as FastifyError, request);
    if (unexpected) request.log.error({ err: error }, 'unhandled error');
    if (retryAfter) {
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('Retry-After', String(RETRY_AFTER_SECONDS));
    }
    return reply.code(status).type('application/json; charset=utf-8').send(body);
  });

  const known = FindMyWay();
  app.addHook('onRoute', (route) => {
    for (const method of ([] as HTTPMethods[]).concat(route.method)) {
      if ((METHODS as readonly string[]).includes(method) && !known.hasRoute(method as 'GET', route.url)) {
        known.on(method as 'GET', route.url, () => {});
      }
    }
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    // The OCTo document spells its paths with a trailing slash (/products/): send the client to ours.
    const bare = path.replace(/\/+$/, '');
    if (bare !== path && known.find(request.method as 'GET', bare) !== null) {
      return reply.redirect(`${bare}${request.url.slice(path.length)}`, 308);
    }
    const allowed = METHODS.filter((method) => known.find(method, path) !== null);
    if (allowed.length === 0) throw new OctoError('NOT_FOUND', `No OCTo endpoint at ${path}`, undefined, 404);
    reply.header('Allow', allowed.join(', '));
    throw new OctoError('BAD_REQUEST', `${request.method} is not allowed on ${path}; use ${allowed.join(', ')}`, undefined, 405);
  });

  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if ((body as string).trim() === '') return done(null, undefined);
    return json(request, body as string, done);
  });
  app.addHook('preValidation', async (request, reply) => {
    // /products/ and /bookings/ reach /products/:id and /bookings/:uuid with an empty id: the OCTo
    // document's spelling of the list, so redirect like the not-found handler does.
    const path = request.url.split('?')[0]!;
    const bare = path.replace(/\/+$/, '');
    if (bare !== path && known.find(request.method as 'GET', bare) !== null) {
      return reply.redirect(`${bare}${request.url.slice(path.length)}`, 308);
    }
    // Bodies that OCTo makes optional (extend, cancel) may be absent altogether.
    if (request.body === undefined && (request.method === 'POST' || request.method === 'PATCH')) request.body = {};
  });

  app.addHook('onSend', async (request, reply) => {
    reply.header('Octo-Capabilities', [...requestedCapabilities(request)].join(', '));
  });
}
