// One webhook attempt over HTTP(S): a POST with the signed headers, through a socket whose address our
// lookup checked (address.ts), with a hard time limit for the whole exchange, no redirects followed (a 3xx
// is a failed attempt), and at most a few kilobytes of the answer read. Sent with undici, whose client costs
// the process a good deal less per request than node:https (bench/notes.md, stop 18); keep-alive sockets
// are reused, so a busy endpoint costs a few connections, not one per event.
import { isIP } from 'node:net';
import { Agent } from 'undici';
import { AddressRefused, checkedLookup, refusalOf, type AddressPolicy, type Resolver } from './address.js';

/** What an attempt came to; `statusCode` null when no answer arrived (refused, timed out, connection failed). */
export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** The start of the answer's body, capped. */
  responseBody: string | null;
}

export interface Transport {
  send(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<AttemptResult>;
  close(): void;
}

export interface TransportOptions {
  policy: AddressPolicy;
  resolve: Resolver;
  /** Extra trusted certificates (tests' own https receivers). */
  ca?: string | Buffer;
}

/** The answer's body kept for the record; reading stops (and the connection is dropped) beyond it. */
export const RESPONSE_BODY_LIMIT = 4096;
/** Connections to one origin at most (each worker sends up to deliver.ts's PER_ENDPOINT_AT_ONCE at once). */
const CONNECTIONS_PER_ORIGIN = 64;

export function createTransport(options: TransportOptions): Transport {
  const agent = new Agent({
    connections: CONNECTIONS_PER_ORIGIN,
    // Every socket's address is checked by our lookup (an address literal is checked before: see send).
    connect: { lookup: checkedLookup(options.policy, options.resolve), ...(options.ca && { ca: options.ca }) },
  });
  return {
    send: (url, headers, body, timeoutMs) => attempt(agent, new URL(url), headers, body, timeoutMs, options.policy),
    close() {
      void agent.destroy();
    },
  };
}

async function attempt(agent: Agent, url: URL, headers: Record<string, string>, body: string, timeoutMs: number, policy: AddressPolicy): Promise<AttemptResult> {
  const started = performance.now();
  const finish = (result: Omit<AttemptResult, 'durationMs'>): AttemptResult => ({ ...result, durationMs: Math.round(performance.now() - started) });
  // A socket to an address literal skips the lookup: such an address is checked here instead.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const refusal = isIP(host) ? refusalOf(host, policy) : undefined;
  if (refusal) return finish({ ok: false, statusCode: null, error: `Refused: ${refusal}`, responseBody: null });
  // One limit for the whole exchange: connecting, the answer's head and the part of its body we read.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  try {
    const response = await agent.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'slotbook-webhooks/1' },
      body,
      signal: deadline.signal,
    });
    const status = response.statusCode;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      // Enough for the record: stop reading (the connection is dropped) rather than take whatever comes.
      if (size >= RESPONSE_BODY_LIMIT) break;
    }
    const text = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8');
    const ok = status >= 200 && status < 300;
    const error = ok ? null : status >= 300 && status < 400 ? `HTTP ${status}: redirects are not followed` : `HTTP ${status}`;
    return finish({ ok, statusCode: status, error, responseBody: text === '' ? null : text });
  } catch (error) {
    return finish({ ok: false, statusCode: null, error: describe(error, deadline.signal.aborted, timeoutMs), responseBody: null });
  } finally {
    clearTimeout(timer);
  }
}

function describe(error: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `Timed out after ${timeoutMs} ms`;
  // undici wraps a failed connection's cause (our lookup's refusal, ECONNREFUSED...) in its own error.
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (cause instanceof AddressRefused) return `Refused: ${cause.message}`;
  const { code, message } = cause as NodeJS.ErrnoException;
  return `${code ?? 'Error'}: ${message}`;
}
