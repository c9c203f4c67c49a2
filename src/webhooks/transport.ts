// One webhook attempt over HTTP(S): a POST with the signed headers, through a socket whose address our
// lookup checked (address.ts), with a hard time limit for the whole exchange, no redirects followed (a 3xx
// is a failed attempt), and at most a few kilobytes of the answer read. Keep-alive sockets are reused, so a
// busy endpoint costs one connection, not one per event.
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
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

/** The answer's body kept for the record; reading stops (and the socket is dropped) beyond it. */
export const RESPONSE_BODY_LIMIT = 4096;

export function createTransport(options: TransportOptions): Transport {
  const agentOptions = { keepAlive: true, maxSockets: 64, maxFreeSockets: 64, scheduling: 'lifo' as const };
  const agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent({ ...agentOptions, ...(options.ca && { ca: options.ca }) }) };
  const lookup = checkedLookup(options.policy, options.resolve);
  return {
    send: (url, headers, body, timeoutMs) => attempt(new URL(url), headers, body, timeoutMs, agents, lookup, options.policy),
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}

function attempt(
  url: URL,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  agents: { 'http:': http.Agent; 'https:': https.Agent },
  lookup: ReturnType<typeof checkedLookup>,
  policy: AddressPolicy,
): Promise<AttemptResult> {
  const started = performance.now();
  const finish = (result: Omit<AttemptResult, 'durationMs'>): AttemptResult => ({ ...result, durationMs: Math.round(performance.now() - started) });
  const failed = (error: string) => finish({ ok: false, statusCode: null, error, responseBody: null });
  // A socket to an address literal skips the lookup: such an address is checked here instead.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const refusal = isIP(host) ? refusalOf(host, policy) : undefined;
  if (refusal) return Promise.resolve(failed(`Refused: ${refusal}`));
  const client = url.protocol === 'https:' ? https : http;

  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(
      url,
      {
        method: 'POST',
        agent: agents[url.protocol as 'http:' | 'https:'],
        lookup,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'slotbook-webhooks/1' },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const text = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8');
          const ok = status >= 200 && status < 300;
          const error = ok ? null : status >= 300 && status < 400 ? `HTTP ${status}: redirects are not followed` : `HTTP ${status}`;
          settle(finish({ ok, statusCode: status, error, responseBody: text === '' ? null : text }));
        };
        response.on('data', (chunk: Buffer) => {
          if (size >= RESPONSE_BODY_LIMIT) return;
          chunks.push(chunk);
          size += chunk.length;
          // Enough for the record: stop reading (the socket is not reused) rather than take whatever comes.
          if (size >= RESPONSE_BODY_LIMIT) {
            response.destroy();
            done();
          }
        });
        response.on('end', done);
        response.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      settle(failed(`Timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => {
      const message = error instanceof AddressRefused ? `Refused: ${error.message}` : `${error.code ?? 'Error'}: ${error.message}`;
      settle(failed(message));
    });
    request.end(body);
  });
}
