// The GetYourGuide scenario (issue 27): GYG pulls 365 days of every product every 8 days (90 every 4, 30
// daily), so get-availabilities for 365 days of one product must answer well under a second. This times
// it sequentially (p50, p99) beside the partner API's dates call for the same product and year, on the
// real app listening on a local port, over a fresh database (BENCH_DIALECT: sqlite, the default, or
// postgres). Standalone, not yet a key of run.ts: `npx tsx bench/getyourguide.ts` (GYG_BENCH_REQUESTS,
// default 200 of each).
import { createApiKey } from '../src/auth/service.js';
import { buildApp } from '../src/app.js';
import { createTimeslots } from '../src/availability/creation.js';
import { addActivity } from '../src/catalog/service.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/connection.js';
import { migrate } from '../src/db/migrate.js';
import { connectWithActivities } from '../src/getyourguide/connection.js';
import { createOperator } from '../src/operators/service.js';
import { createBenchDatabase, type Dialect } from './database.js';

const REQUESTS = Number(process.env.GYG_BENCH_REQUESTS ?? 200);
const TIMES = ['09:00', '11:00', '13:00', '15:00', '17:00'];
const MARKETPLACE = 'bench';

const plusDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function timed(url: string, headers: Record<string, string>, check: (body: unknown) => void) {
  for (let i = 0; i < 5; i++) check(await (await fetch(url, { headers })).json());
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const since = performance.now();
    const body = await (await fetch(url, { headers })).json();
    times.push(performance.now() - since);
    if (i === 0) check(body);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

async function main(): Promise<void> {
  const dialect = (process.env.BENCH_DIALECT ?? 'sqlite') as Dialect;
  const bench = await createBenchDatabase(dialect);
  const db = openDatabase(bench.config);
  try {
    await migrate(db);
    const { operatorId } = await createOperator(db, 'GYG bench');
    const ota = await db.write((tx) => createApiKey(tx, operatorId, { name: 'bench', scopes: ['ota'], partner: MARKETPLACE }));
    const activity = await db.write((tx) =>
      addActivity(tx, operatorId, { Name: 'Harbour tour', DurationMinutes: 60, Timezone: 'Europe/Berlin', Currency: 'EUR', UnitPrice: 2500 }),
    );
    const [from, to] = [plusDays(1), plusDays(365)];
    await createTimeslots(db, operatorId, activity.ActivityID, { From: from, To: to, Weekdays: [1, 2, 3, 4, 5, 6, 7], Times: TIMES, Capacity: 20 });
    const gyg = await db.write((tx) => connectWithActivities(tx, operatorId, 'bench-supplier', [activity.ActivityID]));

    const config = loadConfig({ PUBLIC_URL: 'http://127.0.0.1', RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent', SECRET_KEY: 'b'.repeat(64) });
    const app = await buildApp({ db, config, logger: false });
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const range = `fromDateTime=${encodeURIComponent(`${from}T00:00:00+01:00`)}&toDateTime=${encodeURIComponent(`${to}T23:59:59+01:00`)}`;
      const basic = { authorization: `Basic ${Buffer.from(`${gyg.username}:${gyg.password}`).toString('base64')}` };
      const gygFigures = await timed(`${base}/gyg/1/get-availabilities/?productId=${activity.ActivityID}&${range}`, basic, (body) => {
        const count = (body as { data?: { availabilities?: unknown[] } }).data?.availabilities?.length ?? 0;
        if (count < 364 * TIMES.length) throw new Error(`get-availabilities answered ${count} entries: ${JSON.stringify(body).slice(0, 300)}`);
      });
      const dates = `${base}/api/v2/ota/${MARKETPLACE}/availability/${activity.ActivityID}/dates?StartDate=${from}&EndDate=${to}`;
      const partnerFigures = await timed(dates, { authorization: `Bearer ${ota.key}` }, (body) => {
        if (!Array.isArray((body as { data?: unknown }).data)) throw new Error(`dates: ${JSON.stringify(body).slice(0, 300)}`);
      });
      const ms = (n: number) => `${n.toFixed(1)} ms`;
      console.log(`${dialect}: ${REQUESTS} sequential requests each, 365 days of one product with ${TIMES.length} timeslots a day`);
      console.log(`  GYG get-availabilities (365 days)  p50 ${ms(gygFigures.p50)}  p99 ${ms(gygFigures.p99)}`);
      console.log(`  partner GET dates (365 days)       p50 ${ms(partnerFigures.p50)}  p99 ${ms(partnerFigures.p99)}`);
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
    await bench.drop();
  }
}

await main();
