// The figures of one run, the targets they are judged by, a console table and docs/benchmarks.md.
import { cpus, totalmem, release } from 'node:os';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GYG_SCENARIO } from './getyourguide.js';
import { VIATOR_CALENDAR_SCENARIO, VIATOR_CHECK_SCENARIO } from './viator.js';

export interface Row {
  scenario: string;
  /** Requests per second (batches: entries per second). */
  rate: number;
  unit: 'req/s' | 'entries/s' | 'deliveries/s';
  p50: number;
  p99: number;
  baseline?: { name: string; rate: number; p99: number };
  rssMaxMb: number;
  non2xx: number;
  note?: string;
}

export interface Target {
  what: string;
  goal: string;
  actual: string;
  met: boolean;
  /** For a miss: by how much, in words. */
  gap?: string;
}

export interface DialectResult {
  dialect: 'sqlite' | 'postgres';
  version: string;
  /** The service's RSS once started, before any load. */
  rssIdleMb: number;
  seeding: { catalogSeconds: number; entries: number; usageSeconds: number; smallEntries: number };
  rows: Row[];
  summary: { bigP50: number; bigP99: number; smallP50: number; rawGroupByMs: number; rssMaxMb: number; dailyRows: number };
  capacity: {
    contentionBooked: number;
    contentionConfirmed: number;
    contentionCapacity: number;
    sellOutCreated: number;
    sellOutBooked: number;
    sellOutCapacity: number;
    ok: boolean;
  };
  targets: Target[];
}

export interface RunResult {
  date: string;
  command: string;
  commit: string;
  machine: string;
  node: string;
  seconds: number;
  dialects: DialectResult[];
}

const fixed = (n: number, digits = 0) => n.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);
const pct = (r: number) => `${fixed(r * 100)}%`;

export function machine(): string {
  const cpu = cpus();
  return `${cpu.length} x ${cpu[0]?.model ?? 'unknown CPU'}, ${fixed(totalmem() / 2 ** 30, 1)} GiB RAM, Linux ${release()}`;
}

