// The webhook scenario's bare baseline, a process of its own: the same signed POST as a real delivery (the
// body of one the receiver got, Standard Webhooks headers, HMAC per request), sent with the same client
// (undici, keep-alive) at the same concurrency as the service's lane for one endpoint, to the same
// receiver; no database, no claims, no records. Prints {"rate": requests per second} and exits.
import { readFileSync } from 'node:fs';
import { Agent } from 'undici';
import { signedHeaders } from '../src/webhooks/signing.js';

const url = new URL(process.env.HOOK_URL!);
const body = process.env.HOOK_BODY!;
const count = Number(process.env.COUNT ?? 20_000);
const concurrency = Number(process.env.CONCURRENCY ?? 32);
const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const agent = new Agent({ connections: 64, connect: { ca: readFileSync(new URL('./tls/receiver.crt', import.meta.url)) } });

let sent = 0;
let failed = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (sent < count) {
      const id = `evt_bare${sent++}`;
      const headers = { ...signedHeaders([secret], id, Math.floor(Date.now() / 1000), body), 'content-type': 'application/json' };
      const response = await agent.request({ origin: url.origin, path: url.pathname, method: 'POST', headers, body });
      await response.body.dump();
      if (response.statusCode >= 300) failed += 1;
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
process.stdout.write(JSON.stringify({ rate: count / seconds, failed }));
await agent.close();
