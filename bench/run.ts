// `npm run bench`: for each database (SQLite, and PostgreSQL when one answers on 127.0.0.1:5432), a fresh
// database with realistic data, the real service as a child process, a bare Fastify baseline beside it,
// and each scenario under autocannon; prints a table and writes docs/benchmarks.md.
//
// Environment: BENCH_ENTRIES (usage entries of the big operator, default 10,000,000), BENCH_SECONDS (per
// measured run, default 10), BENCH_DIALECTS (e.g. "sqlite"), BENCH_ONLY (comma-separated scenario keys:
// products,dates,timeslots,ratelimit,usage,booking,webhooks,batch,summary,telemetry,viator,getyourguide), BENCH_PROFILE=1 (--cpu-prof on the service;
// the profiles' folder is printed), BENCH_NO_DOC=1 (print only), BENCH_RENDER=1 (rewrite docs/benchmarks.md
// from the saved runs in bench/results/, e.g. after editing bench/notes.md).
import { execSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type Db } from '../src/db/connection.js';
import { migrate } from '../src/db/migrate.js';
import { createBenchDatabase, postgresReachable, postgresVersion, type BenchDatabase, type Dialect } from './database.js';
import { runLoad, warmUp, type LoadResult, type LoadSpec } from './load.js';
import { rssSampler, startBaseline, startService, type Child } from './processes.js';
import { judge, consoleTable, machine, saveRun, savedRuns, writeDocument, type DialectResult, type Row, type RunResult } from './report.js';
import { batchBodies, bookingBody, cycle, datesPaths, partnerPath, timeslotsPaths, usageBodies } from './requests.js';
import { seedCatalog, seedUsage, settle, type Seeded } from './seed.js';
import { benchWebhooks } from './webhooks.js';
import { benchGetYourGuide } from './getyourguide.js';
import { benchTelemetry } from './telemetry.js';
import { benchViator } from './viator.js';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 10_000_000);
const SMALL_ENTRIES = 10_000;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARM_UP_SECONDS = 2;
const CONNECTIONS = 50;
const BATCH_SIZE = 1000;
const BATCH_CONNECTIONS = 8;
const ONLY = process.env.BENCH_ONLY?.split(',');
/** RATE_LIMIT_PER_MINUTE at its highest, for the rate limit's cost without refusals. */
const RATE_LIMIT_MAX = 10_000_000;
const wanted = (key: string) => !ONLY || ONLY.includes(key);
const log = (message: string) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
const seconds = (since: number) => (performance.now() - since) / 1000;

async function seed(bench: BenchDatabase): Promise<{ seeded: Seeded; seeding: DialectResult['seeding']; rawGroupByMs: number; dailyRows: number }> {
  const db = openDatabase(bench.config);
  try {
    await migrate(db);
    let since = performance.now();
    const catalog = await seedCatalog(db);
    const catalogSeconds = seconds(since);
    log(`catalog: 50 activities, a year of timeslots in ${catalogSeconds.toFixed(1)} s`);
    since = performance.now();
    const parallel = bench.dialect === 'postgres' ? 2 : 1;
    const period = await seedUsage(db, catalog.operatorId, ENTRIES, {
      parallel,
      onDay: (day) => day % 73 === 72 && log(`usage: ${day + 1} of 365 days`),
    });
    const usageSeconds = seconds(since);
    log(
      `usage: ${ENTRIES.toLocaleString('en')} entries in ${usageSeconds.toFixed(1)} s (${Math.round(ENTRIES / usageSeconds).toLocaleString('en')}/s)`,
    );
    await seedUsage(db, catalog.small.operatorId, SMALL_ENTRIES);
    await settle(db);
    const seeded: Seeded = { ...catalog, usageFrom: period.from, usageTo: period.to };
    const rawGroupByMs = await timeRawGroupBy(db, seeded);
    log(`raw GROUP BY over the year: ${rawGroupByMs.toFixed(0)} ms`);
    const daily = await db.kysely
      .selectFrom('usage_daily_totals')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('operator_id', '=', seeded.operatorId)
      .executeTakeFirstOrThrow();
    return {
      seeded,
      seeding: { catalogSeconds, entries: ENTRIES, usageSeconds, smallEntries: SMALL_ENTRIES },
      rawGroupByMs,
      dailyRows: Number(daily.n),
    };
  } finally {
    await db.close();
  }
}

