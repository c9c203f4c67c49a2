// Deposits in a browser (issue 25, item 3): the basket says "Deposit now, balance later" with both amounts,
// Stripe's page charges the deposit; the guest's booking page shows the balance and "Pay the balance",
// which makes Stripe's page at the click, and comes back to the booking paid in full. Every page axe-clean.
// SQLite only, like the other browser tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { testDialect } from '../helpers/database.js';
import { freePort } from '../helpers/local.js';
import { startStripeServer, type StripeTestServer } from '../helpers/stripe-server.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer } from '../emails/fixtures.js';
import { manageToken } from '../../src/storefront/manage.js';
import { axeViolations, ensureDashboardBuilt, hasChromium, launchBrowser, screenshot, type Browser } from './browser.js';

describe.skipIf(!hasChromium || testDialect() !== 'sqlite')('a deposit, then the balance, from the booking pages', { timeout: 120_000 }, () => {
  let t: TestApp;
  let stripe: StripeTestServer;
  let op: TestOperator;
  let browser: Browser;
  let base: string;
  let kayak: string;
  const date = dateFromToday(10);

  beforeAll(async () => {
    ensureDashboardBuilt();
    stripe = await startStripeServer();
    // PUBLIC_URL must name the port before the app listens: Stripe sends the guest back there.
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({ PUBLIC_URL: base, STRIPE_API_BASE: stripe.base });
    op = await t.newOperator('Harbour Tours');
    expect((await call(t.app, op.adminKey, 'PATCH', '/api/v2/admin/shop', { Open: true })).statusCode).toBe(200);
    const account = stripe.addAccount({ webhookUrl: `${base}/api/v2/payments/stripe/${op.operatorId}/webhook` });
    const connected = await call(t.app, op.adminKey, 'PUT', '/api/v2/admin/settings/stripe', {
      SecretKey: account.secretKey,
      WebhookSecret: account.webhookSecret,
    });
    expect(connected.statusCode, connected.body).toBe(200);
    kayak = (await createActivity(t, op.adminKey, { Name: 'Harbour Kayak', UnitPrice: 4500, Currency: 'EUR', Deposit: { Percent: 30 } })).ActivityID;
    await createTimeslot(t, op.adminKey, kayak, { Date: date, Time: '10:00', Capacity: 8 });
    await t.app.listen({ port, host: '127.0.0.1' });
    browser = await launchBrowser();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await stripe?.stop();
  });

  it("pays the deposit on Stripe's page, then the balance from the guest's booking page", async () => {
    const { page } = browser;
    const opened = await call(t.app, undefined, 'POST', `/api/v2/shop/${op.operatorId}/baskets`, { Customer: customer('Ada', 'ada@example.com') });
    const token: string = opened.json().data.BasketToken;
    const added = await call(t.app, undefined, 'POST', `/api/v2/shop/${op.operatorId}/baskets/${token}/items`, {
      ActivityID: kayak,
      Date: date,
      Time: '10:00',
      Participants: 1,
    });
    expect(added.statusCode, added.body).toBe(201);

    await page.goto(`${base}/book/harbour-tours/basket/${token}`);
    await page.getByRole('heading', { level: 1, name: 'Your basket' }).waitFor();
    await page.getByText('Deposit now, balance later: you pay €13.50 now and €31.50 later', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    const pay = page.getByRole('button', { name: 'Pay €13.50 with Stripe' });
    await pay.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'deposit-basket');
    await pay.click();
    await page.getByRole('heading', { level: 1, name: 'Pay 13.50 EUR' }).waitFor();
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Your booking is confirmed' }).waitFor({ timeout: 15_000 });
    expect(await page.getByText('€31.50').count()).toBeGreaterThan(0);
    const reference = (await page.locator('.reference').first().textContent())!;
    expect((await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${reference}`)).json().data).toMatchObject({
      AmountPaid: 1350,
      AmountDue: 3150,
      PaymentState: 'part_paid',
    });

    await page.goto(`${base}/book/harbour-tours/manage/${manageToken(t.app.instanceKeys, op.operatorId, reference)}`);
    await page.getByRole('heading', { level: 1, name: 'Your booking' }).waitFor();
    const payBalance = page.getByRole('button', { name: 'Pay the balance: €31.50' });
    await payBalance.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'deposit-balance');
    await payBalance.click();
    await page.getByRole('heading', { level: 1, name: 'Pay 31.50 EUR' }).waitFor();
    expect(page.url()).toMatch(new RegExp(`^${stripe.base}/pay/cs_test_`));
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await stripe.settled();
    await page.getByText('Your booking is paid in full.').waitFor({ timeout: 15_000 });
    expect(await page.getByRole('button', { name: /Pay the balance/ }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    expect((await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${reference}`)).json().data).toMatchObject({
      AmountPaid: 4500,
      AmountDue: 0,
      PaymentState: 'paid',
    });
  });
});
