// The metrics, scraped by a real Prometheus server (Debian's package; .ci/run installs it) from a real
// `slotbook serve` process on loopback, and read back through Prometheus's HTTP API with PromQL: requests
// by route pattern, bookings and seats per channel, the queues read from the database. /metrics is only
// on METRICS_PORT, never on the public port; the repository's alert rules load (promtool and Prometheus).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/local.js';
import { startWorld, type World } from './world.js';

const PROMETHEUS = '/usr/bin/prometheus';
const PROMTOOL = '/usr/bin/promtool';
const ALERTS = fileURLToPath(new URL('../../ops/prometheus/alerts.yml', import.meta.url));
const installed = existsSync(PROMETHEUS) && existsSync(PROMTOOL);
if (!installed) console.warn('test/observability/prometheus.test.ts: skipped: no /usr/bin/prometheus (apt-get install prometheus; .ci/run does)');

let world: World;
let metricsPort: number;
let prometheus: ChildProcess | undefined;
let prometheusUrl: string;
let dir: string;

beforeAll(async () => {
  if (!installed) return;
  metricsPort = await freePort();
  world = await startWorld({ METRICS_PORT: String(metricsPort) });
  dir = mkdtempSync(join(tmpdir(), 'slotbook-prometheus-'));
  copyFileSync(ALERTS, join(dir, 'alerts.yml'));
  writeFileSync(
    join(dir, 'prometheus.yml'),
    [
      'global: { scrape_interval: 1s, evaluation_interval: 1s }',
      'rule_files: [alerts.yml]',
      'scrape_configs:',
      '  - job_name: slotbook',
      `    static_configs: [{ targets: ['127.0.0.1:${metricsPort}'] }]`,
      '',
    ].join('\n'),
  );
  const port = await freePort();
  prometheusUrl = `http://127.0.0.1:${port}`;
  prometheus = spawn(
    PROMETHEUS,
    [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
    { stdio: 'ignore' },
  );
}, 180_000);

afterAll(async () => {
  if (!installed) return;
  if (prometheus && prometheus.exitCode === null) {
    const exited = new Promise((resolve) => prometheus!.once('exit', resolve));
    prometheus.kill('SIGTERM');
    await exited;
  }
  await world?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The PromQL query's value once Prometheus has it (`accept`), polled for at most 40 s. */
async function queryUntil(query: string, accept: (value: number) => boolean): Promise<number> {
  let last: number | undefined;
  for (const until = Date.now() + 40_000; Date.now() < until; ) {
    const answer = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(query)}`).then(
      (response) => (response.ok ? (response.json() as Promise<{ data: { result: { value: [number, string] }[] } }>) : undefined),
      () => undefined,
    );
    const value = answer?.data.result[0]?.value[1];
    if (value !== undefined) {
      last = Number(value);
      if (accept(last)) return last;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`Prometheus never answered ${query} as expected (last: ${last})`);
}

describe.skipIf(!installed)('metrics scraped by Prometheus', () => {
  it('are on METRICS_PORT alone, and the alert rules are valid', async () => {
    expect((await fetch(`${world.server.url}/metrics`)).status).toBe(404);
    const scrape = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const checked = spawnSync(PROMTOOL, ['check', 'rules', ALERTS], { encoding: 'utf8' });
    expect(checked.status, checked.stdout + checked.stderr).toBe(0);
    expect(checked.stdout).toMatch(/SUCCESS: \d+ rules found/);
  });

  it('counts bookings per channel, seats and requests by route pattern, read back with PromQL', async () => {
    expect(await queryUntil('up{job="slotbook"}', (v) => v === 1)).toBe(1);
    const first = await world.book(2);
    const second = await world.book(3);
    expect([first.status, second.status]).toEqual([201, 201]);
    const cancelled = await fetch(`${world.server.url}/api/v2/ota/viator/booking/${first.body.data!.BookingReference}/cancel`, {
      method: 'POST',
      headers: { authorization: `Bearer ${world.otaKey}` },
    });
    expect(cancelled.status).toBe(200);

    expect(await queryUntil('sum(slotbook_bookings_total{channel="partner",change="confirmed"})', (v) => v === 2)).toBe(2);
    expect(await queryUntil('sum(slotbook_bookings_total{channel="partner",change="cancelled"})', (v) => v === 1)).toBe(1);
    expect(await queryUntil('sum(slotbook_seats_sold_total{channel="partner"})', (v) => v === 5)).toBe(5);
    // By the route's pattern, not its path (no booking reference in a label).
    expect(
      await queryUntil(
        'sum(slotbook_http_request_duration_seconds_count{route="/api/v2/ota/:partner/booking",method="POST",status="201"})',
        (v) => v === 2,
      ),
    ).toBe(2);
    expect(
      await queryUntil(
        'sum(slotbook_http_request_duration_seconds_count{route="/api/v2/ota/:partner/booking/:BookingReference/cancel",status="200"})',
        (v) => v === 1,
      ),
    ).toBe(1);
    // Read from the database at the scrape, and the process's own gauges.
    expect(await queryUntil('count(slotbook_queue_depth)', (v) => v === 3)).toBe(3);
    expect(await queryUntil('sum(slotbook_db_query_duration_seconds_count{operation="insert",outcome="ok"})', (v) => v > 0)).toBeGreaterThan(0);
    expect(await queryUntil('max(nodejs_eventloop_lag_p99_seconds)', (v) => v >= 0)).toBeGreaterThanOrEqual(0);
    expect(await queryUntil('max(process_resident_memory_bytes)', (v) => v > 10_000_000)).toBeGreaterThan(10_000_000);
    const labels = await fetch(`${prometheusUrl}/api/v1/label/route/values`).then((response) => response.json() as Promise<{ data: string[] }>);
    expect(labels.data.some((route) => route.includes('BK-'))).toBe(false);
    // Prometheus loaded the repository's rules, and none of them is broken.
    const rules = await fetch(`${prometheusUrl}/api/v1/rules`).then(
      (response) => response.json() as Promise<{ data: { groups: { rules: { name: string; health: string }[] }[] } }>,
    );
    const loaded = rules.data.groups.flatMap((group) => group.rules);
    expect(loaded.map((rule) => rule.name)).toEqual(expect.arrayContaining(['SlotbookQueueStuck', 'SlotbookHighErrorRate', 'SlotbookEventLoopLag']));
    for (const rule of loaded) expect(rule.health, rule.name).not.toBe('err');
  }, 120_000);
});