/** Judges a dialect's figures against the issue's targets. */
export function judge(result: Omit<DialectResult, 'targets'>): Target[] {
  const targets: Target[] = [];
  const row = (name: string) => result.rows.find((r) => r.scenario === name);
  for (const name of ['GET products', 'GET dates', 'GET timeslots']) {
    const r = row(name);
    if (!r?.baseline) continue;
    const share = ratio(r.rate, r.baseline.rate);
    targets.push({
      what: `${name}: share of bare route`,
      goal: '>= 50%',
      actual: pct(share),
      met: share >= 0.5,
      gap: share < 0.5 ? `${fixed((0.5 - share) * 100)} points short` : undefined,
    });
    targets.push({
      what: `${name}: p99 at 50 connections`,
      goal: '<= 5 ms',
      actual: `${fixed(r.p99)} ms`,
      met: r.p99 <= 5,
      gap: r.p99 > 5 ? `${fixed(r.p99 - 5)} ms over` : undefined,
    });
  }
  const limited = row('GET products, rate limit on');
  if (limited?.baseline) {
    const share = ratio(limited.rate, limited.baseline.rate);
    targets.push({
      what: 'GET products: rate limit on vs off',
      goal: '>= 90%',
      actual: pct(share),
      met: share >= 0.9,
      gap: share < 0.9 ? `${fixed((0.9 - share) * 100)} points short` : undefined,
    });
  }
  const usage = row('POST usage entry');
  if (usage?.baseline) {
    const share = ratio(usage.rate, usage.baseline.rate);
    targets.push({
      what: 'POST usage: share of bare insert',
      goal: '>= 50%',
      actual: pct(share),
      met: share >= 0.5,
      gap: share < 0.5 ? `${fixed((0.5 - share) * 100)} points short` : undefined,
    });
  }
  const booking = row('POST booking, one timeslot');
  if (booking?.baseline) {
    const share = ratio(booking.rate, booking.baseline.rate);
    targets.push({
      what: 'Bookings under contention: share of bare insert',
      goal: '>= 30%',
      actual: pct(share),
      met: share >= 0.3,
      gap: share < 0.3 ? `${fixed((0.3 - share) * 100)} points short` : undefined,
    });
  }
  const burst = result.rows.find((r) => r.scenario.startsWith('POST booking, ') && r.scenario.endsWith('burst, one webhook'));
  if (burst?.baseline) {
    const share = ratio(burst.rate, burst.baseline.rate);
    targets.push({
      what: 'Bookings with one webhook endpoint: share of without',
      goal: '>= 90%',
      actual: pct(share),
      met: share >= 0.9,
      gap: share < 0.9 ? `${fixed((0.9 - share) * 100)} points short` : undefined,
    });
  }
  const deliveries = row('Webhook deliveries to a local receiver');
  if (deliveries) {
    // Beside the bare sender of the same run: how much of what this machine's client and receiver can do at all.
    const ofBare = deliveries.baseline
      ? ` (${pct(ratio(deliveries.rate, deliveries.baseline.rate))} of the bare sender's ${fixed(deliveries.baseline.rate)}/s)`
      : '';
    targets.push({
      what: 'Webhook delivery throughput',
      goal: '>= 2,000 deliveries/s',
      actual: `${fixed(deliveries.rate)} deliveries/s${ofBare}`,
      met: deliveries.rate >= 2000,
      gap: deliveries.rate < 2000 ? `${pct(1 - deliveries.rate / 2000)} short` : undefined,
    });
    targets.push({ what: 'Webhook deliveries sent twice', goal: 'none', actual: String(deliveries.non2xx), met: deliveries.non2xx === 0 });
  }
  // Issue 27: GYG pulls 365 days of every product every 8 days; "well under a second" for one product.
  const gyg = row(GYG_SCENARIO);
  if (gyg) {
    targets.push({
      what: `${GYG_SCENARIO}: p99`,
      goal: '< 1,000 ms',
      actual: `${fixed(gyg.p99, 1)} ms (p50 ${fixed(gyg.p50, 1)} ms)`,
      met: gyg.p99 < 1000,
      gap: gyg.p99 >= 1000 ? `${fixed(gyg.p99 - 1000)} ms over` : undefined,
    });
  }
  // Issue 36: Viator's SLA (P90: calendar < 5 s, check < 1 s); slotbook's own aim for the calendar is 100 ms.
  const calendar = row(VIATOR_CALENDAR_SCENARIO);
  if (calendar) {
    targets.push({
      what: `${VIATOR_CALENDAR_SCENARIO}: p99`,
      goal: '< 100 ms',
      actual: `${fixed(calendar.p99, 1)} ms (p50 ${fixed(calendar.p50, 1)} ms)`,
      met: calendar.p99 < 100,
      gap: calendar.p99 >= 100 ? `${fixed(calendar.p99 - 100)} ms over` : undefined,
    });
  }
  const check = row(VIATOR_CHECK_SCENARIO);
  if (check) {
    targets.push({
      what: `${VIATOR_CHECK_SCENARIO}: p99`,
      goal: '< 1,000 ms',
      actual: `${fixed(check.p99, 1)} ms (p50 ${fixed(check.p50, 1)} ms)`,
      met: check.p99 < 1000,
      gap: check.p99 >= 1000 ? `${fixed(check.p99 - 1000)} ms over` : undefined,
    });
  }
  targets.push({
    what: 'Confirmed seats never above capacity',
    goal: 'always',
    actual: result.capacity.ok ? 'held' : 'VIOLATED',
    met: result.capacity.ok,
  });
  const s = result.summary;
  const growth = ratio(s.bigP50, s.smallP50);
  targets.push({
    what: 'Summary, 10M vs 10k entries (p50)',
    goal: '<= 2x',
    actual: `${fixed(growth, 2)}x`,
    met: growth <= 2,
    gap: growth > 2 ? `${fixed(growth - 2, 2)}x over` : undefined,
  });
  const speedup = ratio(s.rawGroupByMs, s.bigP50);
  targets.push({
    what: 'Summary vs GROUP BY over raw entries',
    goal: '>= 100x faster',
    actual: `${fixed(speedup)}x`,
    met: speedup >= 100,
    gap: speedup < 100 ? `${fixed(100 - speedup)}x short` : undefined,
  });
  const batch = row('POST usage batch (1,000 entries)');
  if (batch) {
    const goal = result.dialect === 'sqlite' ? 100_000 : 50_000;
    targets.push({
      what: 'Batch ingestion',
      goal: `>= ${fixed(goal)} entries/s`,
      actual: `${fixed(batch.rate)} entries/s`,
      met: batch.rate >= goal,
      gap: batch.rate < goal ? `${pct(1 - batch.rate / goal)} short` : undefined,
    });
  }
  const rss = Math.max(s.rssMaxMb, ...result.rows.map((r) => r.rssMaxMb));
  targets.push({
    what: 'Server RSS, every scenario',
    goal: '<= 200 MB',
    actual: `${fixed(rss)} MB max`,
    met: rss <= 200,
    gap: rss > 200 ? `${fixed(rss - 200)} MB over` : undefined,
  });
  return targets;
}

