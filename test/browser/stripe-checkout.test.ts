// Stripe Checkout in a browser (issue 25): from the booking pages' basket to the payment page of the local
// Stripe-compatible server, and back to the confirmation, which waits for Stripe's webhook and says so,
// then shows the confirmed booking. Every page axe-clean. SQLite only, like the other browser tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { testDialect } from '../helpers/database.js';
import { freePort } from '../helpers/local.js';
import { startStripeServer, type Deliver, type StripeTestServer } from '../helpers/stripe-server.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer } from '../emails/fixtures.js';
import { axeViolations, ensureDashboardBuilt, hasChromium, launchBrowser, screenshot, type Browser } from './browser.js';

describe.skipIf(!hasChromium || testDialect() !== 'sqlite')('paying with Stripe from the booking pages', { timeout: 120_000 }, () => {
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
    kayak = (await createActivity(t, op.adminKey, { Name: 'Harbour Kayak', UnitPrice: 4500, Currency: 'EUR' })).ActivityID;
    await createTimeslot(t, op.adminKey, kayak, { Date: date, Time: '10:00', Capacity: 8 });
    await t.app.listen({ port, host: '127.0.0.1' });
    browser = await launchBrowser();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await stripe?.stop();
  });

  it("goes to Stripe's page, pays, and comes back to a confirmation that waits for the webhook", async () => {
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
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    const pay = page.getByRole('button', { name: 'Pay €45.00 with Stripe' });
    await pay.waitFor();
    // No card field: the card is typed on Stripe's page only.
    expect(await page.getByLabel('Card number').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await pay.click();

    // The local Stripe server's payment page.
    await page.getByRole('heading', { level: 1, name: 'Pay 45.00 EUR' }).waitFor();
    expect(page.url()).toMatch(new RegExp(`^${stripe.base}/pay/cs_test_`));
    expect(await axeViolations(page)).toEqual([]);

    // Stripe's event is held back: the guest is back first, and the page says it is waiting.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const deliver = stripe.deliver;
    stripe.deliver = (async (...args) => {
      await gate;
      return deliver(...args);
    }) satisfies Deliver;
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Waiting for your payment' }).waitFor();
    expect(await page.getByRole('status').textContent()).toMatch(/waiting for your payment to be confirmed/);
    expect(page.url()).toContain(`/book/harbour-tours/confirmation/${token}?session_id=cs_test_`);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'stripe-waiting');

    release();
    await stripe.settled();
    expect(stripe.deliveries.at(-1)?.status).toBe(200);
    await page.getByRole('heading', { level: 1, name: 'Your booking is confirmed' }).waitFor({ timeout: 15_000 });
    const reference = (await page.locator('.reference').first().textContent())!;
    const booking = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${reference}`)).json().data;
    expect(booking).toMatchObject({ Status: 'confirmed', Source: 'online' });
    expect(await page.getByText(/^pi_test_/).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'stripe-confirmed');
  });
});
