// The cost of metrics and tracing: the same partner reads and bookings against services with METRICS_PORT
// and OTEL_EXPORTER_OTLP_ENDPOINT set (/metrics scraped every 5 s as Prometheus would), beside the first
// with both off, in the same run: metrics alone, then tracing 1 request in 100, 1 in 10 and every request
// (OTEL_TRACES_SAMPLER_ARG; BENCH_TELEMETRY chooses). The spans go to a local OTLP/HTTP sink that answers
// 200 and keeps nothing.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { BenchDatabase } from './database.js';
import { runLoad, warmUp, type LoadResult, type LoadSpec } from './load.js';
import { startService, type Child } from './processes.js';
import { freePort } from '../test/helpers/local.js';
import type { Row } from './report.js';
import { bookingBody, cycle, partnerPath, timeslotsPaths } from './requests.js';
import type { Seeded } from './seed.js';

const CONNECTIONS = 50;
/** Linux's clock ticks per second in /proc/<pid>/stat (USER_HZ, 100 on every common kernel). */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds the process has used (user and system): per request, a measure of the cost that other work
 * on the machine does not change, as it does the rate (the two services' runs interleave, but a busy
 * machine still shifts a rate by more than the few per cent looked for).
 */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}
const SCRAPE_EVERY_MS = 5_000;

async function startOtlpSink(): Promise<{ url: string; spans: () => number; close(): Promise<void> }> {
  let requests = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      requests += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${port}`,
    spans: () => requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export async function benchTelemetry(
  bench: BenchDatabase,
  plain: Child,
  seeded: Seeded,
  seconds: number,
  log: (message: string) => void,
): Promise<Row[]> {
  const sink = await startOtlpSink();
  const rows: Row[] = [];
  // BENCH_TELEMETRY: which services to compare with the plain one, as trace sample ratios ("none": metrics alone).
  for (const ratio of (process.env.BENCH_TELEMETRY ?? 'none,0.01,0.1,1').split(',')) {
    const label =
      ratio === 'none'
        ? 'metrics on, no tracing'
        : ratio === '1'
          ? 'metrics on, every request traced'
          : `metrics on, 1 in ${Math.round(1 / Number(ratio))} traced`;
    rows.push(...(await compare(bench, plain, seeded, seconds, log, sink, label, ratio)));
  }
  await sink.close();
  return rows;
}

async function compare(
  bench: BenchDatabase,
  plain: Child,
  seeded: Seeded,
  seconds: number,
  log: (message: string) => void,
  sink: { url: string; spans(): number },
  label: string,
  ratio: string,
): Promise<Row[]> {
  const metricsPort = await freePort();
  const observed: Child = await startService(bench.url, undefined, {
    METRICS_PORT: String(metricsPort),
    ...(ratio !== 'none' && { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_TRACES_SAMPLER_ARG: ratio }),
  });
  let scrapes = 0;
  const scraper = setInterval(() => {
    fetch(`http://127.0.0.1:${metricsPort}/metrics`)
      .then((response) => response.text())
      .then(() => (scrapes += 1))
      .catch(() => undefined);
  }, SCRAPE_EVERY_MS);
  const exportsBefore = sink.spans();
  const ota = { authorization: `Bearer ${seeded.keys.ota}` };
  const rows: Row[] = [];
  try {
    const scenarios: [string, Omit<LoadSpec, 'url'>][] = [
      ['GET products', { path: `${partnerPath}/products`, connections: CONNECTIONS, duration: seconds, headers: ota }],
      ['GET timeslots', { next: cycle(timeslotsPaths(seeded)), connections: CONNECTIONS, duration: seconds, headers: ota }],
      [
        'POST booking, one timeslot',
        {
          method: 'POST',
          path: `${partnerPath}/booking`,
          body: bookingBody(seeded.contention, 1),
          connections: CONNECTIONS,
          duration: seconds,
          headers: ota,
        },
      ],
    ];
    for (const [name, spec] of scenarios) {
      log(`${name}: off vs ${label}`);
      // Off, on, off, on: each half of the pair once first, so that neither gets the quieter minute.
      const off: LoadResult[] = [];
      const on: LoadResult[] = [];
      const cpu = { off: 0, on: 0 };
      for (const [target, into, key] of [
        [plain, off, 'off'],
        [observed, on, 'on'],
        [observed, on, 'on'],
        [plain, off, 'off'],
      ] as const) {
        await warmUp({ url: target.url, ...spec }, 2);
        const before = cpuSeconds(target.pid);
        into.push(await runLoad({ url: target.url, ...spec, duration: seconds / 2 }));
        cpu[key] += cpuSeconds(target.pid) - before;
      }
      const total = (runs: LoadResult[]) => runs.reduce((sum, run) => sum + run.total, 0);
      const cpuMs = { off: (cpu.off * 1000) / total(off), on: (cpu.on * 1000) / total(on) };
      const mean = (runs: LoadResult[], key: 'rps' | 'p50' | 'p99') => runs.reduce((sum, run) => sum + run[key], 0) / runs.length;
      log(
        `${name}, ${label}: ${mean(on, 'rps').toFixed(0)} vs ${mean(off, 'rps').toFixed(0)} req/s off; CPU per request ${cpuMs.on.toFixed(3)} vs ${cpuMs.off.toFixed(3)} ms`,
      );
      rows.push({
        scenario: `${name}, ${label}`,
        rate: mean(on, 'rps'),
        unit: 'req/s',
        p50: mean(on, 'p50'),
        p99: mean(on, 'p99'),
        baseline: { name: `${name}, metrics and traces off (same run)`, rate: mean(off, 'rps'), p99: mean(off, 'p99') },
        rssMaxMb: 0,
        non2xx: [...on, ...off].reduce((sum, run) => sum + run.non2xx + run.errors, 0),
        note: `CPU per request ${cpuMs.on.toFixed(3)} ms vs ${cpuMs.off.toFixed(3)} ms off (${((cpuMs.on / cpuMs.off - 1) * 100).toFixed(1)}%); off p50 ${mean(off, 'p50').toFixed(1)} ms; ${sink.spans() - exportsBefore} OTLP exports, ${scrapes} scrapes so far`,
      });
    }
  } finally {
    clearInterval(scraper);
    await observed.stop();
  }
  return rows;
}
