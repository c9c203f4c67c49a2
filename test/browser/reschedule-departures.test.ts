// Rescheduling and cancelled departures (issue 26, items 1-2) in real Chromium: staff move a booking from
// its page (a date, then the timeslots with room), a guest moves their own from the manage page where the
// activity allows it, and staff cancel a departure from the activity calendar with a message to the guests.
// Each is read back through the API; every page is axe-clean. SQLite only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { testDialect } from '../helpers/database.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer, posBooking } from '../emails/fixtures.js';
import { openShop } from '../shop/fixtures.js';
import { createOwner } from '../../src/staff/accounts/service.js';
import { manageToken } from '../../src/storefront/manage.js';
import { axeViolations, ensureDashboardBuilt, hasChromium, launchBrowser, screenshot, signIn, type Browser } from './browser.js';

const run = hasChromium && testDialect() === 'sqlite';
const OWNER = 'owner@fjord.example';
const PASSWORD = 'fjord paddles owner pass';

describe.skipIf(!run)('rescheduling and cancelled departures', { timeout: 120_000 }, () => {
  let t: TestApp;
  let op: TestOperator;
  let browser: Browser;
  let base: string;
  let kayak: string;
  const date = dateFromToday(3);
  const later = dateFromToday(4);

  const noViolations = async (page: Page) => expect(await axeViolations(page)).toEqual([]);
  const bookingOf = async (reference: string) => (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${reference}`)).json().data;

  beforeAll(async () => {
    ensureDashboardBuilt();
    t = await createTestApp();
    op = await t.newOperator('Fjord Paddles');
    await openShop(t, op.adminKey);
    await t.db.write((tx) => createOwner(tx, op.operatorId, OWNER, { password: PASSWORD }));
    kayak = (await createActivity(t, op.adminKey, { Name: 'Fjord Kayak', UnitPrice: 4500, GuestRescheduleHours: 24 })).ActivityID;
    for (const day of [date, later]) {
      for (const Time of ['10:00', '14:00']) await createTimeslot(t, op.adminKey, kayak, { Date: day, Time, Capacity: 6 });
    }
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchBrowser();
    await signIn(browser.page, base, OWNER, PASSWORD);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it("staff move a booking from its page to another day's timeslot with room", async () => {
    const { page } = browser;
    const { BookingReference: reference } = await posBooking(t, op.adminKey, { ActivityID: kayak, Date: date, Time: '10:00' }, 2);
    // 14:00 on the later day has room for one only: it is not offered for two.
    await posBooking(t, op.adminKey, { ActivityID: kayak, Date: later, Time: '14:00' }, 5, customer('Full', 'full@example.com'));
    await page.goto(`${base}/bookings/${reference}`);
    await page.getByRole('button', { name: 'Reschedule' }).click();
    const dialog = page.getByRole('dialog', { name: `Reschedule booking ${reference}` });
    await dialog.getByRole('radiogroup', { name: 'Timeslots with room' }).waitFor();
    // On its own day, its own timeslot is not offered.
    expect(await dialog.getByRole('radio').count()).toBe(1);
    await dialog.getByLabel('Date').fill(later);
    await dialog.getByLabel(/^10:00–/).waitFor();
    expect(await dialog.getByLabel(/^14:00–/).count()).toBe(0);
    await noViolations(page);
    await screenshot(page, 'booking-reschedule');
    await dialog.getByLabel(/^10:00–/).check();
    await dialog.getByRole('button', { name: 'Move booking' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText(`Booking ${reference} moved`).waitFor();
    const moved = await bookingOf(reference);
    expect(moved).toMatchObject({ Date: later, Time: '10:00', Status: 'confirmed', BookingReference: reference, Total: 9000 });
  });

  it('a guest changes the time from the manage page', async () => {
    const { page } = browser;
    const { BookingReference: reference } = await posBooking(t, op.adminKey, { ActivityID: kayak, Date: date, Time: '14:00' }, 1);
    const token = manageToken(t.app.instanceKeys, op.operatorId, reference);
    const slug = (await call(t.app, op.adminKey, 'GET', '/api/v2/admin/settings')).json().data.Slug;
    await page.goto(`${base}/book/${slug}/manage/${token}`);
    await page.getByRole('heading', { level: 1, name: 'Your booking' }).waitFor();
    await page.getByText(/You can change the time online until/).waitFor();
    await page.getByRole('button', { name: 'Change the time' }).click();
    await page.getByText('Your tickets and what you paid stay the same.').waitFor();
    await page.getByRole('button', { name: /^Move to .*10:00/ }).waitFor();
    await noViolations(page);
    await screenshot(page, 'booking-manage-reschedule');
    await page.getByRole('button', { name: /^Move to .*10:00/ }).click();
    await page.getByText(/^Your booking is now on .* at 10:00\.$/).waitFor();
    expect(await bookingOf(reference)).toMatchObject({ Date: date, Time: '10:00', Status: 'confirmed' });
    await noViolations(page);
  });

  it('staff cancel a departure from the activity calendar with a message to the guests', async () => {
    const { page } = browser;
    const slot = await createTimeslot(t, op.adminKey, kayak, { Date: date, Time: '17:00', Capacity: 6 });
    const { BookingReference: first } = await posBooking(t, op.adminKey, { ActivityID: kayak, Date: date, Time: '17:00' }, 2);
    const { BookingReference: second } = await posBooking(
      t,
      op.adminKey,
      { ActivityID: kayak, Date: date, Time: '17:00' },
      1,
      customer('Grace', 'grace@example.com'),
    );
    await page.goto(`${base}/activities/${kayak}?month=${date.slice(0, 7)}`);
    await page.locator(`button[data-timeslot="${slot.ID}"]`).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Cancel departure…' }).click();
    // The message is required.
    await dialog.getByRole('button', { name: 'Cancel departure', exact: true }).click();
    await dialog.getByText('Write the message your guests get').waitFor();
    const message = 'Strong wind on the fjord: <no> tour today. Sorry!';
    await dialog.getByLabel('Message to the guests').fill(message);
    await noViolations(page);
    await dialog.getByRole('button', { name: 'Cancel departure', exact: true }).click();
    await dialog.getByRole('heading', { name: 'Departure cancelled' }).waitFor();
    // The message is shown as text, not markup.
    await dialog.getByText(message, { exact: true }).waitFor();
    await dialog.getByRole('link', { name: first }).waitFor();
    await noViolations(page);
    await screenshot(page, 'timeslot-departure-cancelled');
    expect((await bookingOf(first)).Status).toBe('cancelled');
    expect((await bookingOf(second)).Status).toBe('cancelled');
    const after = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/timeslots/${slot.ID}`)).json().data;
    expect(after).toMatchObject({ Booked: 0, Capacity: 0, CancelledAt: expect.any(String) });
    const emails = await t.db.kysely.selectFrom('emails').select(['to_address', 'body']).where('kind', '=', 'departure').execute();
    expect(emails.map((email) => email.to_address).sort()).toEqual(['ada@example.com', 'grace@example.com']);
    expect(emails[0]!.body).toContain(message);

    // The guest's manage page says the departure was cancelled, in the operator's words, and where to book again.
    const slug = (await call(t.app, op.adminKey, 'GET', '/api/v2/admin/settings')).json().data.Slug;
    await page.goto(`${base}/book/${slug}/manage/${manageToken(t.app.instanceKeys, op.operatorId, second)}`);
    await page.getByRole('heading', { name: 'The operator cancelled this departure' }).waitFor();
    await page.getByText(message, { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Book another time' }).waitFor();
    await noViolations(page);
  });
});
