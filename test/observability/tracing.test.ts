// Traces, exported by a real `slotbook serve` process to a local OTLP/HTTP receiver (a test server on
// 127.0.0.1 that keeps the JSON it is sent): the booking request's span continues the caller's W3C trace,
// is named by its route pattern and carries the operator and the booking reference; its database
// statements are its children; the webhook delivery it caused has a span whose trace context the
// endpoint receives as traceparent. No guest's details and no key anywhere in what was exported.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/local.js';
import { testDialect } from '../helpers/database.js';
import { GUEST, startWorld, type World } from './world.js';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}

interface Receiver {
  url: string;
  bodies: string[];
  requests: { headers: IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

/** A local HTTP server that answers 200 and keeps every request: the OTLP collector, a webhook endpoint. */
async function receiver(): Promise<Receiver> {
  const state: Receiver = { url: '', bodies: [], requests: [], close: async () => {} };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      state.bodies.push(body);
      state.requests.push({ headers: request.headers, body });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  state.url = `http://127.0.0.1:${port}`;
  state.close = () => new Promise((resolve) => server.close(() => resolve()));
  return state;
}

let collector: Receiver;
let endpoint: Receiver;
let world: World;

beforeAll(async () => {
  collector = await receiver();
  endpoint = await receiver();
  world = await startWorld({
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    // Webhooks over http to this machine: outside production only.
    NODE_ENV: 'development',
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
  });
}, 180_000);
afterAll(async () => {
  await world?.stop();
  await collector?.close();
  await endpoint?.close();
});

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((entry) => entry.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
};

describe('traces sent to an OTLP collector', () => {
  it('span the request, its statements and the webhook delivery, in the caller trace, without personal data', async () => {
    const hook = await fetch(`${world.server.url}/api/v2/admin/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${world.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ URL: `${endpoint.url}/hook`, EventTypes: ['booking.confirmed'] }),
    });
    expect(hook.status, await hook.clone().text()).toBe(201);

    const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpan = '00f067aa0ba902b7';
    const booked = await fetch(`${world.server.url}/api/v2/ota/viator/booking?Email=${encodeURIComponent(GUEST.Email)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${world.otaKey}`, 'content-type': 'application/json', traceparent: `00-${callerTrace}-${callerSpan}-01` },
      body: JSON.stringify({ ActivityID: world.activityId, Date: world.date, Time: '10:00', Participants: 2, Customer: GUEST }),
    });
    expect(booked.status).toBe(201);
    const reference = ((await booked.json()) as { data: { BookingReference: string } }).data.BookingReference;

    // The delivery goes out within a few seconds (the webhook worker's loop).
    for (const until = Date.now() + 30_000; endpoint.requests.length === 0 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 200));
    expect(endpoint.requests.length).toBeGreaterThan(0);
    const traceparent = String(endpoint.requests[0]!.headers.traceparent ?? '');
    expect(traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);

    // SIGTERM sends the spans still queued before the process exits.
    await world.server.stop();
    const spans = collector.bodies.flatMap((body) =>
      (JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }).resourceSpans.flatMap((resource) =>
        resource.scopeSpans.flatMap((scope) => scope.spans),
      ),
    );
    const request = spans.find((span) => span.name === 'POST /api/v2/ota/:partner/booking');
    expect(request, spans.map((span) => span.name).join(', ')).toBeDefined();
    expect(request!.traceId).toBe(callerTrace);
    expect(request!.parentSpanId).toBe(callerSpan);
    expect(attribute(request!, 'slotbook.operator_id')).toBe(world.operatorId);
    expect(attribute(request!, 'slotbook.booking_reference')).toBe(reference);
    expect(attribute(request!, 'http.route')).toBe('/api/v2/ota/:partner/booking');
    expect(attribute(request!, 'http.response.status_code')).toBe(201);
    expect(attribute(request!, 'url.path')).toBe('/api/v2/ota/viator/booking?Email=[redacted]');

    const statements = spans.filter((span) => span.parentSpanId === request!.spanId && attribute(span, 'db.operation.name') !== undefined);
    expect(statements.map((span) => span.name)).toEqual(expect.arrayContaining(['select', 'insert']));
    for (const span of statements) {
      expect(span.traceId).toBe(callerTrace);
      expect(attribute(span, 'db.system.name')).toBe(testDialect() === 'postgres' ? 'postgresql' : 'sqlite');
    }

    const [, deliveryTrace, deliverySpan] = traceparent.split('-');
    const delivery = spans.find((span) => span.name === 'webhook delivery' && span.spanId === deliverySpan);
    expect(delivery).toBeDefined();
    expect(delivery!.traceId).toBe(deliveryTrace);
    expect(attribute(delivery!, 'http.response.status_code')).toBe(200);

    const exported = collector.bodies.join('\n');
    for (const secret of [
      GUEST.Email,
      'grace.hopper%40example.com',
      GUEST.LastName,
      GUEST.Phone,
      world.otaKey.slice(-43),
      world.adminKey.slice(-43),
    ]) {
      expect(exported).not.toContain(secret);
    }
  }, 120_000);
});
