// The dashboard's Viator page in real Chromium against a real `slotbook serve`: set the connection up (the
// key shown once, with a copy button), set the supplier ID (refused at its field first), offer an activity
// under a product option ID with its age bands and the reason for a family ticket, call the calendar as
// Viator would with the key the page showed, and find that request (and a refused one) in the page's list;
// axe-core on each view, phone width, the switch by keyboard. SQLite project only, as the other browser tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { testDialect } from '../helpers/database.js';
import type { ServerProcess } from '../helpers/server-process.js';
import { day } from '../viator/fixtures.js';
import { axeViolations, hasChromium, navigationLinks, screenshot, WCAG_21_AA } from './browser.js';
import { startDashboardWorld, type DashboardWorld } from './dashboard-world.js';

const run = hasChromium && testDialect() === 'sqlite';

describe.skipIf(!run)('the Viator page in a browser', { timeout: 60_000 }, () => {
  let world: DashboardWorld;
  let server: ServerProcess;
  let page: Page;
  let key: string;

  beforeAll(async () => {
    // Pushes go to a port where nothing listens: never to Viator's real API from a test.
    world = await startDashboardWorld({
      operator: 'Fjord Tours',
      owner: 'owner@fjord.example',
      serverEnv: { VIATOR_API_URL: 'http://127.0.0.1:9/viator-api' },
    });
    server = world.server;
    const { ActivityID } = await world.api<{ ActivityID: string }>('POST', '/api/v2/admin/activities', {
      Name: 'Fjord Kayak',
      DurationMinutes: 90,
      Timezone: 'Europe/Oslo',
      Currency: 'NOK',
      UnitPrice: 45000,
    });
    await world.api('POST', `/api/v2/admin/activities/${ActivityID}/ticket-types`, {
      Type: 'family',
      Name: 'Family',
      Price: 120000,
      Category: 'family',
      People: 4,
    });
    await world.api('POST', `/api/v2/admin/activities/${ActivityID}/timeslots`, { Date: day(3), Time: '10:00', Capacity: 12 });
    page = await world.openBrowser({ ownerPassword: 'fjord tours owner', timeout: 15_000 });
  }, 120_000);

  afterAll(async () => {
    await world?.close();
  });

  const calendar = (productOptionIds: string[]) =>
    fetch(`${server.url}/viator/v2/availability/calendar`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ supplierId: 4711, productOptionIds, startDate: day(1), endDate: day(30) }),
    });

  it('sets the connection up from the navigation and shows the key once, with a copy button', async () => {
    expect(await navigationLinks(page)).toContain('Viator');
    await page.getByRole('link', { name: 'Viator', exact: true }).click();
    await page.getByRole('heading', { name: 'Viator', level: 1 }).waitFor();
    await page.getByText('Not set up yet.').waitFor();
    expect(await axeViolations(page, { tags: WCAG_21_AA })).toEqual([]);

    await page.getByRole('button', { name: 'Set up the connection' }).click();
    await page.getByText('You will not see it again', { exact: false }).waitFor();
    key = await page.getByLabel('Key for Viator (X-Api-Key)', { exact: true }).inputValue();
    expect(key).toMatch(/^vtr_/);
    await page.getByRole('button', { name: 'Copy' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    expect(await page.getByLabel('Switched on').isChecked()).toBe(true);
    const connection = await world.api<{ EndpointURL: string; Key?: string }>('GET', '/api/v2/admin/viator');
    expect(connection.EndpointURL).toMatch(/\/viator$/);
    expect(connection.Key).toBeUndefined(); // the page's copy is the only one
    expect(await axeViolations(page, { tags: WCAG_21_AA })).toEqual([]);

    await page.reload();
    await page.getByRole('heading', { name: 'Connection' }).waitFor();
    await page.getByText(/stored as a hash, never shown again/).waitFor();
    expect(await page.getByLabel('Key for Viator (X-Api-Key)', { exact: true }).count()).toBe(0);
  });

  it('keeps the supplier ID, with an error at the field', async () => {
    await page.getByLabel('Viator supplier ID', { exact: true }).fill('fjord');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.locator('.field-error').first().waitFor();
    expect(await page.getByLabel('Viator supplier ID', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Viator supplier ID', { exact: true }).fill('4711');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('The Viator supplier ID is saved.').waitFor();
    expect(await world.api('GET', '/api/v2/admin/viator')).toMatchObject({ SupplierID: '4711' });
  });

  it('offers an activity with its age bands and says why the family ticket is not; Viator calls and the calls are listed', async () => {
    await page.getByText('Not offered', { exact: true }).first().waitFor();
    await page.getByLabel('Viator product option ID for Fjord Kayak', { exact: true }).fill('FJORD1');
    await page.getByRole('button', { name: 'Save Fjord Kayak' }).click();
    await page.getByText('Offered as FJORD1').waitFor();
    await page.getByText('Offered as ADULT').waitFor();
    await page.getByText(/Not offered: Its category "family" has no Viator age band/).waitFor();

    const answer = (await (await calendar(['FJORD1'])).json()) as { productOptions: { dates: unknown[] }[] };
    expect(answer.productOptions[0]?.dates).toHaveLength(1);
    const refused = await fetch(`${server.url}/viator/v2/reserve`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({
        supplierId: 4711,
        productOptionId: 'NOPE',
        travelDate: day(3),
        startTime: '10:00',
        tickets: [{ type: 'ADULT', quantity: 1 }],
      }),
    });
    expect(refused.status).toBe(422);

    await page.getByRole('button', { name: 'Refresh requests' }).click();
    const requests = page.getByRole('table', { name: 'Latest requests from Viator' });
    await requests.getByRole('row').filter({ hasText: 'INVALID_PRODUCT_OPTION' }).waitFor();
    expect(await requests.getByRole('row').filter({ hasText: 'calendar' }).textContent()).toMatch(/calendar.*FJORD1.*OK/);
    await page
      .getByText('Notified', { exact: true })
      .waitFor({ state: 'attached' })
      .catch(() => undefined);
    expect(await axeViolations(page, { tags: WCAG_21_AA })).toEqual([]);
    await screenshot(page, 'viator');
  });

  it('works at phone width and by keyboard', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByRole('table', { name: 'Latest requests from Viator' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'viator-phone', false);
    expect(await axeViolations(page, { tags: WCAG_21_AA })).toEqual([]);
    await page.getByLabel('Switched on').focus();
    await page.keyboard.press('Space');
    await page.getByText('The Viator connection is switched off.').waitFor();
    expect(await world.api('GET', '/api/v2/admin/viator')).toMatchObject({ Enabled: false });
    expect((await calendar(['FJORD1'])).status).toBe(422);
    await page.keyboard.press('Space');
    await page.getByText('The Viator connection is switched on.').waitFor();
    await page.setViewportSize({ width: 1360, height: 900 });
  });
});
