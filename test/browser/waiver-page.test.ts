// Completing a pending waiver in Chromium, on a phone (issue 26, item 4): a desk booking's guest opens
// their booking's link, is told the waiver is missing, follows the link to the waiver page, must tick the
// consent (told so when they do not), uploads their photo ID through the booking's link and sends; the
// booking's waiver is then complete. 360 px wide without sideways scrolling, axe-clean. SQLite only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { testDialect } from '../helpers/database.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { posBooking } from '../emails/fixtures.js';
import { openShop } from '../shop/fixtures.js';
import { PNG } from '../questions/files.js';
import { manageToken } from '../../src/storefront/manage.js';
import { axeViolations, ensureDashboardBuilt, hasChromium, launchBrowser, screenshot, type Browser } from './browser.js';

describe.skipIf(!hasChromium || testDialect() !== 'sqlite')("completing a booking's waiver", { timeout: 120_000 }, () => {
  let t: TestApp;
  let op: TestOperator;
  let browser: Browser;
  let base: string;
  let activityId: string;
  const date = dateFromToday(8);

  beforeAll(async () => {
    ensureDashboardBuilt();
    t = await createTestApp();
    op = await t.newOperator('Gorge Guides');
    await openShop(t, op.adminKey);
    activityId = (await createActivity(t, op.adminKey, { Name: 'Canyoning' })).ActivityID;
    await createTimeslot(t, op.adminKey, activityId, { Date: date, Time: '09:00', Capacity: 10 });
    for (const question of [
      { Question: 'I can swim and take part at my own risk.', Type: 'consent', Required: true },
      { Question: 'Photo ID', Type: 'file', Required: true, RequiresFileUpload: true },
    ])
      expect((await call(t.app, op.adminKey, 'POST', `/api/v2/admin/activities/${activityId}/questions`, question)).statusCode).toBe(201);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchBrowser({ width: 360, height: 740 });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const fitsPhone = async () => expect(await browser.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  it('is linked from the booking page, insists on the consent, takes the upload and completes', async () => {
    const { page } = browser;
    const { BookingReference } = await posBooking(t, op.adminKey, { ActivityID: activityId, Date: date, Time: '09:00' });
    await page.goto(`${base}/book/gorge-guides/manage/${manageToken(t.app.instanceKeys, op.operatorId, BookingReference)}`);
    await page.getByText('Your waiver is not complete yet', { exact: false }).waitFor();
    await fitsPhone();
    await page.getByRole('link', { name: 'Complete the waiver' }).click();

    await page.getByRole('heading', { level: 1, name: 'Complete your waiver' }).waitFor();
    await page.getByRole('button', { name: 'Send my answers' }).click();
    await page.getByText('You must agree to this to book.').waitFor();
    expect(await page.getByLabel('I can swim and take part at my own risk. *').getAttribute('aria-invalid')).toBe('true');
    expect(await axeViolations(page)).toEqual([]);
    await fitsPhone();

    await page.getByLabel('I can swim and take part at my own risk. *').check();
    await page.getByLabel('Photo ID *').setInputFiles({ name: 'id.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('button', { name: 'Send my answers' }).click();
    await page.getByText('Your waiver is complete. Thank you!').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'booking-waiver-complete');
    const booking = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${BookingReference}`)).json().data;
    expect(booking.WaiverStatus).toBe('complete');

    // Back on the booking's page, nothing is asked any more.
    await page.getByRole('link', { name: 'Back to your booking' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your booking' }).waitFor();
    expect(await page.getByRole('link', { name: 'Complete the waiver' }).count()).toBe(0);
  });
});
