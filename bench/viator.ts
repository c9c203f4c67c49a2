// The Viator scenario (issue 36): Viator's SLA asks P90 < 5 s of the calendar and < 1 s of the availability
// check and reserve; slotbook aims for a 365-day calendar of one product under 100 ms. Timed with
// sequential requests (one connection), p50 and p99, beside the partner API's dates call for the same
// product and days, on the service run.ts started over the seeded catalog. `BENCH_ONLY=viator npm run
// bench` runs it alone.
//
// The connection offers an activity that no other scenario books, and stores no key of Viator's: nothing is
// pushed to VIATOR_API_URL from a benchmark. The check only reads; nothing here takes seats.
import { openDatabase } from '../src/db/connection.js';
import { connectWithActivities } from '../src/viator/connection.js';
import type { BenchDatabase } from './database.js';
import type { Row } from './report.js';
import { partnerPath } from './requests.js';
import type { Seeded } from './seed.js';

export const VIATOR_CALENDAR_SCENARIO = 'Viator calendar, 365 days';
export const VIATOR_CHECK_SCENARIO = 'Viator availability check, one date';
export const VIATOR_DATES_SCENARIO = 'GET dates, 365 days (beside Viator)';

interface Sequential {
  p50: number;
  p99: number;
  rate: number;
  rssMaxMb: number;
  failures: number;
}

export async function benchViator(
  bench: BenchDatabase,
  serviceUrl: string,
  seeded: Seeded,
  rss: { start(): void; stop(): { maxMb: number } },
  log: (message: string) => void,
  seconds: number,
): Promise<Row[]> {
  const activityId = seeded.activityIds[2]!;
  const supplierId = 1004;
  const db = openDatabase(bench.config);
  let key: string;
  try {
    key = (await db.write((tx) => connectWithActivities(tx, seeded.operatorId, String(supplierId), [activityId]))).key;
  } finally {
    await db.close();
  }
  const headers = { 'x-api-key': key, 'content-type': 'application/json' };
  const least = 364 * 4; // four timeslots a day; a day's margin for any that have started
  log(VIATOR_CALENDAR_SCENARIO);
  const calendar = await timeSequential(
    `${serviceUrl}/viator/v2/availability/calendar`,
    {
      method: 'POST',
      headers,
      body: JSON.stringify({ supplierId, productOptionIds: [activityId], startDate: seeded.firstDate, endDate: seeded.lastDate }),
    },
    (body) => {
      const dates = (body as { productOptions?: { dates: { events: unknown[] }[] }[] }).productOptions?.[0]?.dates ?? [];
      const events = dates.reduce((sum, date) => sum + date.events.length, 0);
      if (events < least) throw new Error(`calendar answered ${events} events: ${JSON.stringify(body).slice(0, 300)}`);
    },
    rss,
    seconds,
  );
  log(VIATOR_CHECK_SCENARIO);
  const check = await timeSequential(
    `${serviceUrl}/viator/v2/availability/check`,
    {
      method: 'POST',
      headers,
      body: JSON.stringify({
        supplierId,
        productOptions: [{ productOptionId: activityId }],
        travelDate: seeded.lastDate,
        tickets: [{ type: 'ADULT', quantity: 2 }],
        totalTravelers: 2,
      }),
    },
    (body) => {
      const events = (body as { productOptions?: { events: { status: string }[] }[] }).productOptions?.[0]?.events ?? [];
      if (events.length === 0 || events[0]!.status !== 'AVAILABLE') throw new Error(`check: ${JSON.stringify(body).slice(0, 300)}`);
    },
    rss,
    seconds,
  );
  log(VIATOR_DATES_SCENARIO);
  const dates = await timeSequential(
    `${serviceUrl}${partnerPath}/availability/${activityId}/dates?StartDate=${seeded.firstDate}&EndDate=${seeded.lastDate}`,
    { method: 'GET', headers: { authorization: `Bearer ${seeded.keys.ota}` } },
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
  const beside = { name: `${VIATOR_DATES_SCENARIO} (same product and run)`, rate: dates.rate, p99: dates.p99 };
  return [
    { ...row(VIATOR_CALENDAR_SCENARIO, calendar), baseline: beside },
    { ...row(VIATOR_CHECK_SCENARIO, check), baseline: beside },
    row(VIATOR_DATES_SCENARIO, dates),
  ];
}

/** Requests one after another for `seconds` (at least 20), each timed on its own; `check` reads the first answer. */
async function timeSequential(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
  check: (body: unknown) => void,
  rss: { start(): void; stop(): { maxMb: number } },
  seconds: number,
): Promise<Sequential> {
  for (let i = 0; i < 5; i++) check(await (await fetch(url, init)).json());
  const times: number[] = [];
  let failures = 0;
  rss.start();
  const started = performance.now();
  const until = started + seconds * 1000;
  while (performance.now() < until || times.length < 20) {
    const since = performance.now();
    const response = await fetch(url, init);
    await response.arrayBuffer();
    times.push(performance.now() - since);
    if (!response.ok) failures++;
  }
  const elapsed = (performance.now() - started) / 1000;
  const rssMaxMb = rss.stop().maxMb;
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { p50: at(0.5), p99: at(0.99), rate: times.length / elapsed, rssMaxMb, failures };
}
