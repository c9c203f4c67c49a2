// The HTTP server at its edges: how long a client may take to send a request, who the client is behind a
// reverse proxy, what a request gets while the service shuts down, and problem+json for what Node's HTTP
// parser refuses before Fastify sees a request (408, 431, 400).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import { LogController, type FastifyHttpOptions, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from '../config.js';
import { PROBLEM_KINDS, type ProblemKind } from './errors.js';
import { PROBLEM_CONTENT_TYPE, sendUnavailable } from './problem.js';

// Headers are small: a client that has not sent them within this (or the request timeout, if shorter)
// is holding a connection open, not sending a request.
const HEADERS_TIMEOUT_MS = 10_000;

export function serverOptions(config: Config): FastifyHttpOptions<Server> {
  const requestTimeout = config.requestTimeoutSeconds * 1000;
  return {
    // The whole request, headers and body, must arrive within this: a body trickled a byte at a time
    // gets a 408 instead of holding its connection (and a graceful shutdown) open for ever.
    requestTimeout,
    http: {
      headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeout),
      requestTimeout,
      // Node checks those timeouts every 30 s by default, which would let a 30 s timeout run to 60 s.
      connectionsCheckingInterval: Math.min(1000, requestTimeout / 4),
    },
    trustProxy: trustProxyOption(config.trustProxy),
    // Our own hook (registerDraining) answers during a shutdown, as problem+json.
    return503OnClosing: false,
    clientErrorHandler,
    // Every log line of a request, its problem+json answers and its X-Request-Id header carry this id.
    genReqId: requestId,
    requestIdHeader: false,
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
  };
}

/** A caller's (or a proxy's) own request id, when it is one; anything else could forge log lines. */
const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._:-]{8,64}$/;

/** The client's X-Request-Id if it is well-formed (a proxy's, so its log and ours match), else a new UUID. */
export function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && WELL_FORMED_REQUEST_ID.test(given) ? given : randomUUID();
}

/** Every answer names its request: errors, 404s, 429s and the shutdown's 503s included. */
export function registerRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });
}

/**
 * Fastify's trustProxy for TRUST_PROXY. A hop count is a function: Fastify refuses to take a bare number
 * (it cannot tell a proxy from a client that sends X-Forwarded-For itself), so a hop count is only for a
 * service that nothing but its proxies can reach (docs/security/resilience.md).
 */
function trustProxyOption(setting: Config['trustProxy']): FastifyServerOptions['trustProxy'] {
  if (setting === false) return false;
  if (typeof setting === 'number') return (_address: string, hop: number) => hop < setting;
  return [...setting];
}

/** While the service shuts down, requests that still arrive (on open keep-alive connections) get a 503. */
export function registerDraining(app: FastifyInstance): void {
  let draining = false;
  app.addHook('preClose', (done) => {
    draining = true;
    done();
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!draining) return;
    reply.header('Connection', 'close');
    return sendUnavailable(reply, 'The service is shutting down; retry (another instance answers)');
  });
}

const PARSER_PROBLEMS: Record<string, { kind: ProblemKind; detail: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { kind: 'request-timeout', detail: 'The request was not received in time' },
  HPE_HEADER_OVERFLOW: { kind: 'headers-too-large', detail: 'The request headers are too large (at most 16 KiB in all)' },
};

/** Answers what Node's HTTP parser refused (no request object exists yet) as a problem, and closes. */
function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { kind, detail } = PARSER_PROBLEMS[error.code ?? ''] ?? { kind: 'bad-request', detail: 'The request is not valid HTTP' };
  const { status, title } = PROBLEM_KINDS[kind];
  const instance = requestPath(error.rawPacket);
  const body = JSON.stringify({ type: `${this.problemBaseUrl}/${kind}`, title, status, detail, ...(instance && { instance }) });
  this.log.debug({ err: error }, 'client error');
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${title}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** The path of the request line, when the parser kept the bytes it refused. */
function requestPath(raw: unknown): string | undefined {
  const match = Buffer.isBuffer(raw) ? /^[A-Z]+ (\/[^\s?]*)/.exec(raw.subarray(0, 2048).toString('latin1')) : null;
  return match?.[1];
}
