// The booking pages (/book/{slug}) in real Chromium, as a guest uses them: pick an activity, a day and a
// timeslot, answer the waiver with a file upload, pay, see the confirmation; the operator finds the
// booking (online) in the dashboard and the order in the usage summary. Also: a declined card, a sold-out
// slot's waitlist through to paying the offer from its e-mail (real SMTP), a guest cancelling through the
// link in their e-mail, phone width and axe-core on every page. SQLite only (test/storefront covers the
// endpoints on both databases); skips without Chromium.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { testDialect } from '../helpers/database.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer, deliveryFor, nowSeconds, posBooking, summaryOf } from '../emails/fixtures.js';
import { openShop } from '../shop/fixtures.js';
import { PNG } from '../questions/files.js';
import { startSmtp, type TestSmtp } from '../emails/smtp.js';
import { runDueEmails } from '../../src/emails/worker.js';
import { offerFreedSeats } from '../../src/waitlists/offers.js';
import { createOwner } from '../../src/staff/accounts/service.js';
import { axeViolations, ensureDashboardBuilt, hasChromium, launchBrowser, screenshot, signIn, type Browser } from './browser.js';
import type { Page } from 'playwright-core';
import { addSeconds } from '../../src/lib/clock.js';

const OWNER = 'owner@spree.example';
const PASSWORD = 'kayak-paddle-sunset-42';

