// Ticket types in the dashboard, in a real browser against a real server: the operator adds a child ticket
// that needs an adult and an infant ticket that takes no seat, then sells a mix at the point of sale and
// reads it back on the booking; each page is checked with axe-core. Like dashboard.test.ts, SQLite only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { testDialect } from '../helpers/database.js';
import type { ServerProcess } from '../helpers/server-process.js';
import { axeViolations, hasChromium, screenshot, WCAG_21_AA } from './browser.js';
import { startDashboardWorld, type DashboardWorld } from './dashboard-world.js';

const run = hasChromium && testDialect() === 'sqlite';
const utcDate = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const DAY = utcDate(3);

describe.skipIf(!run)('ticket types in the dashboard', { timeout: 60_000 }, () => {
  let world: DashboardWorld;
  let server: ServerProcess;
  let page: Page;
  let api: DashboardWorld['api'];
  let activityId: string;

  beforeAll(async () => {
    world = await startDashboardWorld({ operator: 'Harbour Cruises', owner: 'owner@harbour.example' });
    ({ server, api } = world);
    const activity = await api<{ ActivityID: string }>('POST', '/api/v2/admin/activities', {
      Name: 'Harbour Cruise',
      DurationMinutes: 90,
      Timezone: 'UTC',
      Currency: 'EUR',
      UnitPrice: 1900,
      MaxParticipantsPerBooking: 8,
    });
    activityId = activity.ActivityID;
    await api('POST', `/api/v2/admin/activities/${activityId}/timeslots`, { Date: DAY, Time: '14:00', Capacity: 10 });
    page = await world.openBrowser({ ownerPassword: 'harbour cruises owner' });
  }, 120_000);

  afterAll(() => world?.close());

  it('adds a child ticket that needs an adult and an infant ticket that takes no seat', async () => {
    await page.goto(`${server.url}/activities/${activityId}/tickets`);
    await page.getByRole('heading', { name: 'Ticket types' }).waitFor();
    await page.locator('[data-ticket-type="adult"]').waitFor();
    expect(await page.locator('[data-ticket-type="adult"]').textContent()).toContain('Default');

    await page.getByRole('button', { name: 'Add ticket type' }).first().click();
    await page.getByLabel('Ticket name', { exact: true }).fill('Child (4-14)');
    await page.getByLabel('Code', { exact: true }).fill('child');
    await page.getByLabel('Price (EUR)', { exact: true }).fill('11.00');
    await page.getByLabel('Youngest age', { exact: true }).fill('4');
    await page.getByLabel('Oldest age', { exact: true }).fill('14');
    await page.getByLabel('Must come with', { exact: true }).selectOption({ label: 'Adult' });
    await page.getByLabel('Translated names', { exact: true }).fill('de: Kind (4-14)');
    await page.getByRole('button', { name: 'Add ticket type' }).last().click();
    await page.getByText('Child (4-14) added.').waitFor();

    // A mistake is shown next to its field: the code is taken.
    await page.getByRole('button', { name: 'Add ticket type' }).first().click();
    await page.getByLabel('Ticket name', { exact: true }).fill('Infant (under 4)');
    await page.getByLabel('Code', { exact: true }).fill('child');
    await page.getByLabel('Price (EUR)', { exact: true }).fill('0');
    await page.getByLabel('Kind of guest', { exact: true }).selectOption('infant');
    await page.getByLabel('Takes a seat', { exact: true }).uncheck();
    await page.getByLabel('Must come with', { exact: true }).selectOption({ label: 'Adult' });
    await page.getByRole('button', { name: 'Add ticket type' }).last().click();
    await page.getByText('The activity already has a ticket type "child"').waitFor();
    expect(await axeViolations(page, { tags: WCAG_21_AA })).toEqual([]);
    await page.getByLabel('Code', { exact: true }).fill('infant');
    await page.getByRole('button', { name: 'Add ticket type' }).last().click();
    await page.getByText('Infant (under 4) added.').waitFor();
    expect(await page.locator('[data-ticket-type="infant"]').textContent()).toContain('no seat');
    expect(await page.locator('[data-ticket-type="child"]').textContent()).toContain('with Adult');
    await screenshot(page, 'activity-ticket-types');
    expect(await axeViolations(page, { tags: WCAG_21_AA })).toEqual([]);

    const types = await api<
      { Type: string; Price: number; TakesSeat: boolean; Requires: string | null; Translations: Record<string, { Name: string }> }[]
    >('GET', `/api/v2/admin/activities/${activityId}/ticket-types`);
    expect(types.map((type) => [type.Type, type.Price, type.TakesSeat, type.Requires])).toEqual([
      ['adult', 1900, true, null],
      ['child', 1100, true, 'adult'],
      ['infant', 0, false, 'adult'],
    ]);
    expect(types[1]!.Translations).toEqual({ de: { Name: 'Kind (4-14)' } });

    // The default cannot be removed; the child's price can change.
    expect(await page.getByRole('button', { name: 'Remove Adult' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Edit Child (4-14)' }).click();
    await page.getByLabel('Price (EUR)', { exact: true }).fill('12.50');
    await page.getByRole('button', { name: 'Save ticket type' }).click();
    await page.getByText('Child (4-14) saved.').waitFor();
    await expect.poll(() => page.locator('[data-ticket-type="child"]').textContent()).toContain('€12.50');
  });

  it('sells a mix at the point of sale: priced per type, seats for those who take one, shown on the booking', async () => {
    await page.goto(`${server.url}/bookings/new?activity=${activityId}&date=${DAY}&time=14:00`);
    await page.getByRole('heading', { name: 'New point-of-sale booking' }).waitFor();
    const mix = page.getByRole('group', { name: 'Tickets' });
    await mix.waitFor();
    await page.locator('label.slot', { hasText: '14:00' }).click();

    // A child alone is refused, next to the child's quantity.
    await mix.getByLabel('Adult', { exact: true }).fill('0');
    await mix.getByLabel('Child (4-14)', { exact: true }).fill('1');
    await page.getByLabel('First name', { exact: true }).fill('Lin');
    await page.getByLabel('Last name', { exact: true }).fill('Chen');
    await page.getByLabel('E-mail', { exact: true }).fill('lin.chen@example.com');
    await page.getByLabel('Phone', { exact: true }).fill('+49 30 1234567');
    await page.getByRole('button', { name: 'Book 1 ticket at 14:00' }).click();
    await page.getByText('Child (4-14) tickets must come with at least one Adult ticket in the same booking').waitFor();

    await mix.getByLabel('Adult', { exact: true }).fill('2');
    await mix.getByLabel('Child (4-14)', { exact: true }).fill('1');
    await mix.getByLabel('Infant (under 4)', { exact: true }).fill('1');
    await expect.poll(() => mix.locator('tfoot').textContent()).toContain('€50.50');
    // Four guests, three seats: the infant sits on a lap.
    await expect.poll(() => page.locator('.seats-callout').textContent()).toContain('7 after this booking');
    expect(await axeViolations(page, { tags: WCAG_21_AA })).toEqual([]);
    await screenshot(page, 'new-booking-tickets');
    await page.getByRole('button', { name: 'Book 4 tickets at 14:00' }).click();
    await page.getByRole('heading', { name: /^Booking BK-/ }).waitFor();
    const reference = (await page.getByRole('heading', { level: 1 }).textContent())!.replace('Booking ', '');

    const tickets = page.getByRole('table', { name: 'Tickets' });
    expect(await tickets.locator('[data-ticket-type="adult"]').textContent()).toContain('€38.00');
    expect(await tickets.locator('[data-ticket-type="infant"]').textContent()).toContain('€0.00');
    expect(await tickets.locator('tfoot').textContent()).toContain('€50.50');
    expect(await page.locator('.detail-grid').textContent()).toContain('3 seats');
    expect(await axeViolations(page, { tags: WCAG_21_AA })).toEqual([]);

    const booking = await api<{
      Participants: number;
      Seats: number;
      Total: number;
      Tickets: { Type: string; Quantity: number; UnitPrice: number }[];
    }>('GET', `/api/v2/admin/bookings/${reference}`);
    expect(booking).toMatchObject({ Participants: 4, Seats: 3, Total: 5050 });
    expect(booking.Tickets.map((ticket) => [ticket.Type, ticket.Quantity, ticket.UnitPrice])).toEqual([
      ['adult', 2, 1900],
      ['child', 1, 1250],
      ['infant', 1, 0],
    ]);

    // The bookings list shows the mix.
    await page.goto(`${server.url}/bookings?from=${DAY}&to=${DAY}`);
    const row = page.locator('tr', { hasText: reference });
    await row.waitFor();
    expect(await row.textContent()).toContain('2 Adult, 1 Child (4-14), 1 Infant (under 4)');
  });
});
