// The embed's scripts: /embed.js for operators' websites (any origin loads it: CORS and
// Cross-Origin-Resource-Policy allow that; short cache with an ETag, so a fix reaches every site within
// minutes) and /embed/frame.js, which the booking pages load to talk to the embedding page. Both files
// are read once at start and compressed once (gzip, brotli).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';

// From src/embed (tsx) and from dist/embed (built) alike: the scripts stay in src/embed, plain JavaScript.
const SOURCE_DIR = new URL('../../src/embed/', import.meta.url);

export interface ScriptFile {
  body: Buffer;
  gzip: Buffer;
  br: Buffer;
  etag: string;
}

export function loadScript(name: 'embed.js' | 'frame.js'): ScriptFile {
  const body = readFileSync(fileURLToPath(new URL(name, SOURCE_DIR)));
  return {
    body,
    gzip: gzipSync(body, { level: 9 }),
    br: brotliCompressSync(body),
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
  };
}

function sendScript(request: FastifyRequest, reply: FastifyReply, file: ScriptFile) {
  reply.headers({
    'content-type': 'text/javascript; charset=utf-8',
    'cache-control': 'public, max-age=300, stale-while-revalidate=86400',
    etag: file.etag,
    vary: 'Accept-Encoding',
    'access-control-allow-origin': '*',
    'cross-origin-resource-policy': 'cross-origin',
  });
  const match = String(request.headers['if-none-match'] ?? '')
    .split(',')
    .some((tag) => tag.trim().replace(/^W\//, '') === file.etag);
  if (match) return reply.code(304).send();
  const accepted = String(request.headers['accept-encoding'] ?? '');
  if (/\bbr\b/.test(accepted)) return reply.header('content-encoding', 'br').send(file.br);
  if (/\bgzip\b/.test(accepted)) return reply.header('content-encoding', 'gzip').send(file.gzip);
  return reply.send(file.body);
}

export const embedRoutes: FastifyPluginAsync = async (app) => {
  const embed = loadScript('embed.js');
  const frame = loadScript('frame.js');
  app.get('/embed.js', { schema: { hide: true } }, (request, reply) => sendScript(request, reply, embed));
  app.get('/embed/frame.js', { schema: { hide: true } }, (request, reply) => sendScript(request, reply, frame));
};
