// The dashboard's Webhooks page in real Chromium against a real `slotbook serve` (with its webhook worker)
// and a real receiver that verifies signatures: add an endpoint (the secret shown once, copied), send a
// test event, see deliveries with their response code and time, inspect and replay one, disable and
// enable, rotate the secret, edit, set the contact e-mail, the banner of an endpoint disabled for
// failing, axe-core on each view, phone width, delete. SQLite project only, as the other browser tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { testDialect } from '../helpers/database.js';
import { LOOPBACK_NETWORKS } from '../helpers/app.js';
import type { ServerProcess } from '../helpers/server-process.js';
import { openDatabase, type Db } from '../../src/db/connection.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { axeViolations, hasChromium, screenshot, WCAG_21_AA } from './browser.js';
import { startDashboardWorld, type DashboardWorld } from './dashboard-world.js';
import { unixNow } from '../../src/lib/clock.js';

const run = hasChromium && testDialect() === 'sqlite';
const day = new Date(Date.now() + 4 * 86_400_000).toISOString().slice(0, 10);

describe.skipIf(!run)('the Webhooks page in a browser', { timeout: 60_000 }, () => {
  let world: DashboardWorld;
  let db: Db;
  let server: ServerProcess;
  let receiver: Receiver;
  let page: Page;
  let api: DashboardWorld['api'];
  let activityId: string;

  beforeAll(async () => {
    receiver = await startReceiver();
    // Outside production: the receiver is http on 127.0.0.1, a network the instance must allow.
    world = await startDashboardWorld({
      operator: 'Hook Tours',
      owner: 'owner@hook.example',
      serverEnv: { NODE_ENV: 'development', WEBHOOK_ALLOWED_NETWORKS: LOOPBACK_NETWORKS },
    });
    ({ server, api } = world);
    db = openDatabase(world.database.config);
    activityId = (
      await api<{ ActivityID: string }>('POST', '/api/v2/admin/activities', {
        Name: 'Harbour Kayak',
        DurationMinutes: 60,
        Timezone: 'Europe/Berlin',
        Currency: 'EUR',
        UnitPrice: 3000,
      })
    ).ActivityID;
    await api('POST', `/api/v2/admin/activities/${activityId}/timeslots`, { Date: day, Time: '10:00', Capacity: 20 });
    page = await world.openBrowser({ ownerPassword: 'hook tours owner', timeout: 15_000 });
  }, 120_000);

  afterAll(async () => {
    await db?.close();
    await world?.close();
    await receiver?.close();
  });

  it('adds an endpoint, shows its secret once with a copy button, and sends it a test event', async () => {
    await page.goto(`${server.url}/webhooks`);
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.getByText('No endpoints yet').waitFor();
    expect(await axeViolations(page, { tags: WCAG_21_AA })).toEqual([]);

    await page.getByLabel('URL', { exact: true }).fill('http://example.com/hooks');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page
      .getByText(/https \(http only to localhost/)
      .first()
      .waitFor(); // the 422 on URL, shown at the field
    await page.getByLabel('URL', { exact: true }).fill(receiver.url);
    await page.getByLabel('Description', { exact: true }).fill('Accounting sync');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: "Your endpoint's signing secret" });
    const secret = await dialog.getByLabel('Signing secret', { exact: true }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    await dialog.getByRole('button', { name: 'Copy' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    expect(await axeViolations(page, { tags: WCAG_21_AA })).toEqual([]);
    await dialog.getByRole('button', { name: 'I have stored it' }).click();
    receiver.secrets = [secret];

    await page.getByRole('link', { name: 'Accounting sync' }).click();
    await page.getByRole('heading', { name: 'Accounting sync', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByText(/Test event delivered: HTTP 204/).waitFor();
    expect(receiver.received.map((r) => [r.event.type, r.verifiedWith.length])).toEqual([['webhook.test', 1]]);
    await page.locator('[data-delivery]').first().waitFor();
    expect(await page.locator('[data-delivery]').first().textContent()).toContain('webhook.test');
  });

  it('lists the deliveries of bookings with code and time; inspects one and replays it', async () => {
    await api('POST', '/api/v2/admin/bookings', {
      ActivityID: activityId,
      Date: day,
      Time: '10:00',
      Participants: 2,
      Customer: { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: '+441234567890' },
    });
    await receiver.waitFor(3, 20_000); // the worker of the server delivers: booking.created, booking.confirmed
    // The receiver has answered, but the worker writes outcomes in groups: wait until every one is settled.
    const [endpoint] = await api<{ ID: number }[]>('GET', '/api/v2/admin/webhooks');
    const statuses = async () => (await api<{ Status: string }[]>('GET', `/api/v2/admin/webhooks/${endpoint!.ID}/deliveries`)).map((d) => d.Status);
    await expect.poll(async () => (await statuses()).filter((status) => status !== 'delivered'), { timeout: 20_000 }).toEqual([]);
    const created = receiver.received.find((r) => r.event.type === 'booking.created')!;
    await page.getByRole('button', { name: 'Refresh deliveries' }).click();
    const row = page.locator('[data-delivery]', { hasText: 'booking.created' });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/Delivered.*204 · \d+ ms/);
    await screenshot(page, 'webhook-detail');

    await row.getByRole('button', { name: /Inspect delivery/ }).click();
    const inspect = page.getByRole('dialog', { name: 'Delivery of booking.created' });
    await inspect.getByText(created.event.id).first().waitFor();
    expect(await inspect.locator('pre').last().textContent()).toContain(created.event.data.BookingReference);
    await inspect.getByText('HTTP 204', { exact: false }).first().waitFor();
    expect(await axeViolations(page, { tags: WCAG_21_AA })).toEqual([]);
    const before = receiver.received.length;
    await inspect.getByRole('button', { name: 'Replay' }).click();
    await page.getByText(/Replay queued/).waitFor();
    await receiver.waitFor(before + 1, 20_000);
    expect(receiver.received.at(-1)!.headers['webhook-id']).toBe(created.event.id);
  });

  it('disables and enables, rotates the secret, edits, and keeps the contact e-mail', async () => {
    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByText('Disabled: nothing is sent').waitFor();
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByText('Enabled: deliveries resume.').waitFor();

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog', { name: 'Rotate the signing secret?' }).getByRole('button', { name: 'Rotate secret' }).click();
    const fresh = await page.getByRole('dialog', { name: 'The new signing secret' }).getByLabel('Signing secret', { exact: true }).inputValue();
    expect(fresh).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByText(/still signs until/).waitFor();

    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Description', { exact: true }).fill('Accounting (EU)');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'Accounting (EU)', level: 1 }).waitFor();

    await page.getByRole('link', { name: 'Webhooks', exact: true }).first().click();
    await page.getByLabel('E-mail for notices', { exact: true }).fill('ops@example.com');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(/notices about your webhooks go to that address/).waitFor();
    expect(await api<{ ContactEmail: string }>('GET', '/api/v2/admin/webhooks/settings')).toEqual({ ContactEmail: 'ops@example.com' });
  });

  it('shows a banner on every page while an endpoint is disabled for failing; works at phone width', async () => {
    const failing = await api<{ ID: number }>('POST', '/api/v2/admin/webhooks', {
      URL: 'http://localhost:9/down',
      EventTypes: ['booking.cancelled'],
      Description: 'Old CRM',
    });
    // What the worker does after days of failures (covered by test/webhooks/delivery.test.ts), written directly.
    await db.kysely
      .updateTable('webhook_endpoints')
      .set({ status: 'disabled', disabled_reason: 'failing', disabled_at: unixNow() })
      .where('id', '=', failing.ID)
      .execute();
    await page.goto(`${server.url}/bookings`);
    const banner = page.getByRole('alert').filter({ hasText: 'A webhook endpoint was disabled' });
    await banner.waitFor();
    await banner.getByRole('link', { name: 'Old CRM' }).click();
    await page.getByRole('heading', { name: 'Old CRM', level: 1 }).waitFor();
    await page.getByText(/slotbook disabled this endpoint/).waitFor();
    expect(await axeViolations(page, { tags: WCAG_21_AA })).toEqual([]);

    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of ['/webhooks', `/webhooks/${failing.ID}`]) {
      await page.goto(server.url + path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
    await page.goto(`${server.url}/webhooks`);
    await page.getByRole('link', { name: 'Accounting (EU)' }).waitFor();
    await screenshot(page, 'webhooks-phone', false);
    await page.setViewportSize({ width: 1360, height: 900 });
    await page.reload();
    await page.getByRole('link', { name: 'Accounting (EU)' }).waitFor();
    await screenshot(page, 'webhooks');
  });

  it('deletes an endpoint', async () => {
    await page.getByRole('table').getByRole('link', { name: 'Old CRM' }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete this endpoint?' }).getByRole('button', { name: 'Delete endpoint' }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.getByText('Endpoint deleted.').waitFor();
    expect(await page.getByRole('link', { name: 'Old CRM' }).count()).toBe(0);
    expect(await page.getByRole('alert').filter({ hasText: 'disabled' }).count()).toBe(0);
  });
});
