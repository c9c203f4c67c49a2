// Every booking page on a 360 px phone (issue 26, item 5): the activities, an activity with photos, the
// booking form, the basket with the terms checkbox, the confirmation with a long payment reference and a
// long e-mail address, the manage page, its reschedule chooser, the waiver completion page and a sold-out
// timeslot's waitlist form. On each: nothing scrolls sideways (scrollWidth <= clientWidth) and axe-core
// finds no WCAG 2.1 AA violation. SQLite only (the pages read the same API on both); skips without Chromium.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { testDialect } from '../helpers/database.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer, posBooking } from '../emails/fixtures.js';
import { GOOD_CARD, openShop } from '../shop/fixtures.js';
import { picture } from '../catalog/photo-files.js';
import { manageToken } from '../../src/storefront/manage.js';
import { axeViolations, ensureDashboardBuilt, hasChromium, launchBrowser, screenshot, type Browser } from './browser.js';

const LONG_EMAIL = 'ada.augusta.king.countess.of.lovelace.and.friends@analytical-engine-society.example.com';
const LONG_REFERENCE = `pi_${'3MtwBwLkdIwHu7ix28a3tqPa'.repeat(3)}`;

describe.skipIf(!hasChromium || testDialect() !== 'sqlite')('booking pages at 360 px', { timeout: 120_000 }, () => {
  let t: TestApp;
  let op: TestOperator;
  let browser: Browser;
  let base: string;
  let kayak: string;
  let hike: string;
  const date = dateFromToday(10);
  const book = (path: string) => `${base}/book/narrow-kayaks${path}`;

  beforeAll(async () => {
    ensureDashboardBuilt();
    t = await createTestApp();
    op = await t.newOperator('Narrow Kayaks');
    await openShop(t, op.adminKey);
    await call(t.app, op.adminKey, 'PATCH', '/api/v2/admin/settings', {
      TermsUrl: 'https://narrow-kayaks.example.com/terms',
      PrivacyUrl: 'https://narrow-kayaks.example.com/privacy',
    });
    kayak = (
      await createActivity(t, op.adminKey, {
        Name: 'Sunset Kayak Tour on the Extraordinarily Long-Named Lake Chargoggagoggmanchauggagoggchaubunagungamaugg',
        Description: 'Paddle at sunset.',
        UnitPrice: 4500,
        GuestCancelHours: 24,
        GuestRescheduleHours: 12,
        MeetingPoint: { Address: 'Kayak landing, Holzmarktstraße 25, 10243 Berlin', MapUrl: null, Latitude: 52.5115, Longitude: 13.4255 },
        Inclusions: ['Kayak, paddle and life jacket'],
        WhatToBring: ['A towel'],
      })
    ).ActivityID;
    for (const [width, height, alt] of [
      [1800, 1200, 'Two kayaks on a calm lake at sunset'],
      [900, 1200, 'A guide handing out paddles'],
      [1200, 800, 'The landing stage'],
    ] as const) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/v2/admin/activities/${kayak}/photos?Alt=${encodeURIComponent(alt)}`,
        headers: { authorization: `Bearer ${op.adminKey}`, 'content-type': 'image/jpeg' },
        payload: await picture(width, height, 'image/jpeg', 0x3a6ea5ff + width),
      });
      expect(response.statusCode, response.body).toBe(201);
    }
    await createTimeslot(t, op.adminKey, kayak, { Date: date, Time: '10:00', Capacity: 8 });
    await createTimeslot(t, op.adminKey, kayak, { Date: date, Time: '16:00', Capacity: 8 });
    const consent = { Question: 'I can swim and take part at my own risk.', Type: 'consent', Required: true };
    expect((await call(t.app, op.adminKey, 'POST', `/api/v2/admin/activities/${kayak}/questions`, consent)).statusCode).toBe(201);
    hike = (await createActivity(t, op.adminKey, { Name: 'Canyon Hike', UnitPrice: 3000 })).ActivityID;
    await createTimeslot(t, op.adminKey, hike, { Date: date, Time: '09:00', Capacity: 1 });
    await posBooking(t, op.adminKey, { ActivityID: hike, Date: date, Time: '09:00' }, 1, customer('Walk', 'walk-in@example.com'));
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchBrowser({ width: 360, height: 740 });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** Nothing wider than the phone, and nothing axe-core objects to. */
  async function fits(page: Page, name: string) {
    const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect(widths.scroll, `${name} is ${widths.scroll} px wide`).toBeLessThanOrEqual(widths.client);
    expect(await axeViolations(page), name).toEqual([]);
    await screenshot(page, `booking-360-${name}`);
  }

  /** A paid basket of one kayak seat, bought as the shop API is used: its token and booking reference. */
  async function paidBasket(): Promise<{ token: string; reference: string }> {
    const shop = `/api/v2/shop/${op.operatorId}`;
    const basket = await call(t.app, undefined, 'POST', `${shop}/baskets`, { Customer: customer('Ada', LONG_EMAIL) });
    expect(basket.statusCode, basket.body).toBe(201);
    const token = basket.json().data.BasketToken;
    const item = await call(t.app, undefined, 'POST', `${shop}/baskets/${token}/items`, {
      ActivityID: kayak,
      Date: date,
      Time: '10:00',
      Participants: 1,
      WaiverAnswers: [
        { QuestionID: (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/activities/${kayak}/questions`)).json().data[0].ID, Answer: 'true' },
      ],
    });
    expect(item.statusCode, item.body).toBe(201);
    const paid = await call(t.app, undefined, 'POST', `${shop}/baskets/${token}/checkout`, { Payment: GOOD_CARD, AcceptTerms: true });
    expect(paid.statusCode, paid.body).toBe(200);
    // A provider's reference can be long (Stripe's are): the page must wrap it.
    await t.db.kysely.updateTable('baskets').set({ payment_reference: LONG_REFERENCE }).where('token', '=', token).execute();
    return { token, reference: paid.json().data.Items[0].BookingReference };
  }

  it('the activities, with each cover photo', async () => {
    const { page } = browser;
    await page.goto(book(''));
    await page.getByRole('heading', { level: 1, name: 'Book an activity' }).waitFor();
    const cover = page.locator('.card img.photo').first();
    await cover.waitFor();
    expect(await cover.getAttribute('srcset')).toMatch(/480w, .* 960w, .* 1600w$/);
    expect(await cover.getAttribute('alt')).toBe('Two kayaks on a calm lake at sunset');
    // At 360 px the browser picks the 480 px JPEG (a device pixel ratio of 1).
    await expect.poll(() => cover.evaluate((image: HTMLImageElement) => image.currentSrc)).toMatch(/-480\.jpg$/);
    await fits(page, 'activities');
  });

  it("an activity's page with its photos, rules, and the booking form", async () => {
    const { page } = browser;
    await page.goto(book(`/activities/${kayak}?date=${date}`));
    await page.getByRole('img', { name: 'A guide handing out paddles' }).waitFor();
    await page.getByText('You can cancel online until 24 hours before the start.').waitFor();
    await page.getByText('You can move your booking to another time online until 12 hours before the start.').waitFor();
    await fits(page, 'activity');
    await page.getByRole('button', { name: /10:00–/ }).click();
    await page.getByLabel('First name').waitFor();
    await page.getByLabel('E-mail address').fill(LONG_EMAIL);
    await fits(page, 'form');
  });

  it('the basket asks for the terms before paying, with an accessible checkbox', async () => {
    const { page } = browser;
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Phone number').fill('+441234567890');
    await page.getByLabel('I can swim and take part at my own risk. *').check();
    await page.getByRole('button', { name: 'Add to basket' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your basket' }).waitFor();
    await page.getByText('You can move your booking to another time online until 12 hours before the start.').waitFor();
    await fits(page, 'basket');
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.getByLabel('Card number').fill('4242424242424242');
    // Its name is the label's sentence, the links' "(opens in a new tab)" included.
    const box = page.getByRole('checkbox', { name: /^I accept the terms and conditions\W+opens in a new tab\W+and have read the privacy notice/ });
    await box.waitFor();
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByText('Please accept the terms to continue.').waitFor();
    expect(await box.getAttribute('aria-invalid')).toBe('true');
    expect(await box.evaluate((element) => element === document.activeElement)).toBe(true);
    await fits(page, 'payment');
    await box.check();
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByRole('heading', { level: 1, name: 'Your booking is confirmed' }).waitFor();
    const reference = (await page.locator('.reference').first().textContent())!;
    const booking = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${reference}`)).json().data;
    expect(booking.TermsAcceptance).toMatchObject({ TermsUrl: 'https://narrow-kayaks.example.com/terms' });
  });

  it('the confirmation wraps a long payment reference and e-mail address', async () => {
    const { page } = browser;
    const { token } = await paidBasket();
    await page.goto(book(`/confirmation/${token}`));
    await page.getByRole('heading', { level: 1, name: 'Your booking is confirmed' }).waitFor();
    await page.getByText(LONG_REFERENCE).waitFor();
    await fits(page, 'confirmation');
  });

  it('the manage page and its reschedule chooser', async () => {
    const { page } = browser;
    const { reference } = await paidBasket();
    await page.goto(book(`/manage/${manageToken(t.app.instanceKeys, op.operatorId, reference)}`));
    await page.getByRole('heading', { level: 1, name: 'Your booking' }).waitFor();
    await fits(page, 'manage');
    await page.getByRole('button', { name: 'Change the time' }).click();
    await page.getByRole('button', { name: /^Move to .*16:00/ }).waitFor();
    await fits(page, 'reschedule');
  });

  it('the waiver completion page', async () => {
    const { page } = browser;
    const { BookingReference } = await posBooking(t, op.adminKey, { ActivityID: kayak, Date: date, Time: '16:00' }, 1, customer('Grace', LONG_EMAIL));
    await page.goto(book(`/manage/${manageToken(t.app.instanceKeys, op.operatorId, BookingReference)}/waiver`));
    await page.getByRole('heading', { level: 1, name: 'Complete your waiver' }).waitFor();
    await fits(page, 'waiver');
  });

  it("a sold-out timeslot's waitlist form", async () => {
    const { page } = browser;
    await page.goto(book(`/activities/${hike}?date=${date}`));
    await page.getByRole('button', { name: /Join the waitlist/ }).click();
    await page.getByLabel('E-mail address').fill(LONG_EMAIL);
    await fits(page, 'waitlist');
  });
});