/** What the summary would cost without daily totals: the year's raw entries, grouped by meter (median of 3). */
async function timeRawGroupBy(db: Db, seeded: Seeded): Promise<number> {
  const from = Date.parse(`${seeded.usageFrom}T00:00:00Z`) / 1000;
  const to = Date.parse(`${seeded.usageTo}T00:00:00Z`) / 1000 + 86_399;
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const since = performance.now();
    await sql`SELECT meter, SUM(usage_micros) AS total, COUNT(*) AS events FROM usage_entries
      WHERE operator_id = ${seeded.operatorId} AND occurred_at >= ${from} AND occurred_at <= ${to} GROUP BY meter`.execute(db.kysely);
    times.push(performance.now() - since);
  }
  return times.sort((a, b) => a - b)[1]!;
}

async function benchDialect(dialect: Dialect, profileDir: string | undefined): Promise<DialectResult> {
  log(`${dialect}: fresh database`);
  const bench = await createBenchDatabase(dialect);
  const children: Child[] = [];
  try {
    const { seeded, seeding, rawGroupByMs, dailyRows } = await seed(bench);
    log('starting the service');
    const service = await startService(bench.url, profileDir);
    children.push(service);
    const rss = rssSampler(service.pid);
    rss.start();
    const rssIdleMb = rss.stop().maxMb;
    log(`service RSS after start: ${rssIdleMb.toFixed(0)} MB`);
    const ota = { authorization: `Bearer ${seeded.keys.ota}` };
    const usageKey = { authorization: `Bearer ${seeded.keys.usage}` };

    // The baseline serves the service's own answers, so that both send bodies of the same size.
    const dates = datesPaths(seeded);
    const timeslots = timeslotsPaths(seeded);
    const bodies: Record<string, unknown> = {};
    for (const [name, path] of [
      ['products', `${partnerPath}/products`],
      ['dates', dates[0]!],
      ['timeslots', timeslots[0]!],
    ] as const) {
      const response = await fetch(service.url + path, { headers: ota });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      bodies[name] = await response.json();
    }
    const bodiesFile = join(bench.dir, 'baseline-bodies.json');
    writeFileSync(bodiesFile, JSON.stringify(bodies));
    const baselineDb = dialect === 'sqlite' ? `sqlite:${join(bench.dir, 'baseline.db')}` : bench.url;
    const baseline = await startBaseline(baselineDb, bodiesFile);
    children.push(baseline);

    const measure = async (spec: LoadSpec): Promise<{ load: LoadResult; rssMaxMb: number }> => {
      await warmUp(spec, WARM_UP_SECONDS);
      rss.start();
      const load = await runLoad(spec);
      return { load, rssMaxMb: rss.stop().maxMb };
    };
    const bare = async (path: string, spec: Partial<LoadSpec> = {}) =>
      (await measure({ url: baseline.url, path, connections: CONNECTIONS, duration: SECONDS, ...spec })).load;
    const rows: Row[] = [];
    const row = (scenario: string, m: { load: LoadResult; rssMaxMb: number }, base?: { name: string; load: LoadResult }): Row => ({
      scenario,
      rate: m.load.rps,
      unit: 'req/s',
      p50: m.load.p50,
      p99: m.load.p99,
      ...(base && { baseline: { name: base.name, rate: base.load.rps, p99: base.load.p99 } }),
      rssMaxMb: m.rssMaxMb,
      non2xx: m.load.non2xx + m.load.errors,
    });

    // Summary first, while the big operator's usage is exactly the seeded year.
    let summary: DialectResult['summary'] = { bigP50: 0, bigP99: 0, smallP50: 0, rawGroupByMs, rssMaxMb: 0, dailyRows };
    if (wanted('summary')) {
      const path = `/api/v2/usage/meters?from=${seeded.usageFrom}&to=${seeded.usageTo}`;
      log('summary');
      const big = await timeSequential(service.url + path, usageKey, rss);
      const small = await timeSequential(service.url + path, { authorization: `Bearer ${seeded.small.keys.usage}` }, rss);
      summary = { bigP50: big.p50, bigP99: big.p99, smallP50: small.p50, rawGroupByMs, rssMaxMb: Math.max(big.rssMaxMb, small.rssMaxMb), dailyRows };
    }

    for (const [key, name, paths, bareName] of [
      ['products', 'GET products', [`${partnerPath}/products`], 'products'],
      ['dates', 'GET dates', dates, 'dates'],
      ['timeslots', 'GET timeslots', timeslots, 'timeslots'],
    ] as const) {
      if (!wanted(key)) continue;
      log(name);
      const base = await bare(`/${bareName}`);
      const m = await measure({ url: service.url, next: cycle([...paths]), connections: CONNECTIONS, duration: SECONDS, headers: ota });
      rows.push(row(name, m, { name: `GET /${bareName} (same body)`, load: base }));
    }

    // The rate limit's cost: the same partner read on a second service with the limit on (at its highest
    // setting, so that every request is counted and none refused) against the first, with it off.
    if (wanted('ratelimit')) {
      log('GET products, rate limit on vs off');
      const limited = await startService(bench.url, undefined, { RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT_MAX) });
      children.push(limited);
      const limitedRss = rssSampler(limited.pid);
      const spec = { path: `${partnerPath}/products`, connections: CONNECTIONS, duration: SECONDS, headers: ota };
      const off = await measure({ url: service.url, ...spec });
      await warmUp({ url: limited.url, ...spec }, WARM_UP_SECONDS);
      limitedRss.start();
      const on = await runLoad({ url: limited.url, ...spec });
      rows.push(
        row(
          'GET products, rate limit on',
          { load: on, rssMaxMb: limitedRss.stop().maxMb },
          { name: 'GET products, rate limit off (same run)', load: off.load },
        ),
      );
      await limited.stop();
      children.splice(children.indexOf(limited), 1);
    }

    const insertBody = JSON.stringify({ Meter: 'meter-01', Usage: 1.5 });
    let bareInsert: LoadResult | undefined;
    const insertBaseline = async () => (bareInsert ??= await bare('/insert', { method: 'POST', body: insertBody }));
    const bareInsertName = `POST /insert (one row, ${dialect === 'sqlite' ? 'SQLite WAL' : 'PostgreSQL'})`;
    if (wanted('usage')) {
      log('POST usage entry');
      const base = await insertBaseline();
      const m = await measure({
        url: service.url,
        method: 'POST',
        next: usageBodies(),
        connections: CONNECTIONS,
        duration: SECONDS,
        headers: usageKey,
      });
      rows.push(row('POST usage entry', m, { name: bareInsertName, load: base }));
    }

    let capacity: DialectResult['capacity'] = {
      contentionBooked: 0,
      contentionConfirmed: 0,
      contentionCapacity: seeded.contention.capacity,
      sellOutCreated: 0,
      sellOutBooked: 0,
      sellOutCapacity: seeded.sellOut.capacity,
      ok: true,
    };
    if (wanted('booking')) {
      log('POST booking, one timeslot');
      const base = await insertBaseline();
      const spec: LoadSpec = {
        url: service.url,
        method: 'POST',
        path: `${partnerPath}/booking`,
        body: bookingBody(seeded.contention, 1),
        connections: CONNECTIONS,
        duration: SECONDS,
        headers: ota,
      };
      const m = await measure(spec);
      rows.push(row('POST booking, one timeslot', m, { name: bareInsertName, load: base }));
      log('sell-out: 2 seats a booking, 50 connections');
      const sellOut = await runLoad({ ...spec, body: bookingBody(seeded.sellOut, 2), duration: 3 });
      capacity = await checkCapacity(bench, seeded, sellOut.statuses['201'] ?? 0);
      rows.push({
        ...row('POST booking until sold out', { load: sellOut, rssMaxMb: 0 }),
        non2xx: sellOut.non2xx,
        note: `201: ${sellOut.statuses['201'] ?? 0}, 409: ${sellOut.statuses['409'] ?? 0}`,
      });
    }

    // The bare insert is bound by the disk's fsync, which other work on the machine slows or speeds up
    // from one minute to the next: measure it again after the write scenarios and judge by the mean.
    if (bareInsert) {
      const again = await bare('/insert', { method: 'POST', body: insertBody });
      const mean = (bareInsert.rps + again.rps) / 2;
      for (const r of rows) {
        if (r.baseline?.name !== bareInsertName) continue;
        r.baseline.rate = mean;
        r.note = `bare insert ${Math.round(bareInsert.rps)} before, ${Math.round(again.rps)} after; ratio to the mean`;
      }
    }

    if (wanted('webhooks')) rows.push(...(await benchWebhooks(bench, service.url, seeded, rss, log, () => service.output())).rows);

    if (wanted('batch')) {
      log('POST usage batch');
      const spec: LoadSpec = {
        url: service.url,
        method: 'POST',
        next: batchBodies(BATCH_SIZE),
        connections: BATCH_CONNECTIONS,
        duration: SECONDS,
        headers: usageKey,
      };
      const next = batchBodies(BATCH_SIZE);
      const base = await measure({ ...spec, url: baseline.url, next: () => ({ ...next(), path: '/insert-batch' }) });
      const m = await measure(spec);
      const entriesPerSecond = (load: LoadResult) => ((load.statuses['201'] ?? 0) * BATCH_SIZE) / SECONDS;
      rows.push({
        ...row('POST usage batch (1,000 entries)', m),
        rate: entriesPerSecond(m.load),
        unit: 'entries/s',
        baseline: { name: `POST /insert-batch (1,000 rows, one transaction)`, rate: entriesPerSecond(base.load), p99: base.load.p99 },
        note: `${BATCH_CONNECTIONS} connections`,
      });
    }

    // Metrics and tracing on against off, the partner's reads and bookings (bench/telemetry.ts).
    if (wanted('telemetry')) rows.push(...(await benchTelemetry(bench, service, seeded, SECONDS, log)));

    // Viator's calendar and check only read: an activity no other scenario books (bench/viator.ts).
    if (wanted('viator')) rows.push(...(await benchViator(bench, service.url, seeded, rss, log, Math.min(SECONDS, 5))));
    // Last: it connects GetYourGuide to an activity, whose seats nothing may change afterwards (bench/getyourguide.ts).
    if (wanted('getyourguide')) rows.push(...(await benchGetYourGuide(bench, service.url, seeded, rss, log, Math.min(SECONDS, 5))));

    const partial = {
      dialect,
      rssIdleMb,
      version: dialect === 'postgres' ? `PostgreSQL ${await postgresVersion()}` : `SQLite ${await sqliteVersion(bench)}`,
      seeding,
      rows,
      summary,
      capacity,
    };
    return { ...partial, targets: judge(partial) };
  } finally {
    for (const child of children.reverse()) await child.stop();
    await bench.drop();
  }
}

