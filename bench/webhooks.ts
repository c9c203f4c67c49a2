// The webhook scenario (issue 14, "Scale"): bursts of 10,000 partner bookings with no webhook endpoint and
// with one endpoint subscribed to every event (a local https receiver in a process of its own), so that the
// booking rate with the endpoint can be set against the rate without it; and after each burst with the
// endpoint, the time until every event written by it was delivered, for the delivery throughput. Between
// bursts nothing is left to deliver, so no burst competes with the one before.
//
// The same burst's rate varies by a fifth from one burst to the next on a shared two-core machine, more
// than the difference to be measured, and drifts over a run: so ROUNDS pairs, in the order without-with,
// with-without, ... (a drift favours neither side), and the mean of each side.
import { openDatabase } from '../src/db/connection.js';
import type { BenchDatabase } from './database.js';
import { runLoad, warmUp, type LoadResult, type LoadSpec } from './load.js';
import { PER_ENDPOINT_AT_ONCE } from '../src/webhooks/deliveries/deliver.js';
import { runBareSender, startWebhookReceiver, type Child } from './processes.js';
import type { Row } from './report.js';
import { bookingBody, partnerPath } from './requests.js';
import type { Seeded } from './seed.js';
import { unixNow } from '../src/lib/clock.js';

export const BURST = 10_000;
const ROUNDS = 6;
const BARE_REQUESTS = 20_000;
const CONNECTIONS = 50;

export interface WebhookFigures {
  rows: Row[];
  /** Bookings of the bursts with the endpoint, the deliveries the receiver got, and how many were repeats. */
  bookings: number;
  requests: number;
  duplicates: number;
}

interface Stats {
  requests: number;
  unique: number;
}

