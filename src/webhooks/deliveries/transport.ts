// One webhook attempt over HTTP(S): a POST with the signed headers, through a socket whose address our
// lookup checked (endpoints/address.ts), with a hard time limit for the whole exchange, no redirects followed (a 3xx
// is a failed attempt), and at most a few kilobytes of the answer read. Keep-alive sockets are reused, so a
// busy endpoint costs one connection, not one per event; each kind of endpoint (the operator's, a
// marketplace's) has sockets of its own, so a marketplace's request never rides a connection that only
// the operator's policy allowed.
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import {
  AddressRefused,
  checkedLookup,
  refusalOf,
  type AddressPolicies,
  type AddressPolicy,
  type EndpointKind,
  type Resolver,
} from '../endpoints/address.js';

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
  /** One attempt to an endpoint of this kind, under that kind's address policy. */
  send(url: string, headers: Record<string, string>, body: string, timeoutMs: number, kind: EndpointKind): Promise<AttemptResult>;
  close(): void;
}

export interface TransportOptions {
  policies: AddressPolicies;
  resolve: Resolver;
  /** Extra trusted certificates (tests' own https receivers). */
  ca?: string | Buffer;
}

/** The answer's body kept for the record; reading stops (and the socket is dropped) beyond it. */
export const RESPONSE_BODY_LIMIT = 4096;

/** The sockets and the checking lookup of one kind of endpoint. */
interface Route {
  policy: AddressPolicy;
  lookup: ReturnType<typeof checkedLookup>;
  agents: { 'http:': http.Agent; 'https:': https.Agent };
}

export function createTransport(options: TransportOptions): Transport {
  const agentOptions = { keepAlive: true, maxSockets: 64, maxFreeSockets: 64, scheduling: 'lifo' as const };
  const route = (policy: AddressPolicy): Route => ({
    policy,
    lookup: checkedLookup(policy, options.resolve),
    agents: { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent({ ...agentOptions, ...(options.ca && { ca: options.ca }) }) },
  });
  const routes: Record<EndpointKind, Route> = { operator: route(options.policies.operator), marketplace: route(options.policies.marketplace) };
  return {
    send: (url, headers, body, timeoutMs, kind) => attempt(new URL(url), headers, body, timeoutMs, routes[kind]),
    close() {
      for (const { agents } of Object.values(routes)) {
        agents['http:'].destroy();
        agents['https:'].destroy();
      }
    },
  };
}

function attempt(
  url: URL,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  { policy, lookup, agents }: Route,
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