export function consoleTable(result: DialectResult): string {
  const lines = [`\n== ${result.dialect} (${result.version})`];
  lines.push(
    [
      'scenario'.padEnd(34),
      'rate'.padStart(12),
      'p50 ms'.padStart(7),
      'p99 ms'.padStart(7),
      'baseline'.padStart(12),
      'ratio'.padStart(6),
      'RSS MB'.padStart(7),
      'non2xx'.padStart(7),
    ].join(' '),
  );
  for (const r of result.rows) {
    lines.push(
      [
        r.scenario.padEnd(34),
        `${fixed(r.rate)}`.padStart(12),
        fixed(r.p50, 1).padStart(7),
        fixed(r.p99, 1).padStart(7),
        (r.baseline ? fixed(r.baseline.rate) : '-').padStart(12),
        (r.baseline ? pct(ratio(r.rate, r.baseline.rate)) : '-').padStart(6),
        fixed(r.rssMaxMb).padStart(7),
        String(r.non2xx).padStart(7),
      ].join(' '),
    );
  }
  const s = result.summary;
  lines.push(`service RSS after start: ${fixed(result.rssIdleMb)} MB`);
  lines.push(`summary: 10M p50 ${fixed(s.bigP50, 2)} ms, 10k p50 ${fixed(s.smallP50, 2)} ms, raw GROUP BY ${fixed(s.rawGroupByMs)} ms`);
  for (const t of result.targets) lines.push(`  ${t.met ? 'MET ' : 'MISS'} ${t.what}: ${t.actual} (goal ${t.goal})${t.gap ? `, ${t.gap}` : ''}`);
  return lines.join('\n');
}

const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));
const DOC = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));
const NOTES = fileURLToPath(new URL('./notes.md', import.meta.url));

/** Keeps this run's figures and the previous run's, so the document can show how much they moved. */
export function saveRun(run: RunResult): RunResult | undefined {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const latest = `${RESULTS_DIR}latest.json`;
  const previous = existsSync(latest) ? (JSON.parse(readFileSync(latest, 'utf8')) as RunResult) : undefined;
  if (previous) writeFileSync(`${RESULTS_DIR}previous.json`, JSON.stringify(previous, null, 2));
  writeFileSync(latest, JSON.stringify(run, null, 2));
  return previous;
}

/** The last two saved runs, to write the document again (after editing bench/notes.md) without measuring. */
export function savedRuns(): { run: RunResult; previous: RunResult | undefined } {
  const read = (name: string) =>
    existsSync(`${RESULTS_DIR}${name}`) ? (JSON.parse(readFileSync(`${RESULTS_DIR}${name}`, 'utf8')) as RunResult) : undefined;
  const run = read('latest.json');
  if (!run) throw new Error('no saved run in bench/results/');
  return { run, previous: read('previous.json') };
}

