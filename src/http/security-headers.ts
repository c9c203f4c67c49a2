// Security headers on every answer (helmet), and `Cache-Control: no-store` on every answer that may carry
// a secret or personal data.
//
// helmet sets X-Content-Type-Options: nosniff, X-Frame-Options, Referrer-Policy: no-referrer,
// Cross-Origin-Resource-Policy and -Opener-Policy and the rest of its defaults, and a
// Content-Security-Policy: the strictest one (nothing may load, nothing may frame it) on API answers,
// problems and errors; one that lets Swagger UI at /docs run its own scripts and call the API. The
// dashboard's pages set their own policy (dashboard/routes.ts), an uploaded file its sandbox
// (bookings/answer-routes.ts). Strict-Transport-Security is sent only when PUBLIC_URL is https.
//
// We use helmet itself rather than @fastify/helmet: that plugin builds helmet's middleware anew on every
// request (4.7 µs each, measured), about a fifth of the whole cost of a cached partner read at 40,000
// requests a second; built once per policy, applying it costs 0.24 µs.
import helmet from 'helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

const NONE = ["'none'"];

/** Answers of the API: JSON and problem+json, never rendered, never framed. */
const API_POLICY = { defaultSrc: NONE, frameAncestors: NONE, baseUri: NONE, formAction: NONE };

/** Swagger UI: its own files (no inline scripts), data: icons, and the API it tries out. */
function docsPolicy(publicUrl: string) {
  const self = ["'self'"];
  return {
    defaultSrc: self,
    scriptSrc: self,
    // Swagger UI's React components set style attributes.
    styleSrc: [...self, "'unsafe-inline'"],
    imgSrc: [...self, 'data:'],
    connectSrc: [...self, new URL(publicUrl).origin],
    fontSrc: self,
    objectSrc: NONE,
    frameAncestors: NONE,
    baseUri: self,
    formAction: self,
  };
}

/**
 * Answers that may carry a secret or personal data are never stored by a browser or a proxy: everything
 * of the operator API (keys, bookings, customers, waitlists, e-mails, uploads, webhooks), everything of the
 * staff accounts (sign-in, sessions, the user), everything of the public shop (baskets with their token
 * and customer), and the bookings, uploads and webhooks (signing secrets, deliveries with the guests'
 * details) of the partner API, and OCTo's bookings. Catalogue and availability reads stay cacheable
 * (partners revalidate them with ETags).
 */
const NO_STORE =
  /^\/(?:api\/v2\/(?:admin|shop|staff)(?:[/?]|$)|api\/v2\/ota\/[^/?]+\/(?:booking|uploads|webhooks)(?:[/?]|$)|octo\/bookings(?:[/?]|$))/;

export function carriesPersonalData(url: string): boolean {
  return NO_STORE.test(url);
}

const isDocs = (request: FastifyRequest) => request.url === '/docs' || request.url.startsWith('/docs/') || request.url.startsWith('/docs?');

export function registerSecurityHeaders(app: FastifyInstance, config: Config): void {
  const https = config.publicUrl.startsWith('https:');
  const common = {
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
    referrerPolicy: { policy: 'no-referrer' as const },
    xFrameOptions: { action: 'deny' as const },
  };
  const api = helmet({ ...common, contentSecurityPolicy: { useDefaults: false, directives: API_POLICY } });
  const docs = helmet({ ...common, contentSecurityPolicy: { useDefaults: false, directives: docsPolicy(config.publicUrl) } });
  app.addHook('onRequest', (request, reply, done) => {
    if (carriesPersonalData(request.url)) reply.header('Cache-Control', 'no-store');
    (isDocs(request) ? docs : api)(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
  });
}
