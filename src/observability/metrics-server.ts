// /metrics on a port of its own (METRICS_PORT, on METRICS_HOST): never on the public port, so a proxy
// that publishes the service cannot publish what it says of the business by mistake.
import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';

export async function listenForScrapes(registry: Registry, port: number, host: string): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || (request.url ?? '').split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Only GET /metrics is here\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('The metrics could not be read\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
