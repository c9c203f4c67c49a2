// The GetYourGuide scenario (issue 27): GYG pulls 365 days of every product every 8 days (90 every 4, 30
// daily), so get-availabilities for 365 days of one product must answer well under a second. Timed with
// sequential requests (one connection, as GYG's pull is one request at a time per product), p50 and p99,
// beside the partner API's dates call for the same product and the same 365 days, on the service run.ts
// started over the seeded catalog. `BENCH_ONLY=getyourguide npm run bench` runs it alone.
//
// The connection offers an activity that no other scenario books (they book activityIds[0]): an
// availability change of a mapped product is pushed to GYG_API_URL, and a benchmark must push nowhere.
// It runs last, so nothing after it changes the product's seats either.
import { openDatabase } from '../src/db/connection.js';
import { connectWithActivities } from '../src/getyourguide/connection.js';
import type { BenchDatabase } from './database.js';
import type { Row } from './report.js';
import { partnerPath } from './requests.js';
import type { Seeded } from './seed.js';

export const GYG_SCENARIO = 'GYG get-availabilities, 365 days';
export const GYG_DATES_SCENARIO = 'GET dates, 365 days (beside GYG)';

interface Sequential {
  p50: number;
  p99: number;
  rate: number;
  rssMaxMb: number;
  failures: number;
}

export async function benchGetYourGuide(
  bench: BenchDatabase,
  serviceUrl: string,
  seeded: Seeded,
  rss: { start(): void; stop(): { maxMb: number } },
  log: (message: string) => void,
  seconds: number,
): Promise<Row[]> {
  const activityId = seeded.activityIds[1]!;
  const db = openDatabase(bench.config);
  let credentials: string;
  try {
    const gyg = await db.write((tx) => connectWithActivities(tx, seeded.operatorId, 'bench-supplier', [activityId]));
    credentials = Buffer.from(`${gyg.username}:${gyg.password}`).toString('base64');
  } finally {
    await db.close();
  }
  // The seeded year of timeslots, whole: the first date's midnight to the last date's end, in the activity's zone.
  const range = `fromDateTime=${seeded.firstDate}T00:00:00&toDateTime=${seeded.lastDate}T23:59:59`;
  const least = 364 * 4; // four timeslots a day; a day's margin for any that have started
  log(GYG_SCENARIO);
  const gyg = await timeSequential(
    `${serviceUrl}/gyg/1/get-availabilities/?productId=${activityId}&${range}`,
    { authorization: `Basic ${credentials}` },
    (body) => {
      const count = (body as { data?: { availabilities?: unknown[] } }).data?.availabilities?.length ?? 0;
      if (count < least) throw new Error(`get-availabilities answered ${count} entries: ${JSON.stringify(body).slice(0, 300)}`);
    },
    rss,
    seconds,
  );
  log(GYG_DATES_SCENARIO);
  const dates = await timeSequential(
    `${serviceUrl}${partnerPath}/availability/${activityId}/dates?StartDate=${seeded.firstDate}&EndDate=${seeded.lastDate}`,
    { authorization: `Bearer ${seeded.keys.ota}` },
    (body) => {
      if (!Array.isArray((body as { data?: unknown }).data)) throw new Error(`dates: ${JSON.stringify(body).slice(0, 300)}`);
    },
    rss,
    seconds,
  );
  const note = 'sequential, 1 connection; one product, 1,460 timeslots';
  const row = (scenario: string, m: Sequential): Row => ({
    scenario,
    rate: m.rate,
    unit: 'req/s',
    p50: m.p50,
    p99: m.p99,
    rssMaxMb: m.rssMaxMb,
    non2xx: m.failures,
    note,
  });
  return [
    { ...row(GYG_SCENARIO, gyg), baseline: { name: `${GYG_DATES_SCENARIO} (same product and run)`, rate: dates.rate, p99: dates.p99 } },
    row(GYG_DATES_SCENARIO, dates),
  ];
}

/** Requests one after another for `seconds` (at least 20), each timed on its own; `check` reads the first answer. */
async function timeSequential(
  url: string,
  headers: Record<string, string>,
  check: (body: unknown) => void,
  rss: { start(): void; stop(): { maxMb: number } },
  seconds: number,
): Promise<Sequential> {
  for (let i = 0; i < 5; i++) check(await (await fetch(url, { headers })).json());
  const times: number[] = [];
  let failures = 0;
  rss.start();
  const started = performance.now();
  const until = started + seconds * 1000;
  while (performance.now() < until || times.length < 20) {
    const since = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    times.push(performance.now() - since);
    // GYG answers its errors with HTTP 200: a wrong answer shows in `check` above, a failed request here.
    if (!response.ok) failures++;
  }
  const elapsed = (performance.now() - started) / 1000;
  const rssMaxMb = rss.stop().maxMb;
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { p50: at(0.5), p99: at(0.99), rate: times.length / elapsed, rssMaxMb, failures };
}
