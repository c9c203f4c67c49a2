// The dashboard's Shop settings page in real Chromium against a real `slotbook serve` (in production):
// opening the shop without test mode is refused with the reason, test mode on, then open the shop, a
// brand colour too light for white text is refused next to its field, name, slug, colour and embed
// websites saved, a logo uploaded (an SVG refused before it is sent), the embed snippet copied, the preview
// link; axe-core (no serious or critical violations) on the page, at desktop and phone width. SQLite only,
// like the other browser tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { testDialect } from '../helpers/database.js';
import { axeViolations, hasChromium, screenshot } from './browser.js';
import { startDashboardWorld, type DashboardWorld } from './dashboard-world.js';
import { solidPng } from '../settings/png.js';

const run = hasChromium && testDialect() === 'sqlite';

/** axe's findings of serious or critical impact (the quality bar), as readable lines. */
const seriousViolations = (page: Page) => axeViolations(page, { impacts: ['serious', 'critical'] });

describe.skipIf(!run)('the Shop settings page in a browser', { timeout: 60_000 }, () => {
  let world: DashboardWorld;
  let page: Page;

  const api = <T>(path: string) => world.api<T>('GET', path);

  beforeAll(async () => {
    world = await startDashboardWorld({ operator: 'Harbour Cruises', owner: 'owner@harbour.example' });
    page = await world.openBrowser({ ownerPassword: 'harbour cruises owner' });
  }, 120_000);

  afterAll(() => world?.close());

  it('is in the navigation, opens the shop in test mode only, and refuses an unreadable brand colour next to its field', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Shop settings' }).click();
    await page.getByRole('heading', { name: 'Shop settings', level: 1 }).waitFor();
    const open = page.getByLabel('The shop is open');
    const testMode = page.getByLabel('Test mode');
    expect(await open.isChecked()).toBe(false);
    expect(await testMode.isChecked()).toBe(false);
    await page.getByText("No payment provider takes this shop's payments, so it cannot open").waitFor();
    // In production there is no real payment provider yet: the shop opens only as a test shop.
    await open.click();
    await page.getByRole('alert').filter({ hasText: 'only a shop in test mode opens' }).waitFor();
    await expect.poll(() => open.isChecked()).toBe(false);
    expect((await api<{ Open: boolean }>('/api/v2/admin/shop')).Open).toBe(false);
    expect(await testMode.getAttribute('aria-describedby')).toBeTruthy();
    await testMode.check();
    await page.getByText('Test mode is on').waitFor();
    await open.check();
    await page.getByText('Your shop is open').waitFor();
    expect(await api<{ Open: boolean; TestMode: boolean }>('/api/v2/admin/shop')).toMatchObject({
      Open: true,
      TestMode: true,
      PaymentProvider: 'test',
    });
    await page.getByText('Payments are test payments: no money is charged.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel('Brand colour', { exact: true }).fill('#ffdd00');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const field = page.getByLabel('Brand colour', { exact: true });
    await page.getByText(/contrast of .*:1/).waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('saves name, slug, colour, contact e-mail and embed websites', async () => {
    await page.getByLabel('Shop name').fill('Harbour Cruises Kiel');
    await page.getByLabel('Address (slug)').fill('harbour-kiel');
    await page.getByLabel('Contact e-mail').fill('ops@harbour.example');
    await page.getByLabel('Brand colour', { exact: true }).fill('#0B5CAD');
    await page.getByLabel('Websites that may embed your pages').fill('https://www.harbour.example\nhttps://Shop.Harbour.example/');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor();
    const saved = await api<Record<string, unknown>>('/api/v2/admin/settings');
    expect(saved).toMatchObject({
      ShopName: 'Harbour Cruises Kiel',
      Slug: 'harbour-kiel',
      ContactEmail: 'ops@harbour.example',
      BrandColour: '#0b5cad',
      AllowedEmbedOrigins: ['https://www.harbour.example', 'https://shop.harbour.example'],
    });
    // The form shows what was stored (normalised).
    expect(await page.getByLabel('Websites that may embed your pages').inputValue()).toBe(
      'https://www.harbour.example\nhttps://shop.harbour.example',
    );
    expect(await page.getByLabel('Brand colour', { exact: true }).inputValue()).toBe('#0b5cad');
  });

  it('uploads a logo and shows it; an SVG is refused before it is sent', async () => {
    const chooser = page.locator('input[type=file]');
    await chooser.setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') });
    await page.getByRole('alert').filter({ hasText: 'SVG is not accepted' }).waitFor();
    await chooser.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: solidPng(160, 48, [11, 92, 173]) });
    await page.getByText('Logo saved.').waitFor();
    const logo = page.getByRole('img', { name: 'Logo of Harbour Cruises Kiel' });
    await logo.waitFor();
    expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(160);
    expect((await api<{ LogoUrl: string | null }>('/api/v2/admin/settings')).LogoUrl).toMatch(/\/branding\/\d+\/logo-[A-Za-z0-9_-]{22}\.png$/);
  });

  it('offers the embed snippet with a copy button and a preview link', async () => {
    await page.getByRole('button', { name: 'Copy code' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/<script src="http:\/\/[^"]+\/embed\.js" data-operator="harbour-kiel" async><\/script>/);
    expect(copied).toContain('data-operator="harbour-kiel"');
    expect(copied).toContain('data-slotbook-activity=');
    const preview = page.getByRole('link', { name: 'Preview booking pages' });
    expect(await preview.getAttribute('href')).toMatch(/\/book\/harbour-kiel$/);
    expect(await preview.getAttribute('target')).toBe('_blank');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'shop-settings');
  });

  it('works at phone width', async () => {
    await page.setViewportSize({ width: 360, height: 780 });
    await page.reload();
    await page.getByRole('heading', { name: 'Shop settings', level: 1 }).waitFor();
    await page.getByLabel('Shop name').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'shop-settings-phone');
  });
});
