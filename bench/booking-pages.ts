// The booking pages' two budgets (issue 13): their JavaScript under 80 KB gzipped, and the first load on
// localhost under 300 ms to interactive. Measures the built script (web/dist, built first when missing)
// and loads /book/demo of the demo operator in headless Chromium with the browser cache off: "interactive"
// is the moment the activity list is rendered by the script and its "Book" links work (what the guest
// waits for), which the script marks (performance.mark 'slotbook-interactive'), from navigation start. Prints the figures as Markdown; `npm run bench`
// can call measureBookingPages(). Run alone: npx tsx bench/booking-pages.ts
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { buildApp } from '../src/app.js';
import { wireReactions } from '../src/reactions.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/connection.js';
import { migrate } from '../src/db/migrate.js';
import { seedDemo } from '../src/demo/seed.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const ASSETS = join(ROOT, 'web', 'dist', 'assets');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const LOADS = Number(process.env.BENCH_PAGE_LOADS ?? 20);

export interface BookingPagesResult {
  scriptBytes: number;
  scriptGzipBytes: number;
  styleGzipBytes: number;
  loadsMs: number[];
  p50Ms: number;
  p95Ms: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

export async function measureBookingPages(): Promise<BookingPagesResult> {
  if (!existsSync(ASSETS) || !readdirSync(ASSETS).some((name) => name.startsWith('booking-'))) {
    const built = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', 'web'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    if (built.status !== 0) throw new Error(`vite build web failed: ${built.stderr}`);
  }
  const names = readdirSync(ASSETS);
  const script = readFileSync(join(ASSETS, names.find((name) => /^booking-.*\.js$/.test(name))!));
  const style = readFileSync(join(ASSETS, names.find((name) => /^booking-.*\.css$/.test(name))!));

  const dir = mkdtempSync(join(tmpdir(), 'slotbook-bench-pages-'));
  const config = loadConfig({
    DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
    PUBLIC_URL: 'http://127.0.0.1',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '0',
  });
  const db = openDatabase(config.database);
  await migrate(db);
  await seedDemo(db);
  wireReactions();
  const app = await buildApp({ db, config, logger: false });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const profile = mkdtempSync(join(tmpdir(), 'slotbook-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  const loadsMs: number[] = [];
  try {
    // One tab, as a guest's browser has: each load navigates it from about:blank with the cache off.
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    for (let i = 0; i < LOADS + 2; i++) {
      await page.goto('about:blank');
      await page.goto(`${base}/book/demo`);
      await page.locator('.cards a.button').first().waitFor();
      // From the start of the navigation to the mark the script sets once the first page is rendered.
      const ms = await page.evaluate(() => performance.getEntriesByName('slotbook-interactive')[0]!.startTime);
      if (i >= 2) loadsMs.push(ms); // the first two warm the server's compression cache and Chromium
    }
  } finally {
    await context.close();
    await app.close();
    await db.close();
    rmSync(profile, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
  const sorted = [...loadsMs].sort((a, b) => a - b);
  return {
    scriptBytes: script.length,
    scriptGzipBytes: gzipSync(script, { level: 9 }).length,
    styleGzipBytes: gzipSync(style, { level: 9 }).length,
    loadsMs,
    p50Ms: percentile(sorted, 50),
    p95Ms: percentile(sorted, 95),
  };
}

export function bookingPagesMarkdown(result: BookingPagesResult): string {
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  return [
    '## Booking pages (/book/{slug})',
    '',
    `Measured by bench/booking-pages.ts (\`npx tsx bench/booking-pages.ts\`) on ${new Date().toISOString().slice(0, 10)}: the demo operator on SQLite, headless Chromium on the same machine, browser cache off; navigation start to the script's mark once the activity list is rendered.`,
    '',
    '| budget | target | measured |',
    '|---|---:|---:|',
    `| booking pages' JavaScript, gzipped (the one script they load) | < 80 KB | ${kb(result.scriptGzipBytes)} KB (${kb(result.scriptBytes)} KB raw; styles ${kb(result.styleGzipBytes)} KB gzipped) |`,
    `| first load of /book/demo to interactive (activity list rendered by the script), localhost | < 300 ms | p50 ${result.p50Ms.toFixed(0)} ms, p95 ${result.p95Ms.toFixed(0)} ms over ${result.loadsMs.length} loads |`,
    '',
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await measureBookingPages();
  process.stdout.write(`${bookingPagesMarkdown(result)}\n`);
}
