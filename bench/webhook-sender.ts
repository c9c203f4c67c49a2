// The webhook scenario's bare baseline, a process of its own: the same signed POST as a real delivery (the
// body of one the receiver got, Standard Webhooks headers, HMAC per request), sent with the same client
// (node:https, keep-alive) at the same concurrency as the service's lane for one endpoint, to the same
// receiver; no database, no claims, no records. Prints {"rate": requests per second} and exits.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { signedHeaders } from '../src/webhooks/endpoints/signing.js';
import { unixNow } from '../src/lib/clock.js';

const url = new URL(process.env.HOOK_URL!);
const body = process.env.HOOK_BODY!;
const count = Number(process.env.COUNT ?? 20_000);
const concurrency = Number(process.env.CONCURRENCY ?? 32);
const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const agent = new https.Agent({ keepAlive: true, maxSockets: 64, ca: readFileSync(new URL('./tls/receiver.crt', import.meta.url)) });

function post(id: string): Promise<number> {
  const headers = {
    ...signedHeaders([secret], id, unixNow(), body),
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  };
  return new Promise((resolve, reject) => {
    const request = https.request(url, { method: 'POST', agent, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
    request.end(body);
  });
}

let sent = 0;
let failed = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (sent < count) if ((await post(`evt_bare${sent++}`)) >= 300) failed += 1;
  }),
);
const seconds = (performance.now() - started) / 1000;
process.stdout.write(JSON.stringify({ rate: count / seconds, failed }));
agent.destroy();
