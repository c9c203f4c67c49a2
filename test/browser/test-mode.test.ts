// Issue 23, finding 2, in a browser: a production shop that its operator runs in test mode says so on every
// booking page (a named, translated notice above the header, axe-clean), the test card pays there, and a
// production shop without test mode has no pages at all. SQLite only, like the other browser tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { testDialect } from '../helpers/database.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer } from '../emails/fixtures.js';
import { setShopOpen } from '../../src/shop/settings.js';
import { axeViolations, ensureDashboardBuilt, hasChromium, launchBrowser, screenshot, type Browser } from './browser.js';

const PRODUCTION = { NODE_ENV: 'production', SECRET_KEY: 'browser-test-mode-secret-0123456789abcdef' };

describe.skipIf(!hasChromium || testDialect() !== 'sqlite')("a test-mode shop's booking pages in a browser", { timeout: 120_000 }, () => {
  let t: TestApp;
  let op: TestOperator;
  let browser: Browser;
  let base: string;
  let kayak: string;
  const date = dateFromToday(10);

  beforeAll(async () => {
    ensureDashboardBuilt();
    t = await createTestApp(PRODUCTION);
    op = await t.newOperator('Harbour Tours');
    const opened = await call(t.app, op.adminKey, 'PATCH', '/api/v2/admin/shop', { Open: true, TestMode: true });
    expect(opened.statusCode, opened.body).toBe(200);
    kayak = (await createActivity(t, op.adminKey, { Name: 'Harbour Kayak', UnitPrice: 4500, Currency: 'EUR' })).ActivityID;
    await createTimeslot(t, op.adminKey, kayak, { Date: date, Time: '10:00', Capacity: 8 });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchBrowser();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const banner = (page: Page) => page.getByRole('complementary', { name: 'Test mode' });

  /** The notice is there, named, first in the page, and says that no money is charged. */
  async function expectBanner(page: Page, name = 'Test mode', text: RegExp = /takes no real payments: nothing is charged/) {
    const notice = page.getByRole('complementary', { name });
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(text);
    expect(await page.evaluate(() => document.body.firstElementChild?.className)).toBe('test-mode');
  }

  it('says "test mode" on the list, activity, basket and confirmation pages, and the test card pays', async () => {
    const { page } = browser;
    await page.goto(`${base}/book/harbour-tours`);
    await page.getByRole('heading', { level: 1, name: 'Book an activity' }).waitFor();
    await expectBanner(page);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'booking-test-mode');

    await page.getByRole('link', { name: 'Book Harbour Kayak' }).click();
    await page.getByRole('heading', { level: 1, name: 'Harbour Kayak' }).waitFor();
    await expectBanner(page);

    // The basket page, for a basket this guest holds.
    const basket = await call(t.app, undefined, 'POST', `/api/v2/shop/${op.operatorId}/baskets`, { Customer: customer('Ada', 'ada@example.com') });
    const token: string = basket.json().data.BasketToken;
    expect(
      (
        await call(t.app, undefined, 'POST', `/api/v2/shop/${op.operatorId}/baskets/${token}/items`, {
          ActivityID: kayak,
          Date: date,
          Time: '10:00',
          Participants: 1,
        })
      ).statusCode,
    ).toBe(201);
    await page.goto(`${base}/book/harbour-tours/basket/${token}`);
    await page.getByRole('heading', { level: 1, name: 'Your basket' }).waitFor();
    await expectBanner(page);
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.getByText('Test mode: 4242 4242 4242 4242 is accepted').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay €45.00' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your booking is confirmed' }).waitFor();
    await expectBanner(page);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('says it in German too', async () => {
    const { page } = browser;
    await page.goto(`${base}/book/harbour-tours?lang=de`);
    await page.getByRole('heading', { level: 1, name: 'Aktivität buchen' }).waitFor();
    await expectBanner(page, 'Testmodus', /nimmt keine echten Zahlungen an/);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('a production shop without test mode has no pages (and so no checkout)', async () => {
    const { page } = browser;
    const other = await t.newOperator('Opened Before');
    await setShopOpen(t.db.kysely, other.operatorId, true);
    expect((await page.goto(`${base}/book/opened-before`))?.status()).toBe(404);
    expect(await banner(page).count()).toBe(0);
    await page.getByRole('heading', { level: 1, name: 'This shop does not exist' }).waitFor();
  });
});
