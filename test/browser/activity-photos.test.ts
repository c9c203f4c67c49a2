// The operator's side of what guests see before paying, in real Chromium against a real `slotbook serve`:
// photos added in the activity's Details tab (a file that is not a JPEG or PNG refused before it is sent),
// their description saved, one removed; the terms and privacy addresses saved in the shop settings (http
// refused next to its field). axe-core finds nothing serious. SQLite only, like the other browser tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { testDialect } from '../helpers/database.js';
import { axeViolations, hasChromium, screenshot } from './browser.js';
import { startDashboardWorld, type DashboardWorld } from './dashboard-world.js';
import { picture } from '../catalog/photo-files.js';

const run = hasChromium && testDialect() === 'sqlite';
type Photo = { ID: number; Alt: string };

describe.skipIf(!run)("an activity's photos and the shop's terms in the dashboard", { timeout: 90_000 }, () => {
  let world: DashboardWorld;
  let page: Page;
  let activityId: string;

  beforeAll(async () => {
    world = await startDashboardWorld({ operator: 'Lake Photos', owner: 'owner@lake.example' });
    const activity = await world.api<{ ActivityID: string }>('POST', '/api/v2/admin/activities', {
      Name: 'Sunrise Paddle',
      DurationMinutes: 60,
      Timezone: 'Europe/Berlin',
      Currency: 'EUR',
      UnitPrice: 3000,
    });
    activityId = activity.ActivityID;
    page = await world.openBrowser({ ownerPassword: 'lake photos owner pass' });
  }, 120_000);

  afterAll(() => world?.close());

  const photos = async () => (await world.api<{ Photos: Photo[] }>('GET', `/api/v2/admin/activities/${activityId}`)).Photos;

  it('adds photos, saves what one shows and removes another', async () => {
    await page.goto(`${world.server.url}/activities/${activityId}/details`);
    await page.getByRole('heading', { name: 'Photos' }).waitFor();
    await page.getByText('No photos yet.', { exact: false }).waitFor();
    const chooser = page.locator('input[type=file][aria-label="Photo file"]');
    await chooser.setInputFiles({ name: 'notes.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await page.getByRole('alert').filter({ hasText: 'Choose a JPEG or PNG photo.' }).waitFor();
    await chooser.setInputFiles({ name: 'lake.jpg', mimeType: 'image/jpeg', buffer: await picture(1200, 800) });
    await page.getByText('Photo added.', { exact: false }).waitFor();
    await chooser.setInputFiles({ name: 'dock.png', mimeType: 'image/png', buffer: await picture(600, 400, 'image/png', 0x884422ff) });
    // Each photo is resized in a worker thread, one at a time: seconds on a busy machine.
    await expect.poll(async () => (await photos()).length, { timeout: 20_000 }).toBe(2);
    await expect.poll(() => page.getByLabel('What it shows').count(), { timeout: 10_000 }).toBe(2);

    await page.getByLabel('What it shows').first().fill('The lake at sunrise');
    await page.getByRole('button', { name: 'Save', exact: true }).first().click();
    await page.getByText('Description saved.').waitFor();
    expect((await photos())[0]!.Alt).toBe('The lake at sunrise');
    const image = page.getByRole('img', { name: 'The lake at sunrise' });
    await image.waitFor();
    expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(480);
    expect(await axeViolations(page, { impacts: ['serious', 'critical'] })).toEqual([]);
    await screenshot(page, 'dashboard-activity-photos');

    await page.getByRole('button', { name: 'Remove' }).last().click();
    await page.getByText('Photo removed.').waitFor();
    expect((await photos()).map((photo) => photo.Alt)).toEqual(['The lake at sunrise']);
  });

  it('saves the terms and privacy addresses in the shop settings, refusing http next to its field', async () => {
    await page.goto(`${world.server.url}/settings`);
    await page.getByRole('heading', { name: 'Shop settings', level: 1 }).waitFor();
    await page.getByLabel('Terms and conditions (address)').fill('http://lake.example/terms');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByLabel('Terms and conditions (address)').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Terms and conditions (address)').fill('https://lake.example/terms');
    await page.getByLabel('Privacy notice (address)').fill('https://lake.example/privacy');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor();
    expect(await world.api('GET', '/api/v2/admin/settings')).toMatchObject({
      TermsUrl: 'https://lake.example/terms',
      PrivacyUrl: 'https://lake.example/privacy',
    });
  });
});
