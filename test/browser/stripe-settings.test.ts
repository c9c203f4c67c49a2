// The Stripe card of the Shop settings page in Chromium against a real `slotbook serve` (in production)
// that talks to the local Stripe-compatible server: a key Stripe refuses is shown next to its field, a
// good one connects (the secrets leave the form and are never shown again), the shop then opens without
// test mode, and the account disconnects. axe-clean (no serious or critical violations). SQLite only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { testDialect } from '../helpers/database.js';
import { startStripeServer, type StripeTestServer } from '../helpers/stripe-server.js';
import { axeViolations, hasChromium, screenshot } from './browser.js';
import { startDashboardWorld, type DashboardWorld } from './dashboard-world.js';

const run = hasChromium && testDialect() === 'sqlite';

describe.skipIf(!run)('connecting Stripe on the Shop settings page', { timeout: 90_000 }, () => {
  let stripe: StripeTestServer;
  let world: DashboardWorld;
  let page: Page;

  beforeAll(async () => {
    stripe = await startStripeServer();
    world = await startDashboardWorld({ operator: 'Lake Paddles', owner: 'owner@lake.example', serverEnv: { STRIPE_API_BASE: stripe.base } });
    page = await world.openBrowser({ ownerPassword: 'lake paddles owner pass' });
  }, 120_000);

  afterAll(async () => {
    await world?.close();
    await stripe?.stop();
  });

  it('refuses a key Stripe refuses next to its field, connects a good one, opens the shop, and disconnects', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Shop settings' }).click();
    await page.getByRole('heading', { name: 'Payments with Stripe' }).waitFor();
    const key = page.getByLabel('Secret key');
    const secret = page.getByLabel('Webhook signing secret');
    await page.getByText(`/api/v2/payments/stripe/${world.operator.OperatorID}/webhook`).waitFor();

    await key.fill(`sk_live_${'n'.repeat(24)}`);
    await secret.fill(`whsec_${'s'.repeat(24)}`);
    await page.getByRole('button', { name: 'Connect Stripe' }).click();
    await page.getByText('Stripe refused this key').waitFor();
    expect(await key.getAttribute('aria-invalid')).toBe('true');
    expect(await axeViolations(page, { impacts: ['serious', 'critical'] })).toEqual([]);

    const account = stripe.addAccount({ secretKey: `sk_live_${'k'.repeat(20)}9876` });
    await key.fill(account.secretKey);
    await secret.fill(account.webhookSecret);
    await page.getByRole('button', { name: 'Connect Stripe' }).click();
    await page.getByText('Stripe is connected: your shop takes real payments.').waitFor();
    await page.getByText(/key ending in 9876, in live mode/).waitFor();
    expect(await key.inputValue()).toBe('');
    expect(await secret.inputValue()).toBe('');
    expect(await page.content()).not.toContain(account.secretKey);
    await page.getByText("Guests pay on Stripe's page, into your Stripe account.").waitFor();
    expect(await axeViolations(page, { impacts: ['serious', 'critical'] })).toEqual([]);
    await screenshot(page, 'stripe-settings');

    // In production the shop opens without test mode now.
    await page.getByLabel('The shop is open').check();
    await page.getByText('Your shop is open').waitFor();
    expect(await world.api('GET', '/api/v2/admin/shop')).toMatchObject({ Open: true, TestMode: false, PaymentProvider: 'stripe' });
    await page.getByLabel('The shop is open').uncheck();
    await page.getByText('Your shop is closed').waitFor();

    await page.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByText('Stripe is disconnected.').waitFor();
    await page.getByRole('button', { name: 'Connect Stripe' }).waitFor();
    expect(await world.api('GET', '/api/v2/admin/settings/stripe')).toMatchObject({ Connected: false });
  });
});