/** Sequential requests for about 5 seconds (at least 20), each timed on its own: p50 and p99 in ms. */
async function timeSequential(url: string, headers: Record<string, string>, rss: ReturnType<typeof rssSampler>) {
  for (let i = 0; i < 5; i++) await (await fetch(url, { headers })).arrayBuffer();
  const times: number[] = [];
  rss.start();
  const until = performance.now() + Math.min(SECONDS, 5) * 1000;
  while (performance.now() < until || times.length < 20) {
    const since = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`summary: ${response.status}`);
    times.push(performance.now() - since);
  }
  const rssMaxMb = rss.stop().maxMb;
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { p50: at(0.5), p99: at(0.99), rssMaxMb };
}

/** The seats in the database, after the load: booked = the seats of confirmed bookings, never above capacity. */
async function checkCapacity(bench: BenchDatabase, seeded: Seeded, sellOutCreated: number): Promise<DialectResult['capacity']> {
  const db = openDatabase(bench.config);
  try {
    const seats = async (slot: Seeded['contention']) => {
      const row = await db.kysely
        .selectFrom('timeslots')
        .innerJoin('activities', 'activities.id', 'timeslots.activity_id')
        .select(['timeslots.id', 'timeslots.booked', 'timeslots.capacity'])
        .where('activities.public_id', '=', slot.activityId)
        .where('timeslots.date', '=', slot.date)
        .where('timeslots.time', '=', slot.time)
        .executeTakeFirstOrThrow();
      const confirmed = await db.kysely
        .selectFrom('bookings')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('seats'), eb.lit(0)).as('seats'))
        .where('timeslot_id', '=', row.id)
        .where('status', '=', 'confirmed')
        .executeTakeFirstOrThrow();
      return { booked: Number(row.booked), capacity: Number(row.capacity), confirmed: Number(confirmed.seats) };
    };
    const contention = await seats(seeded.contention);
    const sellOut = await seats(seeded.sellOut);
    const ok =
      contention.booked === contention.confirmed &&
      contention.booked <= contention.capacity &&
      sellOut.booked === sellOut.confirmed &&
      sellOut.booked <= sellOut.capacity &&
      sellOutCreated * 2 === sellOut.booked;
    return {
      contentionBooked: contention.booked,
      contentionConfirmed: contention.confirmed,
      contentionCapacity: contention.capacity,
      sellOutCreated,
      sellOutBooked: sellOut.booked,
      sellOutCapacity: sellOut.capacity,
      ok,
    };
  } finally {
    await db.close();
  }
}

