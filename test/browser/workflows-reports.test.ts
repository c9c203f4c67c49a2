// The workflows page, the question translations and the reports page in real Chromium against a real
// `slotbook serve`, signed in as the operator's owner: create a workflow with the live preview (a guest's
// markup shown as text, an unknown placeholder shown inline), pause and enable it, see its e-mails; add a
// German translation to a choice question; read a report whose figures match the bookings made and
// download its CSV; axe-core on each view, phone width. SQLite only, as the other browser tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { testDialect } from '../helpers/database.js';
import type { ServerProcess } from '../helpers/server-process.js';
import { axeViolations, hasChromium, screenshot } from './browser.js';
import { startDashboardWorld, type DashboardWorld } from './dashboard-world.js';

const run = hasChromium && testDialect() === 'sqlite';
const DAY = new Date(Date.now() + 6 * 86_400_000).toISOString().slice(0, 10);
const HOSTILE = '<img src=x onerror="window.pwned=1">Zoë';

describe.skipIf(!run)('workflows, translations and reports in the dashboard', { timeout: 60_000 }, () => {
  let world: DashboardWorld;
  let server: ServerProcess;
  let page: Page;
  let api: DashboardWorld['api'];
  let activityId: string;
  let reference: string;

  const book = async (participants: number, firstName = 'Ada') =>
    (
      await api<{ BookingReference: string }>('POST', '/api/v2/admin/bookings', {
        ActivityID: activityId,
        Date: DAY,
        Time: '10:00',
        Participants: participants,
        Customer: { FirstName: firstName, LastName: 'Guest', Email: 'guest@example.com', Phone: '+4930123456' },
      })
    ).BookingReference;

  beforeAll(async () => {
    world = await startDashboardWorld({ operator: 'Fjord Kayaks', owner: 'owner@fjord.example' });
    ({ server, api } = world);
    activityId = (
      await api<{ ActivityID: string }>('POST', '/api/v2/admin/activities', {
        Name: 'Fjord Paddle',
        DurationMinutes: 120,
        Timezone: 'Europe/Oslo',
        Currency: 'NOK',
        UnitPrice: 45000,
        MaxParticipantsPerBooking: 8,
      })
    ).ActivityID;
    await api('POST', `/api/v2/admin/activities/${activityId}/timeslots`, { Date: DAY, Time: '10:00', Capacity: 30 });
    await book(2);
    reference = await book(3, HOSTILE);
    page = await world.openBrowser({ ownerPassword: 'fjord kayaks owner' });
  }, 120_000);

  afterAll(() => world?.close());

  it('creates a workflow with a live preview of the newest booking, guest text shown as text, errors inline', async () => {
    await page.goto(`${server.url}/workflows`);
    await page.getByRole('heading', { name: 'Workflows', level: 1 }).waitFor();
    // A new operator starts with its starter workflows (the confirmation active, the others paused).
    await page.locator('.workflow-item').filter({ hasText: 'Booking confirmation' }).getByText('Enabled', { exact: true }).waitFor();
    await page.locator('.workflow-item').filter({ hasText: '24-hour reminder' }).getByText('Paused', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'New workflow' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Guest welcome');
    await page.getByLabel('Subject', { exact: true }).fill('See you on {{Date}}, {{FirstName}}');

    // The preview renders the newest confirmed booking: the guest's markup is text, nothing runs.
    const subject = page.getByTestId('preview-subject');
    await expect.poll(() => subject.textContent()).toBe(`See you on ${DAY}, ${HOSTILE}`);
    expect(await page.locator('.preview-for').textContent()).toContain(reference);
    expect(await page.getByTestId('preview-body').textContent()).toContain(`Hello ${HOSTILE},`);
    expect(await page.locator('.workflow-preview img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();

    // An unknown placeholder is named in the preview at once, and again next to the field on saving.
    const body = page.getByLabel('Body (plain text)', { exact: true });
    await body.fill('Hi {{Nickname}}, see you at {{Time}}.');
    await page.getByRole('alert').filter({ hasText: 'The template cannot be rendered' }).waitFor();
    expect(await page.locator('.preview-errors').textContent()).toContain('{{Nickname}}');
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.locator('.field-error').filter({ hasText: '{{Nickname}}' }).waitFor();

    // Placeholder chips insert at the caret.
    await body.fill('Hi , see you at {{Time}}.');
    await body.evaluate((area: HTMLTextAreaElement) => area.setSelectionRange(3, 3));
    await page.getByRole('button', { name: '{{FirstName}}' }).click();
    expect(await body.inputValue()).toBe('Hi {{FirstName}}, see you at {{Time}}.');
    await expect.poll(() => page.getByTestId('preview-body').textContent()).toBe(`Hi ${HOSTILE}, see you at 10:00.`);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'workflows-editor');

    // Narrowed to channels: not for OCTo resellers.
    await page.getByLabel('Resellers (OCTo)').uncheck();
    await page.getByRole('button', { name: 'Create workflow' }).click();
    const item = page.locator('.workflow-item').filter({ hasText: 'Guest welcome' });
    await item.getByText('Enabled', { exact: true }).waitFor();
    expect(await item.textContent()).toContain('for Booking pages, Point of sale, Marketplaces (partner API)');
    const workflow = (await api<{ Name: string; Enabled: boolean; Body: string; Channels: string[] }[]>('GET', '/api/v2/admin/workflows')).find(
      (w) => w.Name === 'Guest welcome',
    );
    expect(workflow).toMatchObject({ Enabled: true, Body: 'Hi {{FirstName}}, see you at {{Time}}.', Channels: ['online', 'pos', 'partner'] });
  });

  it('pauses and enables a workflow and lists its e-mails', async () => {
    const item = page.locator('.workflow-item').filter({ hasText: 'Guest welcome' });
    const welcome = async () =>
      (await api<{ Name: string; Enabled: boolean }[]>('GET', '/api/v2/admin/workflows')).find((w) => w.Name === 'Guest welcome')!;
    await item.getByRole('button', { name: /^Pause/ }).click();
    await item.getByText('Paused', { exact: true }).waitFor();
    expect((await welcome()).Enabled).toBe(false);
    await item.getByRole('button', { name: /^Enable/ }).click();
    await item.getByText('Enabled', { exact: true }).waitFor();
    expect((await welcome()).Enabled).toBe(true);

    const booked = await book(1, 'Ingrid');
    await item.getByRole('button', { name: 'E-mails' }).click();
    const table = page.getByRole('table', { name: 'E-mails of Guest welcome' });
    await table.getByText(booked).waitFor();
    // The worker delivers it to the outbox (no SMTP_URL) within a few seconds; "Sent" then lists it.
    await expect
      .poll(
        async () => {
          await item.getByRole('button', { name: 'All', exact: true }).click();
          await item.getByRole('button', { name: 'Sent', exact: true }).click();
          return table.getByText(booked).count();
        },
        { timeout: 20_000, interval: 1000 },
      )
      .toBe(1);
    await item.getByRole('button', { name: 'Failed', exact: true }).click();
    await item.getByText('No e-mails in this state yet.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'workflows');
  });

  it('translates a choice question into German, options included', async () => {
    const question = await api<{ ID: number }>('POST', `/api/v2/admin/activities/${activityId}/questions`, {
      Question: 'How well do you swim?',
      Type: 'select',
      Required: true,
      Options: ['Not at all', 'A little', 'Well'],
    });
    await page.goto(`${server.url}/activities/${activityId}/questions`);
    await page.getByRole('button', { name: 'Edit "How well do you swim?"' }).click();
    await page.getByLabel('Add a language', { exact: true }).fill('not a tag!');
    await page.getByRole('button', { name: 'Add language' }).click();
    await page.getByText('is not a language code').waitFor();
    await page.getByLabel('Add a language', { exact: true }).fill('de');
    await page.getByRole('button', { name: 'Add language' }).click();
    await page.getByLabel('Question in German', { exact: true }).fill('Wie gut schwimmen Sie?');
    // Two choices for three: the server names the field, shown beside it.
    await page.getByLabel('Choices in German, one per line', { exact: true }).fill('Gar nicht\nEin wenig');
    await page.getByRole('button', { name: 'Save question' }).click();
    await page.locator('.translation .field-error').filter({ hasText: 'Give all 3 options' }).waitFor();
    await page.getByLabel('Choices in German, one per line', { exact: true }).fill('Gar nicht\nEin wenig\nGut');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'question-translations');
    await page.getByRole('button', { name: 'Save question' }).click();
    await page.getByText('Translated: de').waitFor();
    const [saved] = await api<{ ID: number; Translations: Record<string, unknown> }[]>('GET', `/api/v2/admin/activities/${activityId}/questions`);
    expect(saved).toMatchObject({
      ID: question.ID,
      Translations: { de: { Question: 'Wie gut schwimmen Sie?', Options: ['Gar nicht', 'Ein wenig', 'Gut'] } },
    });

    // Removing the language removes the translation.
    await page.getByRole('button', { name: 'Edit "How well do you swim?"' }).click();
    await page.getByRole('button', { name: 'Remove German' }).click();
    await page.getByRole('button', { name: 'Save question' }).click();
    await page.getByRole('button', { name: 'Edit "How well do you swim?"' }).waitFor();
    expect(
      (await api<{ Translations: Record<string, unknown> }[]>('GET', `/api/v2/admin/activities/${activityId}/questions`))[0]!.Translations,
    ).toEqual({});
  });

  it('shows a report whose figures match the bookings, with a chart, tables and a CSV download', async () => {
    const cancelled = await book(4, 'Gone');
    await api('POST', `/api/v2/admin/bookings/${cancelled}/cancel`);
    await page.goto(`${server.url}/reports?from=${DAY}&to=${DAY}`);
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    await expect.poll(() => page.getByTestId('total-bookings').textContent()).toBe('3');
    expect(await page.getByTestId('total-guests').textContent()).toBe('6');
    expect((await page.getByTestId('total-revenue').textContent())?.replace(/\s/g, ' ')).toContain('2,700.00');
    expect(await page.locator('.stat-sub').first().textContent()).toBe('1 cancelled');
    expect(await page.locator(`.report-bar[data-date="${DAY}"]`).getAttribute('data-value')).toBe('3');
    await page.getByLabel('Show', { exact: true }).selectOption('NOK');
    expect(await page.locator(`.report-bar[data-date="${DAY}"]`).getAttribute('data-value')).toBe('270000');
    const activityRow = page.getByRole('table', { name: 'Per activity' }).locator(`tr[data-key="${activityId}"]`);
    expect(await activityRow.locator('td').allTextContents()).toEqual(['Fjord Paddle', '3', '6', expect.stringContaining('2,700.00'), '1']);
    expect(await page.getByRole('table', { name: 'Per channel' }).locator('tr[data-key="pos"] td').first().textContent()).toBe('Point of sale');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`bookings-report-${DAY}-to-${DAY}.csv`);
    const csv = await (await page.request.get(`${server.url}/api/v2/admin/reports/bookings/export?From=${DAY}&To=${DAY}`)).text();
    expect(csv).toContain(`${DAY},${activityId},Fjord Paddle,Point of sale,3,6,1,NOK,270000,2700.00`);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'reports');
  });

  it('shows the payments of the period: a shop basket paid with the test provider, then part refunded', async () => {
    await api('PATCH', '/api/v2/admin/shop', { Open: true, TestMode: true }); // the server runs as in production
    const shop = async (path: string, body: unknown) => {
      const response = await fetch(`${server.url}/api/v2/shop/${world.operator.OperatorID}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status, path).toBeLessThan(300);
      return (await response.json()).data;
    };
    const basket = await shop('/baskets', { Customer: { FirstName: 'Pay', LastName: 'Guest', Email: 'pay@example.com', Phone: '+4930123456' } });
    await shop(`/baskets/${basket.BasketToken}/items`, { ActivityID: activityId, Date: DAY, Time: '10:00', Participants: 2 });
    const paid = await shop(`/baskets/${basket.BasketToken}/checkout`, { Payment: { Provider: 'test', CardNumber: '4242424242424242' } });
    await api('POST', `/api/v2/admin/bookings/${paid.Items[0].BookingReference}/refund`, { Amount: '100.00' });
    // Paid and refunded today (in Oslo: the period starts the day before, for a test run at midnight).
    const from = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await page.goto(`${server.url}/reports?from=${from}&to=${DAY}`);
    await page.getByRole('heading', { name: 'Payments', level: 2, exact: true }).waitFor();
    await expect.poll(async () => (await page.getByTestId('payments-gross').textContent())?.replace(/\s/g, ' ')).toContain('900.00');
    expect((await page.getByTestId('payments-refunds').textContent())?.replace(/\s/g, ' ')).toContain('100.00');
    expect((await page.getByTestId('payments-net').textContent())?.replace(/\s/g, ' ')).toContain('800.00');
    const row = page.getByRole('table', { name: 'Payments per activity' }).locator(`tr[data-key="${activityId}"] td`);
    expect((await row.allTextContents()).map((text) => text.replace(/\s/g, ' '))).toEqual([
      'Fjord Paddle',
      expect.stringContaining('900.00'),
      expect.stringContaining('100.00'),
      expect.stringContaining('800.00'),
    ]);
    expect(await page.getByRole('link', { name: 'Download payments CSV' }).getAttribute('href')).toBe(
      `/api/v2/admin/reports/payments/export?From=${from}&To=${DAY}`,
    );
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'reports-payments');
  });

  it('exports the bookings list with its filters', async () => {
    await page.goto(`${server.url}/bookings?from=${DAY}&to=${DAY}&status=cancelled`);
    await page.getByRole('heading', { name: 'Bookings', level: 1 }).waitFor();
    const link = page.getByRole('link', { name: 'Export CSV' });
    expect(await link.getAttribute('href')).toBe(`/api/v2/admin/bookings/export?From=${DAY}&To=${DAY}&Status=cancelled`);
    const csv = await (await page.request.get(server.url + (await link.getAttribute('href'))!)).text();
    const lines = csv.trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(',cancelled,pos,');
  });

  it('fits a phone: reports and workflows without sideways scrolling', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [path, name] of [
      [`/reports?from=${DAY}&to=${DAY}`, 'reports-phone'],
      ['/workflows', 'workflows-phone'],
    ] as const) {
      await page.goto(server.url + path);
      await page.locator('h1').waitFor();
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, name);
    }
    await page.setViewportSize({ width: 1360, height: 900 });
  });
});
