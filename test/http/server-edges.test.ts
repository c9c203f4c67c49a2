// What the HTTP server answers at its edges, as RFC 7807 problems: headers too large (431) and bytes that
// are not HTTP (400), refused by Node's parser before any route; a request during shutdown (503); and a
// trailing slash (308 to the path without it, when that path takes the method; else 404).
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, createTestApp, problemOf, PROBLEM_BASE, type TestApp, type TestOperator } from '../helpers/app.js';

let t: TestApp;
let op: TestOperator;
let port: number;

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(() => t.close());

/** Sends raw bytes and reads the whole answer (the server closes the connection). */
function raw(bytes: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = received.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
    socket.write(bytes);
  });
}

describe("what Node's HTTP parser refuses", () => {
  it('headers over 16 KiB: 431 problem+json naming the path', async () => {
    const response = await raw(`GET /api/v2/ota/viator/products HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(response.status).toBe(431);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(response.body)).toEqual({
      type: `${PROBLEM_BASE}/headers-too-large`,
      title: 'Request Header Fields Too Large',
      status: 431,
      detail: expect.stringMatching(/too large/),
      instance: '/api/v2/ota/viator/products',
    });
  });

  it('bytes that are not HTTP: 400 problem+json', async () => {
    const response = await raw('HELLO THERE\r\n\r\n');
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(response.body)).toMatchObject({ type: `${PROBLEM_BASE}/bad-request`, status: 400 });
  });
});

describe('a trailing slash', () => {
  it('redirects (308, query kept) to the path without it when that path takes the method', async () => {
    const get = await call(t.app, op.otaKey, 'GET', '/api/v2/ota/viator/products/?name=kayak');
    expect(get.statusCode).toBe(308);
    expect(get.headers.location).toBe('/api/v2/ota/viator/products?name=kayak');
    // Reached through a route with an empty path parameter (/activities/:ActivityID), and before any key.
    const post = await call(t.app, undefined, 'POST', '/api/v2/admin/activities/', {});
    expect(post.statusCode).toBe(308);
    expect(post.headers.location).toBe('/api/v2/admin/activities');
    expect((await call(t.app, op.otaKey, 'GET', get.headers.location as string)).statusCode).toBe(200);
  });

  it('is a 404 when the path without it does not take the method (not a 405 that names the method it used)', async () => {
    const problem = problemOf(await call(t.app, op.otaKey, 'DELETE', '/api/v2/ota/viator/products/'), 404, 'not-found');
    expect(problem.detail).toBe('No endpoint at /api/v2/ota/viator/products/');
    problemOf(await call(t.app, op.otaKey, 'GET', '/api/v2/nothing/'), 404, 'not-found');
  });

  it('leaves routes spelled with the slash alone', async () => {
    expect((await call(t.app, undefined, 'GET', '/docs/')).statusCode).toBe(200);
  });
});

describe('a request while the service shuts down', () => {
  it('is a 503 problem with Retry-After and Connection: close', async () => {
    const app = await buildTestApp(t.db);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let closing!: () => void;
    const started = new Promise<void>((resolve) => (closing = resolve));
    // Holds the shutdown open (as a request under way would) before the idle connections are closed.
    app.addHook('preClose', (done) => {
      closing();
      void released.then(() => done());
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
        const request = httpRequest(
          {
            agent,
            host: '127.0.0.1',
            port: (app.server.address() as { port: number }).port,
            path: '/api/v2/ota/viator/products',
            headers: { authorization: `Bearer ${op.otaKey}` },
          },
          (response) => {
            let body = '';
            response.on('data', (chunk) => (body += chunk));
            response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
          },
        );
        request.on('error', reject);
        request.end();
      });
    try {
      expect((await get()).status).toBe(200);
      const closed = app.close();
      await started;
      const response = await get(); // on the open keep-alive connection
      release();
      await closed;
      expect(response.status).toBe(503);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(response.body)).toMatchObject({
        type: `${PROBLEM_BASE}/unavailable`,
        status: 503,
        detail: expect.stringMatching(/shutting down/),
      });
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      expect(response.headers.connection).toBe('close');
    } finally {
      release();
      agent.destroy();
    }
  });
});