async function sqliteVersion(bench: BenchDatabase): Promise<string> {
  const db = openDatabase(bench.config);
  try {
    const { rows } = await sql<{ v: string }>`SELECT sqlite_version() AS v`.execute(db.kysely);
    return `${rows[0]!.v} (WAL, synchronous = FULL)`;
  } finally {
    await db.close();
  }
}

/** Compiles src/ to dist/, which bin/slotbook.js runs. A run that is written down must type-check. */
function buildService(): void {
  try {
    execSync('npm run --silent build:server', { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const output = String((error as { stdout?: Buffer }).stdout ?? '');
    if (process.env.BENCH_NO_DOC !== '1' && !ONLY) throw new Error(`the service does not type-check:\n${output}`);
    log(`warning: the service does not type-check; measuring what tsc emitted anyway:\n${output}`);
  }
}

function gitCommit(): string {
  try {
    return execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return 'unknown';
  }
}

if (process.env.BENCH_RENDER === '1') {
  const { run, previous } = savedRuns();
  writeDocument(run, previous);
  log('wrote docs/benchmarks.md from bench/results/');
  process.exit(0);
}

const started = performance.now();
buildService();
const dialects: Dialect[] = process.env.BENCH_DIALECTS
  ? (process.env.BENCH_DIALECTS.split(',') as Dialect[])
  : ['sqlite', ...((await postgresReachable()) ? (['postgres'] as const) : [])];
const profileDir = process.env.BENCH_PROFILE === '1' ? mkdtempSync(join(tmpdir(), 'slotbook-profile-')) : undefined;
const results: DialectResult[] = [];
for (const dialect of dialects) {
  const result = await benchDialect(dialect, profileDir);
  results.push(result);
  process.stdout.write(`${consoleTable(result)}\n`);
}
if (profileDir) log(`CPU profiles of the service: ${profileDir}`);
const run: RunResult = {
  date: new Date().toISOString(),
  command: `${ENTRIES === 10_000_000 ? '' : `BENCH_ENTRIES=${ENTRIES} `}npm run bench`,
  commit: process.env.BENCH_COMMIT ?? gitCommit(),
  machine: machine(),
  node: process.version,
  seconds: seconds(started),
  dialects: results,
};
if (process.env.BENCH_NO_DOC !== '1' && !ONLY) {
  const previous = saveRun(run);
  writeDocument(run, previous);
  log('wrote docs/benchmarks.md');
}
log(`done in ${(run.seconds / 60).toFixed(1)} minutes`);