describe.skipIf(!hasChromium || testDialect() !== 'sqlite')('booking pages in a browser', { timeout: 120_000 }, () => {
  let t: TestApp;
  let op: TestOperator;
  let smtp: TestSmtp;
  let browser: Browser;
  let base: string;
  let kayak: string;
  let hike: string;
  let hikeSlotId: number;
  let blocker: string;
  const date = dateFromToday(12);

  beforeAll(async () => {
    ensureDashboardBuilt();
    smtp = await startSmtp();
    // One client may hold 3 seats at once (the hoarding limit), so that a test can meet it.
    t = await createTestApp({ SMTP_URL: smtp.url, SHOP_MAX_HELD_SEATS_PER_CLIENT: '3' });
    op = await t.newOperator('Spree Adventures');
    await openShop(t, op.adminKey);
    await t.db.write((tx) => createOwner(tx, op.operatorId, OWNER, { password: PASSWORD }));
    kayak = (
      await createActivity(t, op.adminKey, {
        Name: 'Sunset Kayak Tour',
        Description: 'Paddle the Spree at sunset.',
        UnitPrice: 4500,
        GuestCancelHours: 24,
        // 12 days ahead is about 288 hours: half back.
        GuestRefundRules: [
          { HoursBefore: 720, Percent: 100 },
          { HoursBefore: 48, Percent: 50 },
        ],
        MeetingPoint: { Address: 'Kayak landing, Holzmarktstraße 25, Berlin', MapUrl: null, Latitude: 52.5115, Longitude: 13.4255 },
        Inclusions: ['Kayak, paddle and life jacket'],
        WhatToBring: ['A towel'],
      })
    ).ActivityID;
    await createTimeslot(t, op.adminKey, kayak, { Date: date, Time: '10:00', Capacity: 8 });
    const questions = [
      { Question: 'Emergency contact', Type: 'text', Required: true, Translations: { de: { Question: 'Notfallkontakt' } } },
      { Question: 'Photo ID', Type: 'file', Required: true, Translations: { de: { Question: 'Lichtbildausweis' } } },
    ];
    for (const question of questions)
      expect((await call(t.app, op.adminKey, 'POST', `/api/v2/admin/activities/${kayak}/questions`, question)).statusCode).toBe(201);
    hike = (await createActivity(t, op.adminKey, { Name: 'Canyon Hike', UnitPrice: 3000 })).ActivityID;
    hikeSlotId = (await createTimeslot(t, op.adminKey, hike, { Date: date, Time: '09:00', Capacity: 2 })).ID;
    blocker = (await posBooking(t, op.adminKey, { ActivityID: hike, Date: date, Time: '09:00' }, 2, customer('Walk', 'walk-in@example.com')))
      .BookingReference;
    const workflow = {
      Name: 'Confirmation',
      Event: 'booking-confirmed',
      Subject: 'Booked: {{ActivityName}}',
      Body: 'Hello,\n\nyour booking {{BookingReference}} is confirmed.\nManage it: {{ManageBookingUrl}}\n',
    };
    expect((await call(t.app, op.adminKey, 'POST', '/api/v2/admin/workflows', workflow)).statusCode).toBe(201);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchBrowser();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await smtp?.close();
  });

  const noViolations = async (page: Page) => expect(await axeViolations(page)).toEqual([]);
  const delivered = async () => {
    await offerFreedSeats(t.db, t.app.config, nowSeconds());
    await runDueEmails(t.db, deliveryFor(t));
  };
  /** The path of the first link to the booking pages or the waitlist page in the newest e-mail to `to` whose subject matches. */
  const linkIn = (to: string, subject: RegExp) => {
    const message = [...smtp.messages].reverse().find((m) => m.to.includes(to) && subject.test(m.subject));
    expect(message, smtp.messages.map((m) => m.subject).join(', ')).toBeDefined();
    const match = /http:\/\/slotbook\.test(\/(?:book|waitlist)\/\S+)/.exec(message!.text);
    expect(match, message!.text).not.toBeNull();
    return match![1]!;
  };

  async function chooseKayakSlot(page: Page, people: string) {
    await page.goto(`${base}/book/spree-adventures`);
    await page.getByRole('heading', { level: 1, name: 'Book an activity' }).waitFor();
    await page.getByRole('link', { name: 'Book Sunset Kayak Tour' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sunset Kayak Tour' }).waitFor();
    await page.locator(`button.day[data-date="${date}"]`).click();
    await page.getByRole('button', { name: /10:00–11:30/ }).click();
    await page.getByLabel('People').fill(people);
  }

  async function pay(page: Page, card: string) {
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.getByLabel('Card number').fill(card);
  }

  it('books an activity with a waiver upload and pays once on a double click; the operator sees it', async () => {
    const { page } = browser;
    const response = await page.goto(`${base}/book/spree-adventures`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByRole('heading', { level: 1, name: 'Book an activity' }).waitFor();
    await expect.poll(() => page.getByText('from €45.00').count()).toBe(1);
    await noViolations(page);
    await screenshot(page, 'booking-activities');

    await chooseKayakSlot(page, '2');
    // The cancellation policy is shown before anything is paid: on the activity's page, and in the basket.
    const policy = [
      'You can cancel online until 24 hours before the start.',
      '100% back if you cancel at least 30 days before the start, 50% back if you cancel at least 48 hours before the start, nothing later.',
    ];
    for (const sentence of policy) await page.getByText(sentence, { exact: true }).waitFor();
    // Where to meet, what is included and what to bring, before anything is paid.
    await page.getByText('Kayak landing, Holzmarktstraße 25, Berlin').waitFor();
    expect(await page.getByRole('link', { name: 'Open the map (new tab)' }).getAttribute('href')).toContain('mlat=52.5115');
    await page.getByRole('listitem').filter({ hasText: 'Kayak, paddle and life jacket' }).waitFor();
    await page.getByRole('listitem').filter({ hasText: 'A towel' }).waitFor();
    await expect.poll(() => page.getByText(/8 seats left/).count()).toBeGreaterThan(0);
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('E-mail address').fill('ada@example');
    await page.getByLabel('Phone number').fill('+441234567890');
    await page.getByLabel('Emergency contact *').fill('Charles, +441234000000');
    // The e-mail address is checked as the guest leaves the field, like the API would refuse it.
    await page.getByLabel('Phone number').focus();
    await page.getByText('Enter an e-mail address such as name@example.com.').waitFor();
    await page.getByLabel('E-mail address').fill('ada@example.com');
    // A wrong file type is refused as soon as it is chosen, before anything is sent.
    await page.getByLabel('Photo ID *').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an ID') });
    await page.getByText(/This file type is not accepted/).waitFor();
    await page.getByLabel('Photo ID *').setInputFiles({ name: 'passport.png', mimeType: 'image/png', buffer: PNG });
    await noViolations(page);
    await screenshot(page, 'booking-form');
    await page.getByRole('button', { name: 'Add to basket' }).click();

    await page.getByRole('heading', { level: 1, name: 'Your basket' }).waitFor();
    await page.getByText(/Your seats are held for another \d+:\d\d/).waitFor();
    await page.getByText(policy.join(' '), { exact: true }).waitFor();
    await noViolations(page);
    await screenshot(page, 'booking-basket');
    await pay(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay €90.00' }).dblclick();
    await page.getByRole('heading', { level: 1, name: 'Your booking is confirmed' }).waitFor();
    const reference = (await page.locator('.reference').first().textContent())!;
    expect(reference).toMatch(/^BK-/);
    await noViolations(page);
    await screenshot(page, 'booking-confirmation');
    // The confirmation is bookmarkable: a reload shows it again.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Your booking is confirmed' }).waitFor();

    const payments = await t.db.kysely.selectFrom('payments').select(['status']).where('operator_id', '=', op.operatorId).execute();
    expect(payments).toEqual([{ status: 'succeeded' }]);
    const booking = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${reference}`)).json().data;
    expect(booking).toMatchObject({ Source: 'online', Status: 'confirmed', Participants: 2, WaiverStatus: 'complete' });
    expect((await summaryOf(t, op.usageKey)).Meters.find((meter) => meter.Meter === 'order-completed')).toMatchObject({ EventCount: 1 });

    // The operator finds it in the dashboard as an online booking.
    const staff = await browser.context.newPage();
    await signIn(staff, base, OWNER, PASSWORD);
    await staff.goto(`${base}/bookings`);
    const row = staff.getByRole('row').filter({ hasText: reference });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/Online/i);
    await staff.close();
  });

  it('a declined card shows the reason and keeps the basket; another card pays it', async () => {
    const { page } = browser;
    await chooseKayakSlot(page, '1');
    await page.getByLabel('First name').fill('Grace');
    await page.getByLabel('Last name').fill('Hopper');
    await page.getByLabel('E-mail address').fill('grace@example.com');
    await page.getByLabel('Phone number').fill('+441234567891');
    await page.getByLabel('Emergency contact *').fill('Vincent');
    await page.getByLabel('Photo ID *').setInputFiles({ name: 'id.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('button', { name: 'Add to basket' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your basket' }).waitFor();
    await pay(page, '4000000000000002');
    await page.getByRole('button', { name: 'Pay €45.00' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /The payment was declined: .+ Nothing was charged; your basket is kept/ })
      .waitFor();
    await noViolations(page);
    await screenshot(page, 'booking-declined');
    await page.getByLabel('Card number').fill('4242424242424242');
    await page.getByRole('button', { name: 'Pay €45.00' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your booking is confirmed' }).waitFor();
    // Each booking links its own page, whether or not the operator's e-mails do.
    await page.getByRole('link', { name: /^Manage booking BK-/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Your booking' }).waitFor();
  });

  it('a sold-out timeslot takes a waitlist place; the offer e-mail links to a page that pays it', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 360, height: 780 });
    await page.goto(`${base}/book/spree-adventures/activities/${hike}`);
    await page.getByRole('heading', { level: 1, name: 'Canyon Hike' }).waitFor();
    // The calendar opens on this month; the sold-out day may be in the next.
    const soldOut = page.locator(`button.day.sold-out[data-date="${date}"]`);
    if (date.slice(0, 7) !== new Date().toISOString().slice(0, 7)) await page.getByRole('button', { name: 'Next month' }).click();
    await soldOut.click();
    await page.getByRole('button', { name: /Join the waitlist/ }).click();
    await page.getByLabel('First name').fill('Linus');
    await page.getByLabel('Last name').fill('Walker');
    await page.getByLabel('E-mail address').fill('linus@example.com');
    await page.getByLabel('Phone number').fill('+441234567892');
    await noViolations(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(page, 'booking-waitlist-phone');
    await page.getByRole('button', { name: 'Join the waitlist', exact: true }).click();
    await page.getByText(/Almost done: we have sent you an e-mail/).waitFor();

    await delivered();
    await page.goto(base + linkIn('linus@example.com', /waitlist/i));
    await page.getByRole('button', { name: 'Confirm my place' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your place on the waitlist is confirmed' }).waitFor();

    // The operator cancels the walk-in booking: the seats are offered, and the e-mail links to the claim page.
    expect((await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${blocker}/cancel`)).statusCode).toBe(200);
    await delivered();
    const claim = linkIn('linus@example.com', /Seats are free/);
    expect(claim).toMatch(/^\/book\/spree-adventures\/basket\//);
    await page.goto(base + claim);
    await page.getByRole('heading', { level: 1, name: 'Your basket' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Canyon Hike' }).waitFor();
    await page.getByText(/Your seats are held for another/).waitFor();
    await noViolations(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(page, 'booking-claim-phone');
    await pay(page, '4242424242424242');
    await page.getByRole('button', { name: 'Pay €30.00' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your booking is confirmed' }).waitFor();
    const waitlist = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/waitlists?TimeslotID=${hikeSlotId}`)).json().data;
    expect(waitlist[0]).toMatchObject({ Status: 'claimed' });
    await page.setViewportSize({ width: 1360, height: 900 });
  });

  it('a guest cancels their booking through the link in their confirmation e-mail', async () => {
    const { page } = browser;
    await delivered();
    const manage = linkIn('ada@example.com', /^Booked: Sunset Kayak Tour/);
    expect(manage).toMatch(/^\/book\/spree-adventures\/manage\/BK-/);
    await page.goto(base + manage);
    await page.getByRole('heading', { level: 1, name: 'Your booking' }).waitFor();
    await page.getByText(/You can cancel online until/).waitFor();
    // What cancelling gives back now, by the activity's rules (half, 288 hours before), said before cancelling.
    await page.getByText(/^If you cancel now, you get back €\d+\.\d\d \(50% of what you paid\)\.$/).waitFor();
    // The QR code staff scan at check-in, loaded from the shop API with the same token.
    const qr = page.getByRole('img', { name: /^QR code of booking BK-/ });
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await noViolations(page);
    await screenshot(page, 'booking-manage');
    await page.getByRole('button', { name: 'Cancel this booking' }).click();
    await page.getByRole('button', { name: 'Yes, cancel my booking' }).click();
    await page.getByText('Your booking is cancelled.').waitFor();
    const reference = manage.split('/').pop()!.split('_')[0]!;
    const cancelled = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${reference}`)).json().data;
    expect(cancelled.Status).toBe('cancelled');
    expect(cancelled.AmountRefunded).toBe(cancelled.AmountPaid / 2);
  });

  it('speaks German through the switcher, waiver questions included, and back to English', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${base}/book/spree-adventures/activities/${kayak}?date=${date}`);
    await page.getByRole('heading', { level: 1, name: 'Sunset Kayak Tour' }).waitFor();
    await page.getByRole('link', { name: 'Deutsch' }).click();
    await page.getByRole('heading', { level: 2, name: 'Tag wählen' }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    await page.getByRole('button', { name: /10:00–11:30/ }).click();
    await page.getByLabel('Notfallkontakt *').waitFor();
    await page.getByText('Ihre Angaben').waitFor();
    await noViolations(page);
    await screenshot(page, 'booking-german');
    await page.getByRole('link', { name: 'English' }).click();
    await page.getByRole('heading', { level: 2, name: 'Choose a day' }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    await page.close();
  });

  it('explains the per-client seat limit, and a hold that lapsed while the guest was away', async () => {
    const { page } = browser;
    await chooseKayakSlot(page, '2');
    await page.getByLabel('First name').fill('Hedy');
    await page.getByLabel('Last name').fill('Lamarr');
    await page.getByLabel('E-mail address').fill('hedy@example.com');
    await page.getByLabel('Phone number').fill('+441234567893');
    await page.getByLabel('Emergency contact *').fill('George');
    await page.getByLabel('Photo ID *').setInputFiles({ name: 'id.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('button', { name: 'Add to basket' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your basket' }).waitFor();

    // Two more seats would make four: over the three one client may hold at once.
    await page.getByRole('link', { name: 'Add another activity' }).click();
    await page.getByRole('link', { name: 'Book Sunset Kayak Tour' }).click();
    await page.locator(`button.day[data-date="${date}"]`).click();
    await page.getByRole('button', { name: /10:00–11:30/ }).click();
    await page.getByLabel('People').fill('2');
    await page.getByLabel('Emergency contact *').fill('George');
    await page.getByLabel('Photo ID *').setInputFiles({ name: 'id.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('button', { name: 'Add to basket' }).click();
    await page.getByRole('alert').filter({ hasText: 'You are already holding as many seats as one guest may hold at once' }).waitFor();
    await noViolations(page);

    // The guest comes back after the hold ran out: the basket says what happened, not a generic error.
    await page.getByRole('link', { name: /Basket \(1\)/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Your basket' }).waitFor();
    const basketId = (await t.db.kysely.selectFrom('baskets').select('id').where('customer_email', '=', 'hedy@example.com').executeTakeFirstOrThrow())
      .id;
    const held = t.db.kysely.selectFrom('basket_items').select('booking_id').where('basket_id', '=', basketId);
    await t.db.kysely
      .updateTable('bookings')
      .set({ hold_expires_at: addSeconds(nowSeconds(), -1) })
      .where('id', 'in', held)
      .execute();
    await page.reload();
    await page.getByText(/The time to pay for these seats has run out, so they were released/).waitFor();
    await page.getByText('The hold on these seats has run out; they were released.').waitFor();
    await noViolations(page);
    await screenshot(page, 'booking-hold-lapsed');
    await page.getByRole('button', { name: 'Start a new booking' }).click();
    await page.getByRole('heading', { level: 1, name: 'Book an activity' }).waitFor();
  });

  it('works by keyboard: each page focuses its heading, and Tab and Enter reach the timeslots', async () => {
    const { page } = browser;
    await page.goto(`${base}/book/spree-adventures`);
    await page.getByRole('heading', { level: 1, name: 'Book an activity' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    const focused = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.textContent ?? '');
    const tabTo = async (text: RegExp) => {
      for (let i = 0; i < 60 && !text.test(await focused()); i++) await page.keyboard.press('Tab');
      expect(await focused()).toMatch(text);
    };
    await tabTo(/^Book Sunset Kayak Tour$/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Sunset Kayak Tour' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Sunset Kayak Tour');
    await tabTo(new RegExp(`^${Number(date.slice(8))}$`));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 2, name: /Timeslots on/ }).waitFor();
    await tabTo(/10:00–11:30/);
    await page.keyboard.press('Enter');
    // The form opens with the party's field focused.
    await page.getByLabel('People').waitFor();
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement).labels?.[0]?.textContent)).toBe('People');
  });

  it('an unknown or closed shop is a 404 page; the numeric address works', async () => {
    const { page } = browser;
    expect((await page.goto(`${base}/book/no-such-shop`))?.status()).toBe(404);
    await noViolations(page);
    expect((await page.goto(`${base}/book/${op.operatorId}`))?.status()).toBe(200);
    await page.getByRole('heading', { level: 1, name: 'Book an activity' }).waitFor();
  });
});