export function writeDocument(run: RunResult, previous: RunResult | undefined): void {
  const out: string[] = [];
  out.push('# Benchmarks', '');
  out.push('Generated by `npm run bench` (bench/run.ts); the analysis at the end is bench/notes.md. Do not edit by hand.', '');
  out.push(
    `- Date: ${run.date}`,
    `- Command: \`${run.command}\` at commit ${run.commit}`,
    `- Machine: ${run.machine}`,
    `- Node: ${run.node}`,
    `- Wall time of the run: ${fixed(run.seconds / 60, 1)} minutes`,
  );
  if (previous) out.push(`- Previous run (for noise): ${previous.date}`);
  out.push('');
  for (const d of run.dialects) {
    const before = previous?.dialects.find((p) => p.dialect === d.dialect);
    out.push(`## ${d.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} (${d.version})`, '');
    out.push(
      `Data: 1 operator, 50 activities, a year of timeslots (4 a day each); ${fixed(d.seeding.entries)} usage entries over 365 days and 50 meters, ` +
        `loaded through recordUsageEntries in ${fixed(d.seeding.usageSeconds, 1)} s (${fixed(d.seeding.entries / d.seeding.usageSeconds)} entries/s); ` +
        `catalog in ${fixed(d.seeding.catalogSeconds, 1)} s; a second operator with ${fixed(d.seeding.smallEntries)} entries.`,
      '',
    );
    out.push('| scenario | rate | p50 ms | p99 ms | bare baseline | baseline rate | baseline p99 ms | ratio | max RSS MB | non-2xx | previous run |');
    out.push('|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|');
    for (const r of d.rows) {
      const old = before?.rows.find((o) => o.scenario === r.scenario);
      const moved = old ? `${fixed(old.rate)} (${r.rate >= old.rate ? '+' : ''}${fixed(((r.rate - old.rate) / old.rate) * 100)}%)` : '-';
      out.push(
        `| ${r.scenario} | ${fixed(r.rate)} ${r.unit} | ${fixed(r.p50, 1)} | ${fixed(r.p99, 1)} | ${r.baseline?.name ?? '-'} | ${r.baseline ? fixed(r.baseline.rate) : '-'} | ${r.baseline ? fixed(r.baseline.p99, 1) : '-'} | ${r.baseline ? pct(ratio(r.rate, r.baseline.rate)) : '-'} | ${fixed(r.rssMaxMb)} | ${r.non2xx}${r.note ? ` (${r.note})` : ''} | ${moved} |`,
      );
    }
    const s = d.summary;
    out.push('', `Service RSS after start, before any load: ${fixed(d.rssIdleMb)} MB.`);
    out.push(
      `Usage summary over the whole year (sequential requests, 1 connection): ${fixed(s.bigP50, 2)} ms p50 / ${fixed(s.bigP99, 2)} ms p99 with ` +
        `${fixed(d.seeding.entries)} entries (${fixed(s.dailyRows)} daily totals, read as whole months from the monthly totals plus the edge months' days), ${fixed(s.smallP50, 2)} ms p50 with ${fixed(d.seeding.smallEntries)} entries; ` +
        `GROUP BY over the raw entries of the same year in the same database: ${fixed(s.rawGroupByMs)} ms (median of 3, without HTTP). Max RSS ${fixed(s.rssMaxMb)} MB.` +
        (before
          ? ` Previous run: ${fixed(before.summary.bigP50, 2)} / ${fixed(before.summary.smallP50, 2)} / ${fixed(before.summary.rawGroupByMs)} ms.`
          : ''),
      '',
    );
    const c = d.capacity;
    out.push(
      `Capacity: the contention timeslot holds ${fixed(c.contentionBooked)} booked seats = ${fixed(c.contentionConfirmed)} seats of confirmed bookings (capacity ${fixed(c.contentionCapacity)}); ` +
        `the sell-out run created ${c.sellOutCreated} bookings of 2 seats for a capacity of ${c.sellOutCapacity} (booked ${c.sellOutBooked}): ${c.ok ? 'never above capacity' : 'OVERBOOKED'}.`,
      '',
    );
    out.push('| target | goal | this run | met | gap |', '|---|---|---|---|---|');
    for (const t of d.targets) out.push(`| ${t.what} | ${t.goal} | ${t.actual} | ${t.met ? 'yes' : '**no**'} | ${t.gap ?? ''} |`);
    out.push('');
  }
  if (existsSync(NOTES)) out.push(readFileSync(NOTES, 'utf8'));
  writeFileSync(DOC, out.join('\n'));
}
