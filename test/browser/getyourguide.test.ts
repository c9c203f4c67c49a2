// The dashboard's GetYourGuide page in real Chromium against a real `slotbook serve`: set the connection up
// (the password shown once, with a copy button), set the supplier ID, offer an activity under a GYG product
// ID, call the supplier endpoint as GetYourGuide would with the credentials the page showed, and find that
// request (and a refused one) in the page's list, and GYG's notification of a deactivated product; axe-core on each view, phone width. SQLite project only,
// as the other browser tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { testDialect } from '../helpers/database.js';
import type { ServerProcess } from '../helpers/server-process.js';
import { berlin, day } from '../getyourguide/fixtures.js';
import { axeViolations, hasChromium, navigationLinks, screenshot, WCAG_21_AA } from './browser.js';
import { startDashboardWorld, type DashboardWorld } from './dashboard-world.js';

const run = hasChromium && testDialect() === 'sqlite';

describe.skipIf(!run)('the GetYourGuide page in a browser', { timeout: 60_000 }, () => {
  let world: DashboardWorld;
  let server: ServerProcess;
  let page: Page;
  let credentials: string;

  beforeAll(async () => {
    // Pushes go to a port where nothing listens: never to GetYourGuide's real API from a test.
    world = await startDashboardWorld({
      operator: 'Fjord Tours',
      owner: 'owner@fjord.example',
      serverEnv: { GYG_API_URL: 'http://127.0.0.1:9/gyg-api' },
    });
    server = world.server;
    const { ActivityID } = await world.api<{ ActivityID: string }>('POST', '/api/v2/admin/activities', {
      Name: 'Fjord Kayak',
      DurationMinutes: 90,
      Timezone: 'Europe/Berlin',
      Currency: 'EUR',
      UnitPrice: 4500,
    });
    await world.api('POST', `/api/v2/admin/activities/${ActivityID}/timeslots`, { Date: day(3), Time: '10:00', Capacity: 12 });
    page = await world.openBrowser({ ownerPassword: 'fjord tours owner', timeout: 15_000 });
  }, 120_000);

  afterAll(async () => {
    await world?.close();
  });

  it('sets the connection up from the navigation and shows the password once, with a copy button', async () => {
    expect(await navigationLinks(page)).toContain('GetYourGuide');
    await page.getByRole('link', { name: 'GetYourGuide', exact: true }).click();
    await page.getByRole('heading', { name: 'GetYourGuide', level: 1 }).waitFor();
    await page.getByText('Not set up yet.').waitFor();
    expect(await axeViolations(page, { tags: WCAG_21_AA })).toEqual([]);

    await page.getByRole('button', { name: 'Set up the connection' }).click();
    await page.getByText('You will not see it again', { exact: false }).waitFor();
    const password = await page.getByLabel('Password for GetYourGuide', { exact: true }).inputValue();
    expect(password.length).toBeGreaterThanOrEqual(20);
    await page.getByRole('button', { name: 'Copy' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);
    expect(await page.getByLabel('Switched on').isChecked()).toBe(true);
    const connection = await world.api<{ Username: string; Password?: string; EndpointURL: string }>('GET', '/api/v2/admin/getyourguide');
    expect(connection.EndpointURL).toMatch(/\/gyg$/); // PUBLIC_URL's, which GetYourGuide is given
    await page.getByText(connection.EndpointURL, { exact: true }).waitFor();
    expect(connection.Password).toBeUndefined(); // the page's copy is the only one
    await page.getByText(connection.Username, { exact: true }).waitFor();
    credentials = Buffer.from(`${connection.Username}:${password}`).toString('base64');
    expect(await axeViolations(page, { tags: WCAG_21_AA })).toEqual([]);

    // Once the page is left, the password is gone for good.
    await page.reload();
    await page.getByRole('heading', { name: 'Connection' }).waitFor();
    await page.getByText(/Stored as a hash; never shown again/).waitFor();
    expect(await page.getByLabel('Password for GetYourGuide', { exact: true }).count()).toBe(0);
  });

  it('says that nothing is pushed to GetYourGuide until its credentials are stored, and that it is once they are', async () => {
    const card = page.locator('section', { has: page.getByRole('heading', { name: "GetYourGuide's credentials for its API" }) });
    await card.getByText('Pushes to GetYourGuide are off until you store its credentials.').waitFor();
    expect(await world.api('GET', '/api/v2/admin/getyourguide')).toMatchObject({
      Enabled: true,
      OutboundPasswordSet: false,
      PushesAvailability: false,
    });
    await card.getByLabel('GetYourGuide user name', { exact: true }).fill('gyg-issued');
    await card.getByLabel('GetYourGuide password', { exact: true }).fill('issued secret');
    await card.getByRole('button', { name: 'Store' }).click();
    await card.getByText('slotbook pushes availability changes to GetYourGuide within seconds').waitFor();
    expect(await world.api('GET', '/api/v2/admin/getyourguide')).toMatchObject({ PushesAvailability: true });
    await card.getByRole('button', { name: 'Forget' }).click();
    await card.getByText('Pushes to GetYourGuide are off until you store its credentials.').waitFor();
    expect(await axeViolations(page, { tags: WCAG_21_AA })).toEqual([]);
  });

  it('keeps the supplier ID and the hold length, with errors at the field', async () => {
    await page.getByLabel('GetYourGuide supplier ID', { exact: true }).fill('fjord supplier');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.locator('.field-error').first().waitFor(); // a space is refused, next to the field
    expect(await page.getByLabel('GetYourGuide supplier ID', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('GetYourGuide supplier ID', { exact: true }).fill('fjord-7');
    await page.getByLabel('Hold minutes', { exact: true }).fill('30');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('The GetYourGuide settings are saved.').waitFor();
    expect(await world.api('GET', '/api/v2/admin/getyourguide')).toMatchObject({ SupplierID: 'fjord-7', HoldMinutes: 30, EffectiveHoldMinutes: 30 });
  });

  it('offers an activity under a GYG product ID; GetYourGuide calls with the shown credentials and the call is listed', async () => {
    await page.getByText('Not offered', { exact: true }).first().waitFor();
    await page.getByLabel('GetYourGuide product ID for Fjord Kayak', { exact: true }).fill('FJORD1');
    await page.getByRole('button', { name: 'Save Fjord Kayak' }).click();
    await page.getByText('Offered as FJORD1').waitFor();
    await page.getByText('Offered as ADULT').waitFor();

    const ask = async (productId: string) => {
      const range = `fromDateTime=${encodeURIComponent(berlin(day(1), '00:00'))}&toDateTime=${encodeURIComponent(berlin(day(30), '23:59'))}`;
      const response = await fetch(`${server.url}/gyg/1/get-availabilities/?productId=${productId}&${range}`, {
        headers: { authorization: `Basic ${credentials}` },
      });
      expect(response.status).toBe(200);
      return (await response.json()) as { data?: { availabilities: { vacancies?: number }[] }; errorCode?: string };
    };
    const answer = await ask('FJORD1');
    expect(answer.data?.availabilities).toHaveLength(1);
    expect(answer.data?.availabilities[0]?.vacancies).toBe(12);
    expect((await ask('NOPE')).errorCode).toBe('INVALID_PRODUCT');
    // GYG tells the supplier when it switches a product off; the page shows it.
    const notify = await fetch(`${server.url}/gyg/1/notify/`, {
      method: 'POST',
      headers: { authorization: `Basic ${credentials}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        data: {
          notificationType: 'PRODUCT_DEACTIVATION',
          description: 'GetYourGuide - Product ID - FJORD1 is deactivated due to API Error',
          productDetails: { productId: 'FJORD1', gygTourOptionId: '123456', tourOptionTitle: 'Fjord Kayak' },
          notificationDetails: { failedRequestType: 'reserve', errorType: 'no_availability' },
        },
      }),
    });
    expect(await notify.json()).toEqual({ data: {} });

    await page.getByRole('button', { name: 'Refresh requests' }).click();
    const requests = page.getByRole('table', { name: 'Latest requests from GetYourGuide' });
    const refused = requests.getByRole('row').filter({ hasText: 'INVALID_PRODUCT' });
    await refused.waitFor();
    expect(await refused.textContent()).toContain('get-availabilities');
    const notifications = page.getByRole('table', { name: 'Notifications from GetYourGuide' });
    expect(await notifications.getByRole('row').filter({ hasText: 'PRODUCT_DEACTIVATION' }).textContent()).toContain(
      'FJORD1 is deactivated due to API Error',
    );
    const answered = requests.getByRole('row').filter({ hasText: 'FJORD1' }).filter({ hasText: 'get-availabilities' });
    await requests.getByRole('row').filter({ hasText: 'notify' }).waitFor();
    expect(await answered.textContent()).toMatch(/get-availabilities.*OK/);
    expect(await axeViolations(page, { tags: WCAG_21_AA })).toEqual([]);
    await screenshot(page, 'getyourguide');
  });

  it('works at phone width and by keyboard', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByRole('table', { name: 'Latest requests from GetYourGuide' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'getyourguide-phone', false);
    expect(await axeViolations(page, { tags: WCAG_21_AA })).toEqual([]);
    // The switch answers the keyboard: off and on again.
    await page.getByLabel('Switched on').focus();
    await page.keyboard.press('Space');
    await page.getByText('The GetYourGuide connection is switched off.').waitFor();
    expect(await world.api('GET', '/api/v2/admin/getyourguide')).toMatchObject({ Enabled: false });
    await page.keyboard.press('Space');
    await page.getByText('The GetYourGuide connection is switched on.').waitFor();
    await page.setViewportSize({ width: 1360, height: 900 });
  });
});