export async function benchWebhooks(
  bench: BenchDatabase,
  serviceUrl: string,
  seeded: Seeded,
  rss: { start(): void; stop(): { maxMb: number } },
  log: (message: string) => void,
  serviceOutput: () => string = () => '',
): Promise<WebhookFigures> {
  const receiver = await startWebhookReceiver();
  const db = openDatabase(bench.config);
  try {
    const ota = { authorization: `Bearer ${seeded.keys.ota}` };
    const admin = { authorization: `Bearer ${seeded.keys.admin}`, 'content-type': 'application/json' };
    const burst = (slot: Seeded['contention']): LoadSpec => ({
      url: serviceUrl,
      method: 'POST',
      path: `${partnerPath}/booking`,
      body: bookingBody(slot, 1),
      connections: CONNECTIONS,
      duration: 60,
      amount: BURST,
      headers: ota,
    });
    const stats = async (): Promise<Stats> => (await fetch(`${receiver.url}/stats`)).json() as Promise<Stats>;
    const outstanding = async () => {
      const deliveries = await db.kysely
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('status', 'in', ['pending', 'sending'])
        .executeTakeFirstOrThrow();
      const events = await db.kysely
        .selectFrom('webhook_outbox')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      return Number(deliveries.n) + Number(events.n);
    };
    // What is still outstanding, for the error when a backlog does not drain.
    const leftOver = async () => {
      const byStatus = await db.kysely
        .selectFrom('webhook_deliveries')
        .select([
          'status',
          'attempts',
          'last_error',
          (eb) => eb.fn.countAll().as('n'),
          (eb) => eb.fn.min('next_attempt_at').as('due_from'),
          (eb) => eb.fn.max('next_attempt_at').as('due_to'),
        ])
        .groupBy(['status', 'attempts', 'last_error'])
        .execute();
      const events = await db.kysely
        .selectFrom('webhook_outbox')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      return `at ${unixNow()}: deliveries ${JSON.stringify(byStatus)}, outbox entries ${String(events.n)}`;
    };
    const setEndpoint = async (enabled: boolean, id?: number) => {
      const response = id
        ? await fetch(`${serviceUrl}/api/v2/admin/webhooks/${id}`, { method: 'PATCH', headers: admin, body: JSON.stringify({ Enabled: enabled }) })
        : await fetch(`${serviceUrl}/api/v2/admin/webhooks`, {
            method: 'POST',
            headers: admin,
            body: JSON.stringify({ URL: receiver.hookUrl, EventTypes: ['*'] }),
          });
      if (!response.ok) throw new Error(`webhook endpoint: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { data: { ID: number } }).data.ID;
    };
    const measured = async (spec: LoadSpec) => {
      rss.start();
      const load = await runLoad(spec);
      log(`webhooks: ${Math.round(load.rps)} bookings/s`);
      return { load, rssMaxMb: rss.stop().maxMb };
    };

    /** Waits until nothing is left to deliver; the seconds it took. */
    const drain = async () => {
      const since = performance.now();
      while ((await outstanding()) > 0) {
        if (performance.now() - since > 300_000)
          throw new Error(`webhook deliveries did not drain within 5 minutes: ${await leftOver()}\n${serviceOutput().slice(-4000)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return (performance.now() - since) / 1000;
    };

    // Warm-up, thrown away: bookings without an endpoint, then with one and the drain of their events,
    // so that the first measured pairs do not pay for compiling and growing the heap on the webhook paths
    // (in runs warmed up without an endpoint, the first two pairs were the low ones: 68% to 83%).
    const warmUpBookings = () => warmUp({ ...burst(seeded.contention), amount: undefined, duration: 2 }, 2);
    await warmUpBookings();
    let endpointId: number | undefined = await setEndpoint(true);
    await warmUpBookings();
    await drain();
    const without: { load: LoadResult; rssMaxMb: number }[] = [];
    const withEndpoint: { load: LoadResult; rssMaxMb: number }[] = [];
    const drains: { deliveries: number; seconds: number }[] = [];
    const burstWithout = async (round: number) => {
      log(`webhooks, round ${round}: ${BURST.toLocaleString('en')} bookings without an endpoint`);
      if (endpointId !== undefined) await setEndpoint(false, endpointId);
      without.push(await measured(burst(seeded.burst.without)));
    };
    for (let round = 1; round <= ROUNDS; round++) {
      if (round % 2 === 1) await burstWithout(round);
      log(`webhooks, round ${round}: ${BURST.toLocaleString('en')} bookings with one endpoint (every event)`);
      endpointId = await setEndpoint(true, endpointId);
      const before = await stats();
      withEndpoint.push(await measured(burst(seeded.burst.with)));
      // The backlog the burst left (its deliveries yield to requests while bookings keep coming).
      const atEnd = await stats();
      const seconds = await drain();
      const after = await stats();
      drains.push({ deliveries: after.requests - atEnd.requests, seconds });
      log(
        `webhooks: ${after.requests - before.requests} deliveries for this burst, ${after.requests - atEnd.requests} of them in ${seconds.toFixed(1)} s after it`,
      );
      if (round % 2 === 0) await burstWithout(round);
    }
    const final = await stats();
    // The bare baseline: the same signed POSTs to the same receiver, at one endpoint's concurrency, by a
    // process that does nothing else (no database, no claims, no records).
    const lastBody = await (await fetch(`${receiver.url}/last`)).text();
    log(`webhooks: bare sender, ${BARE_REQUESTS.toLocaleString('en')} signed POSTs of ${lastBody.length} bytes, ${PER_ENDPOINT_AT_ONCE} at once`);
    const bare = await runBareSender(receiver.hookUrl, lastBody, BARE_REQUESTS, PER_ENDPOINT_AT_ONCE);
    const mean = (runs: { load: LoadResult }[]) => runs.reduce((sum, run) => sum + run.load.rps, 0) / runs.length;
    const row = (scenario: string, runs: { load: LoadResult; rssMaxMb: number }[]): Row => ({
      scenario,
      rate: mean(runs),
      unit: 'req/s',
      p50: Math.max(...runs.map((run) => run.load.p50)),
      p99: Math.max(...runs.map((run) => run.load.p99)),
      rssMaxMb: Math.max(...runs.map((run) => run.rssMaxMb)),
      non2xx: runs.reduce((sum, run) => sum + run.load.non2xx + run.load.errors, 0),
      note: `${runs.length} bursts: ${runs.map((run) => Math.round(run.load.rps)).join(', ')} req/s`,
    });
    const noEndpoint = row(`POST booking, ${BURST.toLocaleString('en')} burst, no webhook`, without);
    const oneEndpoint = {
      ...row(`POST booking, ${BURST.toLocaleString('en')} burst, one webhook`, withEndpoint),
      baseline: { name: 'the same burst without a webhook endpoint', rate: noEndpoint.rate, p99: noEndpoint.p99 },
    };
    const delivered = drains.reduce((sum, d) => sum + d.deliveries, 0);
    const drainSeconds = drains.reduce((sum, d) => sum + d.seconds, 0);
    const deliveries: Row = {
      scenario: 'Webhook deliveries to a local receiver',
      rate: drainSeconds > 0 ? delivered / drainSeconds : 0,
      unit: 'deliveries/s',
      p50: 0,
      p99: 0,
      rssMaxMb: 0,
      non2xx: final.requests - final.unique,
      baseline: { name: `bare signed POSTs (node:https, ${PER_ENDPOINT_AT_ONCE} at once, no database)`, rate: bare.rate, p99: 0 },
      note: `${delivered.toLocaleString('en')} deliveries after the bursts in ${drainSeconds.toFixed(1)} s, dispatch included; non-2xx counts repeats of a webhook-id`,
    };
    return {
      rows: [noEndpoint, oneEndpoint, deliveries],
      bookings: withEndpoint.reduce((sum, run) => sum + (run.load.statuses['201'] ?? 0), 0),
      requests: final.requests,
      duplicates: final.requests - final.unique,
    };
  } finally {
    await db.close();
    await (receiver as Child).stop();
  }
}
