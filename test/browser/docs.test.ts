// Swagger UI at /docs still works under its Content-Security-Policy (http/security-headers.ts): it renders
// every operation, calls the API with "Try it out", and the browser reports no blocked resource. Real
// headless Chromium; SQLite project only, like the dashboard's browser tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDialect } from '../helpers/database.js';
import { freePort } from '../helpers/local.js';
import { hasChromium, launchBrowser, type Browser } from './browser.js';

const run = hasChromium && testDialect() === 'sqlite';

describe.skipIf(!run)('API docs in a browser', { timeout: 60_000 }, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({ PUBLIC_URL: base });
    await t.app.listen({ port, host: '127.0.0.1' });
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('renders Swagger UI, tries an operation out, and nothing is blocked by the policy', async () => {
    const page = browser.page;
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/Content.Security.Policy|Refused to/i.test(message.text())) blocked.push(message.text());
    });
    page.on('pageerror', (error) => blocked.push(String(error)));
    const response = await page.goto(`${base}/docs`);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.locator('.opblock').nth(20).waitFor();
    expect(await page.locator('.opblock').count()).toBeGreaterThan(40);

    const health = page.locator('#operations-Health-get_healthz');
    await health.locator('.opblock-summary').click();
    await health.locator('.try-out__btn').click();
    await health.locator('.execute').click();
    await expect
      .poll(() => health.locator('.live-responses-table tbody .response-col_status').first().textContent(), { timeout: 10_000 })
      .toContain('200');
    expect(blocked).toEqual([]);
  });

  it('serves the problem pages, which run nothing, under the strict policy', async () => {
    const page = browser.page;
    const response = await page.goto(`${base}/problems`);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
    expect(await page.locator('table tr').count()).toBeGreaterThan(5);
  });
});
