// The waitlist confirmation page in a real browser at phone width: accessible (axe-core) in each of its
// states, and its button confirms the place without any JavaScript. Skips without Chromium; SQLite only
// (the page is the same HTTP on either database; test/waitlists covers PostgreSQL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { testDialect } from '../helpers/database.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer, posBooking } from '../emails/fixtures.js';
import { openShop } from '../shop/fixtures.js';
import { confirmationEmails, linkOf } from '../waitlists/fixtures.js';
import { axeViolations, hasChromium, launchBrowser, screenshot, type Browser } from './browser.js';

describe.skipIf(!hasChromium || testDialect() !== 'sqlite')('waitlist confirmation page in a browser', { timeout: 60_000 }, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let link: string;
  let adminKey: string;
  let timeslotId: number;

  beforeAll(async () => {
    t = await createTestApp();
    const op = await t.newOperator('Spree Adventures');
    adminKey = op.adminKey;
    await openShop(t, op.adminKey);
    const { ActivityID } = await createActivity(t, op.adminKey, { Name: 'Sunset Kayak Tour' });
    const date = dateFromToday(6);
    timeslotId = (await createTimeslot(t, op.adminKey, ActivityID, { Date: date, Time: '18:30', Capacity: 2 })).ID;
    await posBooking(t, op.adminKey, { ActivityID, Date: date, Time: '18:30' }, 2);
    const joined = await call(t.app, undefined, 'POST', `/api/v2/shop/${op.operatorId}/waitlists`, {
      ActivityID,
      Date: date,
      Time: '18:30',
      Participants: 2,
      Customer: customer('Grace', 'grace@example.com'),
    });
    expect(joined.statusCode).toBe(202);
    link = linkOf((await confirmationEmails(t, op.adminKey, 'grace@example.com'))[0]!);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchBrowser({ width: 390, height: 844 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows the place with a button, accessibly; pressing it confirms and says so', async () => {
    const { page } = browser;
    const response = await page.goto(base + link);
    expect(response?.status()).toBe(200);
    await page.getByRole('heading', { level: 1, name: 'Confirm your place on the waitlist' }).waitFor();
    expect(await page.locator('script').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    // Nothing overflows a phone's width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'waitlist-confirm');
    const status = async () => (await call(t.app, adminKey, 'GET', `/api/v2/admin/waitlists?TimeslotID=${timeslotId}`)).json().data[0].Status;
    expect(await status()).toBe('pending'); // opening the page confirmed nothing

    await page.getByRole('button', { name: 'Confirm my place' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your place on the waitlist is confirmed' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(link);
    expect(await status()).toBe('waiting');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('an unknown link is an accessible page too', async () => {
    const { page } = browser;
    const response = await page.goto(`${base}/waitlist/confirm/AAAAAAAAAAAAAAAAAAAAAA`);
    expect(response?.status()).toBe(404);
    await page.getByRole('heading', { level: 1, name: 'This link is not valid' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });
});
