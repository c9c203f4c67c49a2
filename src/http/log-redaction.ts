// What the server log may say about a request, so that no secret and no guest's personal data reaches it.
//
// - A request is logged by method, redacted URL, host and client address; never its headers (no
//   Authorization, no cookies) and never its body.
// - In the URL, a path parameter that is a capability (its name says Token, Secret, Key or Code: a
//   basket's token, a confirmation link's code) is replaced, and so is any path segment of an unmatched
//   route that looks like one (22 or more URL-safe characters); query values are replaced when their name
//   says they are personal or secret (Search, Email, Phone, FirstName, ...) or their value looks like an
//   e-mail address, a phone number or an API key.
// - An error is logged by its type, code, message and stack with e-mail addresses and API key secrets
//   replaced; its other fields (a database error's `detail` quotes the values of the row) are left out.
// The client address stays: it is what abuse is traced by (docs/security/hygiene.md).
import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Config } from '../config.js';

export const REDACTED = '[redacted]';

const SECRET_PARAM = /token|secret|key|code/i;
const TOKEN_LIKE = /^[A-Za-z0-9_-]{22,}$/;
const PERSONAL_QUERY = /search|mail|phone|first|last|customer|token|secret|password|key|code|^q$/i;
const EMAIL = /[^\s@/?&=<>"'(),;:]+@[^\s@/?&=<>"'(),;:]+/g;
const PHONE = /^\+[0-9][0-9 ().-]{6,}$/;
const API_KEY = /sbk_([A-Za-z0-9_-]{16})_[A-Za-z0-9_-]{43}/g;

/** An API key keeps its public lookup part (which names the key) and loses its secret. */
export function scrubText(text: string): string {
  return text.replace(API_KEY, `sbk_$1_${REDACTED}`).replace(EMAIL, REDACTED);
}

function personalValue(value: string): boolean {
  let decoded = value;
  try {
    decoded = decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    // Malformed percent-encoding: judge the raw text.
  }
  return decoded.includes('@') || PHONE.test(decoded.trim()) || decoded.includes('sbk_');
}

function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const at = pair.indexOf('=');
      if (at < 0) return pair;
      const name = pair.slice(0, at);
      return PERSONAL_QUERY.test(name) || personalValue(pair.slice(at + 1)) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
}

/** The path with its capability segments replaced: by the route's parameter names, else by their look. */
function redactPath(path: string, route: string | undefined): string {
  const segments = path.split('/');
  const pattern = route?.split('/');
  const matched = pattern !== undefined && pattern.length === segments.length;
  return segments
    .map((segment, i) => {
      const param = matched ? pattern[i]! : '';
      if (param.startsWith(':')) return SECRET_PARAM.test(param) ? REDACTED : segment;
      if (matched && !param.includes('*')) return segment;
      return TOKEN_LIKE.test(segment) || segment.includes('sbk_') ? REDACTED : segment;
    })
    .join('/');
}

export function redactUrl(url: string, route?: string): string {
  const at = url.indexOf('?');
  const path = at < 0 ? url : url.slice(0, at);
  const redacted = redactPath(path, route);
  return at < 0 ? redacted : `${redacted}?${redactQuery(url.slice(at + 1))}`;
}

function routeOf(request: FastifyRequest): string | undefined {
  try {
    return request.routeOptions?.url;
  } catch {
    return undefined; // a request the router never matched (a malformed URL)
  }
}

const serializers = {
  req: (request: FastifyRequest) => ({
    method: request.method,
    url: redactUrl(request.url, routeOf(request)),
    host: request.host,
    remoteAddress: request.ip,
  }),
  err: (error: Error & { code?: unknown }) => ({
    type: error?.name,
    ...(typeof error?.code === 'string' && { code: error.code }),
    message: scrubText(String(error?.message ?? error)),
    stack: typeof error?.stack === 'string' ? scrubText(error.stack) : '',
  }),
};

/** The server's logger: pino at LOG_LEVEL with the serializers above. */
export function loggerOptions(config: Config): NonNullable<Exclude<FastifyServerOptions['logger'], boolean>> {
  return { level: config.logLevel, serializers };
}

/**
 * Where the log goes: JSON lines on stdout for a collector, or (LOG_FORMAT=pretty, the default at a
 * terminal) pino-pretty's coloured lines, formatted in this process (a person reads them: no worker
 * thread for that) and loaded only then. The same serializers run first, so the redaction is the same.
 */
export async function logStream(config: Config): Promise<{ write(line: string): void } | undefined> {
  if (config.observability.logFormat !== 'pretty') return undefined;
  const { default: pretty } = await import('pino-pretty');
  return pretty({ colorize: process.stdout.isTTY === true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', sync: true });
}
