// The operator's refunds in the dashboard (issue 25, item 4), in Chromium against a real `slotbook serve`
// talking to the local Stripe-compatible server: a booking's page lists its basket's payment and its
// refunds; Refund… gives back a part; a refund Stripe fails shows as failed with Retry, which refunds it once;
// cancelling a paid booking asks how much to give back (all, part, nothing). axe-clean. SQLite only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { testDialect } from '../helpers/database.js';
import { startStripeServer, type StripeTestServer } from '../helpers/stripe-server.js';
import { dateFromToday } from '../availability/fixtures.js';
import { customer } from '../emails/fixtures.js';
import { axeViolations, hasChromium, screenshot } from './browser.js';
import { startDashboardWorld, type DashboardWorld } from './dashboard-world.js';

const run = hasChromium && testDialect() === 'sqlite';
const date = dateFromToday(12);

interface AdminBooking {
  Status: string;
  AmountPaid: number;
  AmountRefunded: number;
  Refunds: { AmountMinorUnits: number; Status: string; Reason: string }[];
}

describe.skipIf(!run)("refunding from a booking's page", { timeout: 120_000 }, () => {
  let stripe: StripeTestServer;
  let world: DashboardWorld;
  let page: Page;
  let kayak: string;

  /** A booking of `participants` paid through the local Stripe server (its webhook over HTTP); its reference. */
  async function paidBooking(participants: number): Promise<string> {
    const shop = `/api/v2/shop/${world.operator.OperatorID}`;
    const { BasketToken } = await world.api<{ BasketToken: string }>('POST', `${shop}/baskets`, { Customer: customer('Ada', 'ada@example.com') });
    await world.api('POST', `${shop}/baskets/${BasketToken}/items`, { ActivityID: kayak, Date: date, Time: '10:00', Participants: participants });
    const checkout = await world.api<{ Payment: { RedirectURL: string } }>('POST', `${shop}/baskets/${BasketToken}/checkout`, {
      Payment: { Provider: 'stripe' },
    });
    await stripe.pay(checkout.Payment.RedirectURL.split('/pay/')[1]!);
    const basket = await world.api<{ Status: string; Items: { BookingReference: string }[] }>('GET', `${shop}/baskets/${BasketToken}`);
    expect(basket.Status).toBe('paid');
    return basket.Items[0]!.BookingReference;
  }
  const booking = (reference: string) => world.api<AdminBooking>('GET', `/api/v2/admin/bookings/${reference}`);

  beforeAll(async () => {
    stripe = await startStripeServer();
    world = await startDashboardWorld({ operator: 'Fjord Paddles', owner: 'owner@fjord.example', serverEnv: { STRIPE_API_BASE: stripe.base } });
    const account = stripe.addAccount({ webhookUrl: `${world.server.url}/api/v2/payments/stripe/${world.operator.OperatorID}/webhook` });
    await world.api('PUT', '/api/v2/admin/settings/stripe', { SecretKey: account.secretKey, WebhookSecret: account.webhookSecret });
    await world.api('PATCH', '/api/v2/admin/shop', { Open: true });
    kayak = (
      await world.api<{ ActivityID: string }>('POST', '/api/v2/admin/activities', {
        Name: 'Fjord Kayak',
        DurationMinutes: 120,
        Timezone: 'Europe/Oslo',
        Currency: 'EUR',
        UnitPrice: 4500,
      })
    ).ActivityID;
    await world.api('POST', `/api/v2/admin/activities/${kayak}/timeslots`, { Date: date, Time: '10:00', Capacity: 20 });
    page = await world.openBrowser({ ownerPassword: 'fjord paddles owner pass' });
  }, 180_000);

  afterAll(async () => {
    await world?.close();
    await stripe?.stop();
  });

  it('refunds a part, shows a refund Stripe failed with Retry, and retries it once', async () => {
    const reference = await paidBooking(2);
    await page.goto(`${world.server.url}/bookings/${reference}`);
    const payments = page
      .getByRole('region', { name: 'Payments' })
      .or(page.locator('section', { has: page.getByRole('heading', { name: 'Payments' }) }));
    await payments.getByText('€90.00').first().waitFor();
    await payments.getByRole('cell', { name: /^pi_/ }).waitFor();
    expect(await axeViolations(page, { impacts: ['serious', 'critical'] })).toEqual([]);

    await page.getByRole('button', { name: 'Refund…' }).click();
    const dialog = page.getByRole('dialog', { name: `Refund booking ${reference}` });
    await dialog.getByLabel('Part').check();
    // A typo is refused next to the field, and nothing is refunded.
    await dialog.getByLabel('Amount (EUR)').fill('12.505');
    await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
    await dialog.getByText(/at most the minor digits/).waitFor();
    expect((await booking(reference)).Refunds).toEqual([]);
    expect(await axeViolations(page, { impacts: ['serious', 'critical'] })).toEqual([]);
    await dialog.getByLabel('Amount (EUR)').fill('12.50');
    await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('table', { name: 'Refunds' }).getByText('€12.50').waitFor();
    expect(await booking(reference)).toMatchObject({ AmountRefunded: 1250 });

    // Stripe is down for this one: the refund is recorded failed, and the page offers Retry.
    stripe.failNext('/v1/refunds', 3);
    await page.getByRole('button', { name: 'Refund…' }).click();
    await dialog.getByLabel(/All that is left \(€77\.50\)/).check();
    await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
    await dialog
      .getByText(/failed/)
      .first()
      .waitFor();
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    const retry = page.getByRole('button', { name: /^Retry refund \d+$/ });
    await retry.waitFor();
    await screenshot(page, 'booking-refund-failed');
    expect(await axeViolations(page, { impacts: ['serious', 'critical'] })).toEqual([]);
    await retry.click();
    await page.getByRole('table', { name: 'Refunds' }).locator('tr', { hasText: '€77.50' }).getByText('succeeded').waitFor();
    const after = await booking(reference);
    expect(after.AmountRefunded).toBe(9000);
    expect(after.Refunds.map((refund) => [refund.AmountMinorUnits, refund.Status])).toEqual([
      [1250, 'succeeded'],
      [7750, 'succeeded'],
    ]);
    expect([...stripe.refunds.values()].filter((refund) => refund.amount === 7750)).toHaveLength(1);
    // Nothing is left: no more Refund button.
    expect(await page.getByRole('button', { name: 'Refund…' }).count()).toBe(0);
  });

  it('asks how much to refund when cancelling a paid booking: part of it here', async () => {
    const reference = await paidBooking(1);
    await page.goto(`${world.server.url}/bookings/${reference}`);
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    const dialog = page.getByRole('dialog', { name: `Cancel booking ${reference}?` });
    await dialog.getByRole('radiogroup', { name: 'How much to refund' }).waitFor();
    await dialog.getByLabel('Part').check();
    await dialog.getByLabel('Amount (EUR)').fill('10');
    expect(await axeViolations(page, { impacts: ['serious', 'critical'] })).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel booking' }).click();
    await page.getByRole('table', { name: 'Refunds' }).getByText('€10.00').waitFor();
    const after = await booking(reference);
    expect(after).toMatchObject({ Status: 'cancelled', AmountRefunded: 1000 });
    expect(after.Refunds.map((refund) => refund.Reason)).toEqual(['staff']);
  });

  it("warns of a dispute on the booking's page, with the deadline and the way to answer in Stripe", async () => {
    const reference = await paidBooking(1);
    const { Payments } = await world.api<{ Payments: { ProviderReference: string }[] }>('GET', `/api/v2/admin/bookings/${reference}`);
    await stripe.dispute(Payments[0]!.ProviderReference);
    await page.goto(`${world.server.url}/bookings/${reference}`);
    const alert = page.getByRole('alert').filter({ hasText: 'The payment is disputed' });
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/Evidence is due by/);
    expect(await alert.getByRole('link', { name: 'Answer in Stripe (new tab)' }).getAttribute('href')).toMatch(
      /^https:\/\/dashboard\.stripe\.com\/test\/payments\/pi_/,
    );
    expect(await axeViolations(page, { impacts: ['serious', 'critical'] })).toEqual([]);
  });

  it('cancels without a refund when the operator chooses nothing', async () => {
    const reference = await paidBooking(1);
    await page.goto(`${world.server.url}/bookings/${reference}`);
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    const dialog = page.getByRole('dialog', { name: `Cancel booking ${reference}?` });
    await dialog.getByLabel('Nothing').check();
    await dialog.getByRole('button', { name: 'Cancel booking' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Cancelled').first().waitFor();
    expect(await booking(reference)).toMatchObject({ Status: 'cancelled', AmountRefunded: 0, Refunds: [] });
    // The refund stays possible later from Payments.
    await page.getByRole('button', { name: 'Refund…' }).waitFor();
  });
});
