// Shared by the dashboard's browser tests: the built web app (built here when missing or older than
// its sources) and Debian's Chromium driven by playwright-core. Tests skip when Chromium is missing.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WEB = join(ROOT, 'web');
const BUILT_INDEX = join(WEB, 'dist', 'index.html');

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/** The server's files the pages compile in too (they import nothing): the guests' shared words, the placeholders. */
const SHARED_WITH_WEB = ['src/lib/guest-messages.ts', 'src/workflows/placeholders.ts'];

function builtIsFresh(): boolean {
  const sources = Math.max(
    newestMtime(join(WEB, 'src')),
    newestMtime(join(WEB, 'index.html')),
    newestMtime(join(WEB, 'vite.config.ts')),
    ...SHARED_WITH_WEB.map((file) => newestMtime(join(ROOT, file))),
  );
  return existsSync(BUILT_INDEX) && statSync(BUILT_INDEX).mtimeMs >= sources;
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Builds web/dist (vite build web) unless it is there and newer than every source file. Test files run
 * in parallel workers (and once per database project), so one builds under a lock while the others wait.
 */
export function ensureDashboardBuilt(): void {
  const lock = join(tmpdir(), `slotbook-web-build-${createHash('sha256').update(ROOT).digest('hex').slice(0, 12)}.lock`);
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (builtIsFresh()) return;
    try {
      mkdirSync(lock);
    } catch {
      // Someone else is building; a lock older than two minutes is left over from a killed run.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 120_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`timed out waiting for the dashboard build (lock ${lock})`);
      sleep(200);
      continue;
    }
    try {
      if (builtIsFresh()) return;
      const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
      const result = spawnSync(process.execPath, [vite, 'build', 'web'], { cwd: ROOT, encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`vite build web failed:\n${result.stdout}\n${result.stderr}`);
      return;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export async function launchBrowser(viewport = { width: 1360, height: 900 }): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'slotbook-chromium-'));
  // A persistent context is how playwright takes a --user-data-dir: a fresh one for every run.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
    viewport,
    locale: 'en-GB',
    timezoneId: 'UTC',
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Screenshots go to docs/screenshots/ when SLOTBOOK_SCREENSHOTS=1 (how the README's pictures are made),
 * else to a temporary folder, so that a test run does not change the checkout.
 */
const SHOTS = process.env.SLOTBOOK_SCREENSHOTS === '1' ? join(ROOT, 'docs', 'screenshots') : mkdtempSync(join(tmpdir(), 'slotbook-shots-'));
mkdirSync(SHOTS, { recursive: true });

export async function screenshot(page: Page, name: string, fullPage = true): Promise<string> {
  const path = join(SHOTS, `${name}.png`);
  // Let transitions settle and the caret not blink into the picture.
  // Passing toasts are left out, and the page is at its top (a sticky sidebar follows the scroll).
  await page.mouse.move(0, 0);
  await page.evaluate(() => {
    window.scrollTo(0, 0);
    (document.activeElement as HTMLElement | null)?.blur();
    document.querySelector<HTMLElement>('.toasts')?.style.setProperty('visibility', 'hidden');
  });
  await page.waitForTimeout(150);
  await page.screenshot({ path, fullPage, animations: 'disabled', caret: 'hide' });
  await page.evaluate(() => document.querySelector<HTMLElement>('.toasts')?.style.removeProperty('visibility'));
  return path;
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The rules of WCAG 2.1 at levels A and AA, as axe-core tags them: `axeViolations(page, { tags: WCAG_21_AA })`. */
export const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] as const;

export interface AxeOptions {
  /** Only the element this selector names, instead of the whole document. */
  selector?: string;
  /** Only the rules with these tags (axe's runOnly), e.g. WCAG_21_AA; else every rule. */
  tags?: readonly string[];
  /** Only violations of these impacts (e.g. serious and critical); else all. */
  impacts?: readonly string[];
}

/**
 * The accessibility violations axe-core finds on the page (or in the element `selector` names), as
 * "rule: target" lines, so that a failing test says what to fix. axe is run through the DevTools
 * protocol, which the pages' Content-Security-Policy does not govern.
 */
export async function axeViolations(page: Page, options: string | AxeOptions = {}): Promise<string[]> {
  const { selector, tags, impacts } = typeof options === 'string' ? { selector: options } : options;
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async ({ scope, tags, impacts }) => {
      type Result = { violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] };
      const axe = (window as unknown as { axe: { run(context: unknown, options?: unknown): Promise<Result> } }).axe;
      const context = scope ? document.querySelector(scope) : document;
      const result = await (tags ? axe.run(context, { runOnly: { type: 'tag', values: tags } }) : axe.run(context));
      return result.violations
        .filter((violation) => !impacts || impacts.includes(violation.impact ?? ''))
        .flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${JSON.stringify(node.target)}`));
    },
    { scope: selector ?? null, tags: tags ? [...tags] : null, impacts: impacts ? [...impacts] : null },
  );
}

/** Signs in on the dashboard's sign-in page with e-mail and password, and waits for the signed-in shell. */
export async function signIn(page: Page, base: string, email: string, password: string): Promise<void> {
  if (!new URL(page.url(), base).pathname.startsWith('/sign-in') || !page.url().startsWith(base)) await page.goto(`${base}/sign-in`);
  await page.getByLabel('E-mail address', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /My account/ })
    .waitFor({ state: 'attached' });
}

/**
 * Signs in a new owner through the one-time link `slotbook operator create --email` printed, setting
 * `password` on the way (the first sign-in asks for one), and waits for the bookings page.
 */
export async function signInWithOwnerLink(page: Page, link: string, password: string): Promise<void> {
  await page.goto(link);
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Repeat the password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await page.getByRole('heading', { name: 'Bookings', level: 1 }).waitFor();
}

/** Signs out through the navigation (opening the phone menu when it is closed). */
export async function signOut(page: Page): Promise<void> {
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('E-mail address', { exact: true }).waitFor();
}

/** The names of the main navigation's links, in order. */
export async function navigationLinks(page: Page): Promise<string[]> {
  const links = page.getByRole('navigation', { name: 'Main' }).locator('ul').getByRole('link');
  return (await links.allTextContents()).map((text) => text.trim());
}
