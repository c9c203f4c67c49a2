// Manifests and check-in in a real browser against a real server process: the owner opens the day and a
// timeslot's manifest, checks a party in, undoes, checks in some of it, prints the manifest (print media)
// and sees the booking's QR code; a guide at phone width finds a booking by its typed reference (the path
// a QR scan takes where the browser cannot scan) and checks it in. Each page is checked with axe-core.
// SQLite only, like the other browser tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { testDialect } from '../helpers/database.js';
import type { ServerProcess } from '../helpers/server-process.js';
import { openDatabase } from '../../src/db/connection.js';
import { hashPassword } from '../../src/staff/users/passwords.js';
import { insertUser } from '../../src/staff/users/store.js';
import { todayIn } from '../../src/calendar/zoned-time.js';
import { axeViolations, hasChromium, navigationLinks, screenshot, signIn, signOut } from './browser.js';
import { startDashboardWorld, type DashboardWorld } from './dashboard-world.js';

const run = hasChromium && testDialect() === 'sqlite';
const GUIDE = 'mira@harbour.example';
const GUIDE_PASSWORD = 'guide of the harbour';

/** A zone where it is morning now, so that a timeslot at 21:00 there is today and still ahead. */
function morningZone(): string {
  const zones = [
    'Pacific/Kiritimati',
    'Pacific/Auckland',
    'Asia/Tokyo',
    'Asia/Kolkata',
    'Europe/Berlin',
    'America/New_York',
    'America/Denver',
    'Pacific/Honolulu',
    'Pacific/Pago_Pago',
  ];
  const hourIn = (zone: string) => Number(new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).format(new Date()));
  return zones.find((zone) => hourIn(zone) >= 1 && hourIn(zone) <= 14)!;
}

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe.skipIf(!run)('manifests and check-in in the dashboard', { timeout: 90_000 }, () => {
  let world: DashboardWorld;
  let server: ServerProcess;
  let page: Page;
  let api: DashboardWorld['api'];
  let timeslotId: number;
  let activityId: string;
  let today: string;
  const references: Record<string, string> = {};

  beforeAll(async () => {
    world = await startDashboardWorld({ operator: 'Harbour Walks', owner: 'owner@harbour.example' });
    ({ server, api } = world);
    const { operator } = world;
    // A guide, written straight to the database the server uses.
    const db = openDatabase(world.database.config);
    const passwordHash = await hashPassword(GUIDE_PASSWORD);
    await db.write((tx) =>
      insertUser(tx, { operatorId: operator.OperatorID, email: GUIDE, name: 'Mira', role: 'guide', status: 'active', passwordHash }),
    );
    await db.close();

    const zone = morningZone();
    today = todayIn(zone);
    const activity = await api<{ ActivityID: string }>('POST', '/api/v2/admin/activities', {
      Name: 'Old Harbour Walk',
      DurationMinutes: 90,
      Timezone: zone,
      Currency: 'EUR',
      UnitPrice: 1500,
    });
    activityId = activity.ActivityID;
    timeslotId = (
      await api<{ ID: number }>('POST', `/api/v2/admin/activities/${activity.ActivityID}/timeslots`, { Date: today, Time: '21:00', Capacity: 20 })
    ).ID;
    const book = async (first: string, last: string, people: number) =>
      (
        await api<{ BookingReference: string }>('POST', '/api/v2/admin/bookings', {
          ActivityID: activity.ActivityID,
          Date: today,
          Time: '21:00',
          Participants: people,
          Customer: { FirstName: first, LastName: last, Email: `${first.toLowerCase()}@example.com`, Phone: '+4915112345678' },
        })
      ).BookingReference;
    references.ada = await book('Ada', 'Lovelace', 3);
    references.grace = await book('Grace', 'Hopper', 2);
    references.alan = await book('Alan', 'Turing', 1);

    page = await world.openBrowser({ ownerPassword: 'harbour walks owner' });
  }, 120_000);

  afterAll(() => world?.close());

  it("shows the day and the timeslot's manifest; checks a party in, undoes, checks in some of it", async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Manifests', exact: true }).click();
    await page.getByRole('heading', { name: 'Manifests', level: 1 }).waitFor();
    const day = page.getByRole('table', { name: /^Timeslots of/ });
    await day.getByRole('row').nth(1).waitFor();
    expect(await day.getByRole('row').nth(1).textContent()).toMatch(/21:00.*Old Harbour Walk.*3.*6/);
    await screenshot(page, 'manifest-day');
    expect(await axeViolations(page)).toEqual([]);

    await day.getByRole('link', { name: 'Old Harbour Walk' }).click();
    await page.getByRole('heading', { name: 'Old Harbour Walk, 21:00', level: 1 }).waitFor();
    const guests = page.getByRole('table', { name: 'Guests' });
    expect(await guests.getByRole('row').count()).toBe(4);
    const ada = guests.locator(`tr[data-reference="${references.ada}"]`);
    await ada.getByRole('button', { name: 'Check in all 3 of Ada Lovelace' }).click();
    await ada.getByText('Checked in', { exact: true }).waitFor();
    await ada.getByRole('button', { name: 'Undo check-in of Ada Lovelace' }).click();
    await ada.getByText('Not arrived', { exact: true }).waitFor();
    await ada.getByRole('button', { name: /^Some/ }).click();
    // More than the party is not accepted (the field's own range; the server would answer 422 too).
    await ada.getByLabel('Adult in (of 3)').fill('4');
    await ada.getByRole('button', { name: 'Save' }).click();
    expect(await ada.getByLabel('Adult in (of 3)').evaluate((input: HTMLInputElement) => input.validity.rangeOverflow)).toBe(true);
    await ada.getByText('Not arrived', { exact: true }).waitFor();
    await ada.getByLabel('Adult in (of 3)').fill('2');
    await ada.getByRole('button', { name: 'Save' }).click();
    await ada.getByText('Partly in (2 of 3)').waitFor();
    const grace = guests.locator(`tr[data-reference="${references.grace}"]`);
    await grace.getByRole('button', { name: 'Check in all 2 of Grace Hopper' }).click();
    await grace.getByText('Checked in', { exact: true }).waitFor();
    // Who owes: nobody paid at the desk; the balance of Grace's party is taken at check-in, in part by card.
    expect(await grace.textContent()).toContain('Unpaid');
    await grace.getByRole('button', { name: 'Take payment of Grace Hopper' }).click();
    const form = grace.getByRole('form', { name: 'Payment of Grace Hopper' });
    expect(await form.getByLabel('Amount (EUR)').inputValue()).toBe('30.00');
    await form.getByLabel('Method').selectOption('card_terminal');
    await form.getByLabel('Amount (EUR)').fill('20');
    await form.getByRole('button', { name: 'Record payment' }).click();
    await form.getByText('Reference is required for card_terminal', { exact: false }).waitFor();
    await form.getByLabel('Receipt number').fill('RCPT-77');
    await form.getByRole('button', { name: 'Record payment' }).click();
    await grace.getByText('Part paid', { exact: true }).waitFor();
    expect(await grace.textContent()).toMatch(/10\.00.*due/);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'manifest');

    // The server agrees: check-ins and their audit entries.
    const manifest = await api<{ Entries: { BookingReference: string; CheckedIn: number; Attendance: string }[] }>(
      'GET',
      `/api/v2/admin/manifests/${timeslotId}`,
    );
    expect(manifest.Entries.map((entry) => [entry.BookingReference, entry.Attendance, entry.CheckedIn])).toEqual([
      [references.grace, 'checked-in', 2],
      [references.ada, 'partial', 2],
      [references.alan, 'not-arrived', 0],
    ]);
    const graceBooking = await api<{ AmountDue: number; PaymentState: string; Payments: { Method: string; ProviderReference: string }[] }>(
      'GET',
      `/api/v2/admin/bookings/${references.grace}`,
    );
    expect(graceBooking).toMatchObject({
      AmountDue: 1000,
      PaymentState: 'part_paid',
      Payments: [{ Method: 'card_terminal', ProviderReference: 'RCPT-77' }],
    });
    const audit = await api<{ Action: string }[]>('GET', `/api/v2/admin/audit?ResourceID=${references.ada}`);
    expect(audit.map((entry) => entry.Action)).toEqual(['booking.check-in', 'booking.check-in-undo', 'booking.check-in', 'booking.create']);
  });

  it("prints the manifest: the guests' table alone, without the navigation and buttons", async () => {
    await page.emulateMedia({ media: 'print' });
    try {
      expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
      expect(await page.getByRole('button', { name: 'Print' }).isVisible()).toBe(false);
      expect(await page.getByRole('button', { name: /^Check in all 1/ }).isVisible()).toBe(false);
      expect(await page.getByRole('table', { name: 'Guests' }).isVisible()).toBe(true);
      await screenshot(page, 'manifest-print');
    } finally {
      await page.emulateMedia({ media: 'screen' });
    }
  });

  it("shows the booking's QR code on its page", async () => {
    await page.goto(`${server.url}/bookings/${references.alan}`);
    const qr = page.getByRole('img', { name: `QR code of booking ${references.alan}` });
    await qr.waitFor();
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await signOut(page);
  });

  it('lets a guide at phone width find a booking by its typed reference and check it in', async () => {
    await signIn(page, server.url, GUIDE, GUIDE_PASSWORD);
    await page.getByRole('heading', { name: 'Manifests', level: 1 }).waitFor();
    expect(await navigationLinks(page)).toEqual(['Manifests']);
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      // A guide has today only: no day picker.
      expect(await page.getByLabel('Date', { exact: true }).count()).toBe(0);
      await page.getByRole('link', { name: 'Check in at the door' }).click();
      await page.getByRole('heading', { name: 'Check in', level: 1 }).waitFor();
      // Typed as read off a phone screen: lower case, without "BK-".
      await page.getByLabel('Booking reference').fill('nonsense');
      await page.getByRole('button', { name: 'Find' }).click();
      await page.getByText('A booking reference looks like BK-7KQ2MX9P').waitFor();
      await page.getByLabel('Booking reference').fill(references.alan!.slice(3).toLowerCase());
      await page.getByRole('button', { name: 'Find' }).click();
      const found = page.locator('.found-booking');
      await found.getByRole('heading', { name: 'Alan Turing' }).waitFor();
      expect(await found.textContent()).toContain(references.alan);
      expect(await axeViolations(page)).toEqual([]);
      await found.getByRole('button', { name: 'Check in of Alan Turing' }).click();
      await found.getByText('Checked in', { exact: true }).waitFor();
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, 'checkin-phone');
      // The manifest at phone width: stacked rows, nothing wider than the screen.
      await page.goto(`${server.url}/manifests/${timeslotId}`);
      await page.getByRole('table', { name: 'Guests' }).waitFor();
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, 'manifest-phone');
    } finally {
      await page.setViewportSize({ width: 1360, height: 900 });
    }
  });

  it('shows a booking made elsewhere within seconds, and asks the guide to confirm a missing waiver before letting the guest in', async () => {
    await page.goto(`${server.url}/manifests/${timeslotId}`);
    const guests = page.getByRole('table', { name: 'Guests' });
    await guests.waitFor();
    // The activity now asks a required consent; a booking taken at the desk meanwhile has no answers.
    await api('POST', `/api/v2/admin/activities/${activityId}/questions`, { Question: 'I can swim', Type: 'consent', Required: true });
    const reference = (
      await api<{ BookingReference: string }>('POST', '/api/v2/admin/bookings', {
        ActivityID: activityId,
        Date: today,
        Time: '21:00',
        Participants: 1,
        Customer: { FirstName: 'Edsger', LastName: 'Dijkstra', Email: 'edsger@example.com', Phone: '+31201234567' },
      })
    ).BookingReference;
    // No reload: the manifest reads itself again every 10 s.
    const edsger = guests.locator(`tr[data-reference="${reference}"]`);
    await edsger.waitFor({ timeout: 15_000 });
    await edsger.getByText('Waiver missing', { exact: true }).waitFor();
    await edsger.getByRole('button', { name: 'Check in of Edsger Dijkstra' }).click();
    await edsger.getByText('no complete waiver', { exact: false }).waitFor();
    expect(await api<{ Booking: { CheckedIn: number } }>('GET', `/api/v2/admin/check-in/${reference}`)).toMatchObject({ Booking: { CheckedIn: 0 } });
    await edsger.getByLabel(/Edsger Dijkstra may take part/).check();
    await edsger.getByRole('button', { name: 'Check in of Edsger Dijkstra' }).click();
    await edsger.getByText('Checked in', { exact: true }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    const audit = await api<{ Action: string; After: { WaiverConfirmed?: boolean } }[]>('GET', `/api/v2/admin/audit?ResourceID=${reference}`);
    expect(audit.find((entry) => entry.Action === 'booking.check-in')?.After.WaiverConfirmed).toBe(true);
    // A guide may not cancel the departure: the manifest offers it to those who may change bookings.
    expect(await page.getByRole('button', { name: 'Cancel departure…' }).count()).toBe(0);
  });

  it('cancels the departure from its manifest (the owner)', async () => {
    await signOut(page);
    await signIn(page, server.url, 'owner@harbour.example', 'harbour walks owner');
    await page.goto(`${server.url}/manifests/${timeslotId}`);
    await page.getByRole('table', { name: 'Guests' }).waitFor();
    await page.getByRole('button', { name: 'Cancel departure…' }).click();
    await page.getByLabel('Message to the guests').fill('Storm warning: the harbour is closed. Sorry!');
    await page.getByRole('button', { name: 'Cancel departure', exact: true }).click();
    await page.getByRole('heading', { name: 'Departure cancelled' }).waitFor();
    // The manifest reads itself again: nobody is booked any more.
    await page.getByText('No confirmed bookings on this timeslot.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    const ada = await api<{ Status: string }>('GET', `/api/v2/admin/bookings/${references.ada}`);
    expect(ada.Status).toBe('cancelled');
  });
});
