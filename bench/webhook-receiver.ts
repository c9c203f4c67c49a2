// The webhook scenario's receiver, a process of its own: https on HOOK_PORT (127.0.0.1, the certificate of
// bench/tls/, which the service is told to trust), answering 204 at once and counting requests and distinct
// webhook-ids; a plain http control port (PORT) answers /ready, /stats and /last (the last body received).
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';

const tls = (name: string) => readFileSync(new URL(`./tls/receiver.${name}`, import.meta.url));
let requests = 0;
let last = '';
const ids = new Set<string>();

https
  .createServer({ key: tls('key'), cert: tls('crt') }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests += 1;
      last = Buffer.concat(chunks).toString('utf8');
      ids.add(String(request.headers['webhook-id']));
      response.writeHead(204).end();
    });
  })
  .listen(Number(process.env.HOOK_PORT), '127.0.0.1');

http
  .createServer((request, response) => {
    const body = request.url === '/stats' ? JSON.stringify({ requests, unique: ids.size }) : request.url === '/last' ? last : '{}';
    response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
