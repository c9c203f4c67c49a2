// The operator dashboard: the single-page web app built from web/ (npm run build:web, run by prestart)
// into web/dist. index.html is served at / and at the dashboard's own page paths (so a reload or a
// shared link works) with no-cache; the content-hashed files under /assets/ are cached for a year.
// Nothing here touches /api, /docs, /openapi.json, /problems, /healthz or /readyz, so their 404s stay
// problem+json. Files are read once at start and compressed (brotli or gzip) on first request.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { sendProblem } from '../http/problem.js';

export const DEFAULT_DIST_DIR = fileURLToPath(new URL('../../web/dist/', import.meta.url));

/** The dashboard's page paths (its client-side routes); each answers index.html. */
export const DASHBOARD_PAGES = [
  '/',
  '/sign-in',
  '/sign-in/*',
  '/forgot-password',
  '/reset-password',
  '/accept-invitation',
  '/users',
  '/account',
  '/audit',
  '/bookings',
  '/bookings/*',
  '/manifests',
  '/manifests/*',
  '/activities',
  '/activities/*',
  '/keys',
  '/getyourguide',
  '/viator',
  '/usage',
  '/waitlists',
  '/emails',
  '/webhooks',
  '/webhooks/*',
  '/workflows',
  '/reports',
  '/settings',
];

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.js', '.css', '.html', '.svg', '.json', '.txt']);

// The app loads only its own script and styles and talks only to this origin.
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

interface StaticFile {
  body: Buffer;
  type: string;
  etag: string;
  compressible: boolean;
  encoded: Map<'br' | 'gzip', Buffer>;
}

function loadFile(path: string): StaticFile {
  const body = readFileSync(path);
  const ext = extname(path);
  return {
    body,
    type: TYPES[ext] ?? 'application/octet-stream',
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
    compressible: COMPRESSIBLE.has(ext) && body.length > 1024,
    encoded: new Map(),
  };
}

function send(request: FastifyRequest, reply: FastifyReply, file: StaticFile, cacheControl: string) {
  reply.header('Cache-Control', cacheControl).header('ETag', file.etag).type(file.type);
  if (request.headers['if-none-match'] === file.etag) return reply.code(304).send();
  if (!file.compressible) return reply.send(file.body);
  reply.header('Vary', 'Accept-Encoding');
  const accepted = String(request.headers['accept-encoding'] ?? '');
  const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
  if (!encoding) return reply.send(file.body);
  let encoded = file.encoded.get(encoding);
  if (!encoded) {
    encoded =
      encoding === 'br'
        ? brotliCompressSync(file.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: file.body.length } })
        : gzipSync(file.body, { level: 9 });
    file.encoded.set(encoding, encoded);
  }
  return reply.header('Content-Encoding', encoding).send(encoded);
}

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>slotbook dashboard</title></head>
<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#1f2933">
<h1>The dashboard is not built</h1><p>Run <code>npm run build:web</code> (or <code>npm start</code>, which builds it) and reload.
The API works without it: see <a href="/docs">/docs</a>.</p></body></html>`;

export interface DashboardOptions {
  /** The built app (default: web/dist of this checkout). */
  distDir?: string;
}

export const dashboardRoutes: FastifyPluginAsync<DashboardOptions> = async (app, options) => {
  const dist = options.distDir ?? DEFAULT_DIST_DIR;
  const indexPath = join(dist, 'index.html');
  const built = existsSync(indexPath);
  const index = built ? loadFile(indexPath) : undefined;
  const assets = new Map<string, StaticFile>();
  const assetDir = join(dist, 'assets');
  if (built && existsSync(assetDir)) {
    for (const name of readdirSync(assetDir)) assets.set(name, loadFile(join(assetDir, name)));
  }
  // Files at the top of dist (favicon and the like), served by name with a short cache.
  const topFiles = new Map<string, StaticFile>();
  if (built) {
    for (const entry of readdirSync(dist, { withFileTypes: true })) {
      if (entry.isFile() && entry.name !== 'index.html') topFiles.set(entry.name, loadFile(join(dist, entry.name)));
    }
  }

  // nosniff, no-referrer, DENY framing and the rest come from http/security-headers.ts; the pages need a
  // policy of their own that lets the app run.
  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('Content-Security-Policy', CSP);
    if (!index) return reply.code(503).header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(NOT_BUILT);
    return send(request, reply, index, 'no-cache');
  };
  for (const path of DASHBOARD_PAGES) app.get(path, { schema: { hide: true } }, page);

  app.get('/assets/:file', { schema: { hide: true } }, async (request, reply) => {
    const name = (request.params as { file: string }).file;
    const file = assets.get(name);
    if (!file) return sendProblem(reply, 'not-found', `No dashboard asset ${name}`);
    return send(request, reply, file, 'public, max-age=31536000, immutable');
  });

  for (const [name, file] of topFiles) {
    app.get(`/${name}`, { schema: { hide: true } }, async (request, reply) => send(request, reply, file, 'public, max-age=3600'));
  }
};
