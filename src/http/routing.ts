// Unknown paths answer 404 and known paths with the wrong method 405 (with Allow), both as problems.
// Fastify itself only knows "no route", so a second router records every route's path and methods.
// A path with a trailing slash is another path: when the path without it takes the method, the answer
// is a 308 to it (query kept), as /octo does for the OCTo document's spelling; otherwise a 404.
import FindMyWay from 'find-my-way';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { PROBLEM_KINDS, type ProblemKind } from './errors.js';
import { sendProblem } from './problem.js';
import { problems } from './schemas.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export interface RoutingOptions {
  /** Paths whose plugin answers these problems in its own format (/octo). */
  ownFormat?: (url: string) => boolean;
}

export function registerRoutingProblems(app: FastifyInstance, options: RoutingOptions = {}): void {
  const known = FindMyWay();
  app.addHook('onRoute', (route) => {
    // Any documented route may answer 503 (its database unavailable, the service shutting down).
    const response = route.schema?.response as Record<string, unknown> | undefined;
    if (response && !route.schema?.hide && !options.ownFormat?.(route.url) && !(503 in response)) {
      route.schema = { ...route.schema, response: { ...response, ...problems(503) } };
    }
    const methods = ([] as HTTPMethods[]).concat(route.method);
    for (const method of methods) {
      if (!(METHODS as readonly string[]).includes(method)) continue;
      if (!known.hasRoute(method as 'GET', route.url)) known.on(method as 'GET', route.url, () => {});
    }
  });

  // Before authentication, so that the redirect costs no key lookup: the route exists in /openapi.json.
  // Fastify sends `/activities/` to the not-found handler, or to `/activities/:ActivityID` with an empty
  // ID, so this looks at the path as sent, not at the route it reached (unless that route is spelled with
  // the slash, as /docs/ is).
  app.addHook('onRequest', async (request, reply) => {
    const url = request.url;
    const path = url.split('?', 1)[0]!;
    if (path.length < 2 || !path.endsWith('/') || request.routeOptions.url?.endsWith('/') || options.ownFormat?.(url)) return;
    const bare = path.replace(/\/+$/, '');
    if (bare !== '' && known.find(request.method as 'GET', bare) !== null) return reply.redirect(`${bare}${url.slice(path.length)}`, 308);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = METHODS.filter((method) => known.find(method, path) !== null);
    if (allowed.length > 0) {
      reply.header('Allow', allowed.join(', '));
      return sendProblem(reply, 'method-not-allowed', `${request.method} is not allowed on ${path}; use ${allowed.join(', ')}`);
    }
    return sendProblem(reply, 'not-found', `No endpoint at ${path}`);
  });

  // One page per problem kind, at the address each problem's `type` names.
  app.get('/problems/:kind', { schema: { hide: true } }, (request, reply) => {
    const kind = (request.params as { kind: string }).kind as ProblemKind;
    const about = PROBLEM_KINDS[kind];
    if (!Object.hasOwn(PROBLEM_KINDS, kind)) return sendProblem(reply, 'not-found', `No problem kind "${kind}"`);
    return reply.type('text/html; charset=utf-8').send(problemPage(kind, about));
  });
  app.get('/problems', { schema: { hide: true } }, (_request, reply) => reply.type('text/html; charset=utf-8').send(problemIndex()));
}

function problemPage(kind: string, about: { status: number; title: string; about: string }): string {
  return page(
    `Problem: ${kind}`,
    `<p><strong>${about.status} ${about.title}</strong></p><p>${about.about}</p><p><a href="./">All problem kinds</a></p>`,
  );
}

function problemIndex(): string {
  const rows = Object.entries(PROBLEM_KINDS)
    .map(([kind, about]) => `<tr><td><a href="problems/${kind}">${kind}</a></td><td>${about.status}</td><td>${about.about}</td></tr>`)
    .join('');
  return page('slotbook problem kinds', `<table><tr><th>kind</th><th>status</th><th>meaning</th></tr>${rows}</table>`);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}<p>Errors are RFC 7807 <code>application/problem+json</code> bodies with type, title, status, detail and instance; validation problems add <code>errors[]</code>.</p></body></html>`;
}
