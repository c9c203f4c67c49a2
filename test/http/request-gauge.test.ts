// The request gauge the background workers yield to: requests in flight on a real HTTP server, as an average
// over about a quarter of a second; a burst is seen within it and forgotten after it; finished and cut-off
// requests both count as gone.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { watchRequests, type RequestGauge } from '../../src/http/request-gauge.js';

let server: http.Server;
let gauge: RequestGauge;
let url: string;
const holding: http.ServerResponse[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    if (request.url === '/hold') holding.push(response);
    else response.end('ok');
  });
  gauge = watchRequests(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('counts requests in flight, averaged: up while they are held, down once they are answered or cut off', async () => {
  expect(gauge.load()).toBe(0);
  const aborts = [0, 1, 2, 3].map(() => new AbortController());
  const requests = aborts.map((abort) => fetch(`${url}/hold`, { signal: abort.signal }).catch(() => undefined));
  await sleep(600);
  // Four held for more than two time constants: the average is close to four.
  expect(gauge.load()).toBeGreaterThan(3);
  // Two answered, two cut off by the client: all four gone.
  for (const response of holding.splice(0, 2)) response.end('done');
  aborts[2]!.abort();
  aborts[3]!.abort();
  await Promise.all(requests);
  await sleep(1_200);
  expect(gauge.load()).toBeLessThan(0.1);
  // Quick requests one after another hardly register.
  for (let i = 0; i < 20; i++) await fetch(`${url}/quick`).then((r) => r.text());
  expect(gauge.load()).toBeLessThan(1);
});
