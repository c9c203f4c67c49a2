// The embed (issue 13, item 4) in real Chromium: a plain HTML page on ANOTHER origin (localhost:<port>,
// while slotbook answers at 127.0.0.1:<port>) carries the one script tag. "Book now" opens the booking
// pages in a modal dialog (labelled, focus trapped, Escape closes from the host page and from inside the
// frame, focus goes back), full screen at phone width, a booking paid through the frame to its
// confirmation; inline mode renders the calendar and resizes to it; once the operator lists other
// websites, the browser refuses the frame (CSP frame-ancestors), and admits it again when the host is
// listed. axe-core on the host page with the dialog open. SQLite only, like the other browser tests.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Frame, FrameLocator, Page } from 'playwright-core';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { testDialect } from '../helpers/database.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { openShop } from '../shop/fixtures.js';
import { axeViolations, ensureDashboardBuilt, hasChromium, launchBrowser, screenshot, type Browser } from './browser.js';

const run = hasChromium && testDialect() === 'sqlite';

describe.skipIf(!run)('the embed on another website', { timeout: 120_000 }, () => {
  let t: TestApp;
  let op: TestOperator;
  let browser: Browser;
  let page: Page;
  let slotbook: string;
  let host: Server;
  let hostUrl: string;
  let kayak: string;
  const date = dateFromToday(12);

  /** The operator's website: nothing of slotbook's but the script tag and the marked elements. */
  const hostPage = () => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Spree Adventures – our tours</title>
<style>body{font-family:Georgia,serif;margin:2rem;color:#222} button{font:inherit}</style></head>
<body>
<header><h1>Spree Adventures</h1><nav aria-label="Site"><a href="#about" id="before">About us</a></nav></header>
<main>
<h2>Sunset kayak tour</h2><p>Paddle the Spree at sunset.</p>
<p><a id="book" data-slotbook-activity="${kayak}"></a> <button id="book-button" type="button" data-slotbook-activity="${kayak}">Reserve the kayak tour</button></p>
<h2>Calendar</h2>
<div id="inline" data-slotbook-inline="${kayak}" data-slotbook-title="Kayak tour calendar"></div>
<p><a href="#contact" id="after">Contact</a> <a id="bad" data-slotbook-activity="not-an-activity">Broken marker</a></p>
</main>
<script src="${slotbook}/embed.js" data-operator="spree-adventures" async></script>
<script src="${slotbook}/embed.js" data-operator="spree-adventures" async></script>
</body></html>`;

  beforeAll(async () => {
    ensureDashboardBuilt();
    t = await createTestApp();
    op = await t.newOperator('Spree Adventures');
    await openShop(t, op.adminKey);
    kayak = (await createActivity(t, op.adminKey, { Name: 'Sunset Kayak Tour', Description: 'Paddle the Spree at sunset.', UnitPrice: 4500 }))
      .ActivityID;
    await createTimeslot(t, op.adminKey, kayak, { Date: date, Time: '10:00', Capacity: 8 });
    slotbook = await t.app.listen({ port: 0, host: '127.0.0.1' });
    host = createServer((request, response) => {
      if (request.url !== '/') return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(hostPage());
    });
    await new Promise<void>((resolve) => host.listen(0, 'localhost', resolve));
    hostUrl = `http://localhost:${(host.address() as AddressInfo).port}`;
    expect(new URL(hostUrl).origin).not.toBe(new URL(slotbook).origin);
    browser = await launchBrowser();
    page = browser.page;
    page.setDefaultTimeout(15_000);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => host?.close(resolve));
    await t?.close();
  });

  const dialog = () => page.getByRole('dialog');
  const modalFrame = (): FrameLocator => page.frameLocator('iframe[name$="|modal"]');
  const focusInDialog = () => page.evaluate(() => !!document.querySelector('[role=dialog]')?.contains(document.activeElement));
  const embedFrame = async (mode: 'modal' | 'inline'): Promise<Frame> => {
    await expect.poll(() => page.frames().some((f) => f.name().endsWith(`|${mode}`))).toBe(true);
    return page.frames().find((f) => f.name().endsWith(`|${mode}`))!;
  };

  const pageErrors: string[] = [];

  it('turns the marked link into "Book now" and opens the booking pages in an accessible dialog', async () => {
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(hostUrl);
    const link = page.getByRole('link', { name: 'Book now' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`${slotbook}/book/spree-adventures/activities/${kayak}`);
    expect(await link.getAttribute('aria-haspopup')).toBe('dialog');
    // Only one global; no stylesheet added to the host page.
    expect(await page.evaluate(() => typeof (window as unknown as { Slotbook?: unknown }).Slotbook)).toBe('object');
    expect(await page.evaluate(() => document.styleSheets.length)).toBe(1);
    // The script loaded twice attaches once; a marker with a malformed ID is left alone.
    expect(await page.locator('[aria-haspopup="dialog"]').count()).toBe(2);
    expect(await page.locator('#bad').getAttribute('aria-haspopup')).toBeNull();

    await link.click();
    await dialog().waitFor();
    expect(await dialog().getAttribute('aria-modal')).toBe('true');
    expect(await dialog().getAttribute('aria-label')).toBe('Book online');
    await modalFrame().getByRole('heading', { level: 1, name: 'Sunset Kayak Tour' }).waitFor();
    // Focus starts on Close; the booking pages then move it to their heading, inside the dialog's frame.
    expect(await focusInDialog()).toBe(true);
    expect(await page.locator('iframe[name$="|modal"]').getAttribute('title')).toBe('Book online');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'embed-modal', false);
  });

  it('keeps focus inside the dialog while tabbing either way', async () => {
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press('Tab');
      // Polled: between leaving the frame and the sentinel's redirect, focus may be in passage for a moment.
      await expect.poll(focusInDialog, { message: `after ${i + 1} Tab`, timeout: 2_000 }).toBe(true);
    }
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press('Shift+Tab');
      await expect.poll(focusInDialog, { message: `after ${i + 1} Shift+Tab`, timeout: 2_000 }).toBe(true);
    }
  });

  it('closes on Escape from the host page and from inside the frame, and gives focus back to the opener', async () => {
    await page.getByRole('button', { name: 'Close' }).focus();
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('book');
    expect(await page.evaluate(() => document.documentElement.style.overflow)).toBe('');

    const button = page.getByRole('button', { name: 'Reserve the kayak tour' });
    await button.click();
    expect(await dialog().getAttribute('aria-label')).toBe('Book: Reserve the kayak tour');
    // Focus inside the frame (a click on its heading): the key goes to the booking page, which tells the host.
    await modalFrame().getByRole('heading', { level: 1, name: 'Sunset Kayak Tour' }).click();
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('IFRAME');
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('book-button');
  });

  it('renders the inline calendar in a frame that grows to its content', async () => {
    const inline = page.locator('#inline iframe');
    await inline.waitFor();
    expect(await inline.getAttribute('title')).toBe('Kayak tour calendar');
    await inline.scrollIntoViewIfNeeded();
    const frame = await embedFrame('inline');
    await frame.getByRole('heading', { level: 1, name: 'Sunset Kayak Tour' }).waitFor();
    const contentHeight = async () => Math.ceil(await frame.evaluate(() => document.documentElement.getBoundingClientRect().height));
    await expect.poll(async () => Math.abs((await inline.boundingBox())!.height - (await contentHeight()))).toBeLessThanOrEqual(2);
    expect(await inline.evaluate((el) => el.style.height)).not.toBe('640px');
    await screenshot(page, 'embed-inline');
  });

  it('is full screen at phone width, and a booking is paid through the frame to its confirmation', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(hostUrl);
    await page.getByRole('link', { name: 'Book now' }).click();
    await dialog().waitFor();
    const box = (await dialog().boundingBox())!;
    expect(box).toMatchObject({ x: 0, y: 0, width: 360, height: 740 });

    const frame = modalFrame();
    await frame.getByRole('heading', { level: 1, name: 'Sunset Kayak Tour' }).waitFor();
    // The calendar opens on the month of the next free day.
    await frame.locator(`button.day[data-date="${date}"]`).click();
    await frame.getByRole('button', { name: /10:00/ }).first().click();
    await frame.getByLabel('People').fill('2');
    await frame.getByLabel('First name').fill('Ada');
    await frame.getByLabel('Last name').fill('Lovelace');
    await frame.getByLabel('E-mail address').fill('ada@example.com');
    await frame.getByLabel('Phone number').fill('+441234567890');
    await frame.getByRole('button', { name: 'Add to basket' }).click();
    await frame.getByRole('heading', { level: 1, name: 'Your basket' }).waitFor();
    await frame.getByRole('button', { name: 'Continue to payment' }).click();
    await frame.getByLabel('Card number').fill('4242 4242 4242 4242');
    await frame.getByRole('button', { name: 'Pay €90.00' }).click();
    await frame.getByRole('heading', { level: 1, name: 'Your booking is confirmed' }).waitFor();
    const reference = (await frame.locator('.reference').first().textContent())!;
    expect(reference).toMatch(/^BK-/);
    await screenshot(page, 'embed-phone', false);
    const booking = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${reference}`)).json().data;
    expect(booking).toMatchObject({ Source: 'online', Status: 'confirmed', Participants: 2 });
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1360, height: 900 });
  });

  it('never threw into the host page', () => {
    expect(pageErrors).toEqual([]);
  });

  it('is refused once the operator lists other websites, and shown again when the host is listed', async () => {
    await call(t.app, op.adminKey, 'PATCH', '/api/v2/admin/settings', { AllowedEmbedOrigins: ['https://www.spree-adventures.example'] });
    await page.goto(hostUrl);
    const refused = page.waitForEvent('console', { predicate: (message) => /frame-ancestors/.test(message.text()), timeout: 15_000 });
    await page.getByRole('link', { name: 'Book now' }).click();
    expect((await refused).text()).toContain("frame-ancestors 'self' https://www.spree-adventures.example");
    const frame = await embedFrame('modal');
    await expect.poll(() => frame.evaluate(() => !!document.getElementById('slotbook-boot')).catch(() => false), { timeout: 3_000 }).toBe(false);
    await page.keyboard.press('Escape');

    await call(t.app, op.adminKey, 'PATCH', '/api/v2/admin/settings', { AllowedEmbedOrigins: ['https://www.spree-adventures.example', hostUrl] });
    await page.goto(hostUrl);
    await page.getByRole('link', { name: 'Book now' }).click();
    await modalFrame().getByRole('heading', { level: 1, name: 'Sunset Kayak Tour' }).waitFor();
  });
});
