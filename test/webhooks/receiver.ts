// A real HTTP receiver for the webhook tests: it verifies every request's signature with the
// `standardwebhooks` package (the reference implementation integrators use), records what arrived, and
// answers as the test says (a status, a redirect, a long body, or no answer at all).
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedEvent {
  id: string;
  type: string;
  timestamp: string;
  data: any;
}

export interface Received {
  headers: Record<string, string>;
  body: string;
  event: ReceivedEvent;
  /** The secrets (of those the test set) whose signature verified. */
  verifiedWith: string[];
  /** When it arrived (ms). */
  at: number;
}

export type Answer = number | 'hang' | { status: number; body?: string; headers?: Record<string, string>; delayMs?: number };

export interface Receiver {
  url: string;
  received: Received[];
  /** The signing secrets to verify against; set once the endpoint is created. */
  secrets: string[];
  /** How to answer a request; the default is 204. */
  answer: (request: Received, index: number) => Answer;
  /** Requests in flight that were told to hang. */
  hanging(): number;
  /** webhook-ids that arrived again while a request with the same id was still being answered. */
  overlaps: string[];
  /** Waits until `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  eventsOf(type: string): ReceivedEvent[];
  clear(): void;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1; with `tls` over https, its URL naming `tls.host` (which the test's resolver maps to 127.0.0.1). */
export async function startReceiver(path = '/hook', tls?: { key: string; cert: string; host: string }): Promise<Receiver> {
  const hung = new Set<http.ServerResponse>();
  const inFlight = new Set<string>();
  const receiver: Receiver = {
    url: '',
    received: [],
    secrets: [],
    answer: () => 204,
    hanging: () => hung.size,
    overlaps: [],
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (receiver.received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} webhook requests, got ${receiver.received.length}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    eventsOf: (type) => receiver.received.filter((r) => r.event.type === type).map((r) => r.event),
    clear() {
      receiver.received.length = 0;
    },
    async close() {
      for (const response of hung) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const handle = (request: http.IncomingMessage, response: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
      const verifiedWith = receiver.secrets.filter((secret) => {
        try {
          new Webhook(secret).verify(body, headers);
          return true;
        } catch {
          return false;
        }
      });
      const received: Received = { headers, body, event: JSON.parse(body), verifiedWith, at: Date.now() };
      const index = receiver.received.push(received) - 1;
      const id = headers['webhook-id'] ?? '';
      if (inFlight.has(id)) receiver.overlaps.push(id);
      inFlight.add(id);
      response.on('close', () => inFlight.delete(id));
      const answer = request.url === path ? receiver.answer(received, index) : 404;
      if (answer === 'hang') {
        hung.add(response);
        response.on('close', () => hung.delete(response));
        return;
      }
      const { status, body: text = '', headers: extra = {}, delayMs = 0 } = typeof answer === 'number' ? { status: answer } : answer;
      setTimeout(() => response.writeHead(status, extra).end(text), delayMs);
    });
  };
  const server = tls ? https.createServer({ key: tls.key, cert: tls.cert }, handle) : http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  receiver.url = tls ? `https://${tls.host}:${port}${path}` : `http://127.0.0.1:${port}${path}`;
  return receiver;
}
