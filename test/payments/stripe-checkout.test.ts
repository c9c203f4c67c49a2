// Stripe Checkout from the shop (issue 25, item 1): checkout answers the session to pay on Stripe's page,
// with the seats held past its expiry; Stripe's webhook, verified against the operator's own secret,
// completes the basket exactly once (the same completion as the test provider's), also when the guest
// never comes back; a payment whose seats are gone is refunded, never overbooked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, problemOf, PUBLIC_URL, type TestOperator } from '../helpers/app.js';
import type { StripeTestAccount } from '../helpers/stripe-server.js';
import { createActivity, createTimeslot, dateFromToday, getTimeslot } from '../availability/fixtures.js';
import { customer, meterEntries } from '../emails/fixtures.js';
import { addEndpoint } from '../webhooks/fixtures.js';
import { GOOD_CARD, openShop } from '../shop/fixtures.js';
import { connectStripe, stripeWorld, webhookUrl, type StripeWorld } from './fixtures.js';
import { addMillis, addSeconds, nowMillis, unixNow } from '../../src/lib/clock.js';

let world: StripeWorld;
let op: TestOperator;
let account: StripeTestAccount;
let other: TestOperator;
let otherAccount: StripeTestAccount;
let kayak: string;
const date = dateFromToday(15);

interface Basket {
  BasketToken: string;
  Status: string;
  Total: number;
  Currency: string;
  PaymentReference: string | null;
  Items: { BookingReference: string; Status: string; HoldExpiresAt: string | null }[];
  Payment?: { Provider: string; Status: string; RedirectURL: string | null; ExpiresAt: string | null };
}

const shop = (operatorId = op.operatorId) => `/api/v2/shop/${operatorId}`;

async function basketWith(Participants: number, Time = '10:00', ActivityID = kayak, operatorId = op.operatorId): Promise<Basket> {
  const opened = await call(world.t.app, undefined, 'POST', `${shop(operatorId)}/baskets`, { Customer: customer() });
  expect(opened.statusCode, opened.body).toBe(201);
  const token = opened.json().data.BasketToken;
  const added = await call(world.t.app, undefined, 'POST', `${shop(operatorId)}/baskets/${token}/items`, {
    ActivityID,
    Date: date,
    Time,
    Participants,
  });
  expect(added.statusCode, added.body).toBe(201);
  return added.json().data;
}

const checkout = (token: string, Payment: object = { Provider: 'stripe' }, operatorId = op.operatorId) =>
  call(world.t.app, undefined, 'POST', `${shop(operatorId)}/baskets/${token}/checkout`, { Payment });

async function readBasket(token: string, operatorId = op.operatorId): Promise<Basket> {
  return (await call(world.t.app, undefined, 'GET', `${shop(operatorId)}/baskets/${token}`)).json().data;
}

/** Checks out with Stripe and answers the basket and its session's id. */
async function awaitingPayment(token: string): Promise<{ basket: Basket; sessionId: string }> {
  const response = await checkout(token);
  expect(response.statusCode, response.body).toBe(200);
  const basket: Basket = response.json().data;
  return { basket, sessionId: basket.Payment!.RedirectURL!.split('/pay/')[1]! };
}

const basketRow = (token: string) => world.t.db.kysely.selectFrom('baskets').selectAll().where('token', '=', token).executeTakeFirstOrThrow();
const orderEntries = async (basketId: number, operatorId = op.operatorId) =>
  (await meterEntries(world.t.db, operatorId, 'order-completed')).filter((entry) => JSON.parse(entry.extra_info!).BasketID === basketId);
async function orderEvents(basketId: number): Promise<number> {
  const rows = await world.t.db.kysely.selectFrom('webhook_outbox').select('events').where('operator_id', '=', op.operatorId).execute();
  return rows
    .flatMap((row) => JSON.parse(row.events) as unknown[][])
    .filter((event) => event[0] === 'order.completed' && event[1] === `order:${basketId}`).length;
}
const eventCount = async () =>
  Number(
    (
      await world.t.db.kysely
        .selectFrom('stripe_events')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

beforeAll(async () => {
  world = await stripeWorld();
  op = await world.t.newOperator();
  other = await world.t.newOperator();
  await openShop(world.t, op.adminKey);
  await openShop(world.t, other.adminKey);
  account = await connectStripe(world, op.operatorId, op.adminKey);
  otherAccount = await connectStripe(world, other.operatorId, other.adminKey);
  await addEndpoint(world.t, op.adminKey, { URL: 'http://127.0.0.1:9/slotbook' });
  kayak = (await createActivity(world.t, op.adminKey, { Name: 'Kayak', UnitPrice: 4500, Currency: 'EUR' })).ActivityID;
  for (const Time of ['10:00', '12:00', '14:00']) await createTimeslot(world.t, op.adminKey, kayak, { Date: date, Time, Capacity: 10 });
});
afterAll(() => world.close());

describe('checkout with Stripe', () => {
  it('answers 200 awaiting_payment with the Checkout Session to pay, the seats held past its expiry', async () => {
    const basket = await basketWith(2);
    const response = await checkout(basket.BasketToken);
    expect(response.statusCode, response.body).toBe(200);
    const answered: Basket = response.json().data;
    expect(answered).toMatchObject({ Status: 'awaiting_payment', Total: 9000, Payment: { Provider: 'stripe', Status: 'pending' } });
    expect(answered.Payment!.RedirectURL).toMatch(new RegExp(`^${world.stripe.base}/pay/cs_test_`));
    const session = world.stripe.requireSession(answered.Payment!.RedirectURL!.split('/pay/')[1]!);
    const row = await basketRow(basket.BasketToken);
    expect(session).toMatchObject({
      amount_total: 9000,
      currency: 'eur',
      customer_email: 'ada@example.com',
      client_reference_id: `${op.operatorId}:${row.id}`,
      metadata: { slotbook_operator_id: String(op.operatorId), slotbook_basket_id: String(row.id) },
      cancel_url: `${PUBLIC_URL}/book/operator-1/basket/${basket.BasketToken}`,
    });
    expect(String(session.success_url)).toBe(`${PUBLIC_URL}/book/operator-1/confirmation/${basket.BasketToken}?session_id={CHECKOUT_SESSION_ID}`);
    // Stripe's session lasts 30 minutes at least; the seats are held 5 minutes beyond it.
    const expiresAt = Number(session.expires_at);
    expect(expiresAt - Date.now() / 1000).toBeGreaterThan(30 * 60);
    expect(Date.parse(answered.Items[0]!.HoldExpiresAt!) / 1000).toBe(expiresAt + 5 * 60);
    expect(answered.Payment!.ExpiresAt).toBe(new Date(expiresAt * 1000).toISOString());
  });

  it('answers the same session to a retry, and after the guest came back from the cancel page', async () => {
    const basket = await basketWith(1);
    const sessions = world.stripe.sessions.size;
    const first = (await awaitingPayment(basket.BasketToken)).basket;
    const again = await checkout(basket.BasketToken);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.Payment.RedirectURL).toBe(first.Payment!.RedirectURL);
    expect((await readBasket(basket.BasketToken)).Status).toBe('awaiting_payment');
    expect(world.stripe.sessions.size).toBe(sessions + 1);
  });

  it('sends the amount in minor units, whole units for a zero-decimal currency (JPY)', async () => {
    const tea = (await createActivity(world.t, op.adminKey, { Name: 'Tea ceremony', UnitPrice: 1500, Currency: 'JPY' })).ActivityID;
    await createTimeslot(world.t, op.adminKey, tea, { Date: date, Time: '10:00', Capacity: 10 });
    const basket = await basketWith(3, '10:00', tea);
    expect(basket).toMatchObject({ Currency: 'JPY', Total: 4500 });
    const { sessionId } = await awaitingPayment(basket.BasketToken);
    expect(world.stripe.requireSession(sessionId)).toMatchObject({ amount_total: 4500, currency: 'jpy' });
  });

  it('refuses what Stripe cannot be asked for: a card number, a shop without Stripe, a hold too old to outlast a session', async () => {
    const basket = await basketWith(1);
    expect(problemOf(await checkout(basket.BasketToken, GOOD_CARD), 422, 'validation').errors?.[0]?.field).toBe('Payment.Provider');
    // A shop whose operator has no Stripe account is charged by the test provider (outside production).
    const third = await world.t.newOperator();
    await openShop(world.t, third.adminKey);
    const canoe = (await createActivity(world.t, third.adminKey, { Name: 'Canoe', UnitPrice: 1000 })).ActivityID;
    await createTimeslot(world.t, third.adminKey, canoe, { Date: date, Time: '10:00', Capacity: 5 });
    const elsewhere = await basketWith(1, '10:00', canoe, third.operatorId);
    expect(problemOf(await checkout(elsewhere.BasketToken, { Provider: 'stripe' }, third.operatorId), 422, 'validation').errors?.[0]?.field).toBe(
      'Payment.Provider',
    );
    // Made 40 minutes ago: a session of 30 minutes and the margin would hold it beyond the 60-minute ceiling.
    const old = await basketWith(1);
    await world.t.db.kysely
      .updateTable('bookings')
      .set({ created_at: addMillis(nowMillis(), -40 * 60_000) })
      .where('reference', '=', old.Items[0]!.BookingReference)
      .execute();
    const refused = problemOf(await checkout(old.BasketToken), 409, 'conflict');
    expect(refused.detail).toMatch(/cannot be held long enough/);
    expect((await readBasket(old.BasketToken)).Status).toBe('open');
  });

  it("answers 502 when Stripe refuses the shop's key; nothing is charged, the seats stay held", async () => {
    const third = await world.t.newOperator();
    await openShop(world.t, third.adminKey);
    const gone = await connectStripe(world, third.operatorId, third.adminKey, { secretKey: `sk_test_${'g'.repeat(24)}` });
    const canoe = (await createActivity(world.t, third.adminKey, { Name: 'Canoe', UnitPrice: 1000 })).ActivityID;
    await createTimeslot(world.t, third.adminKey, canoe, { Date: date, Time: '10:00', Capacity: 5 });
    const basket = await basketWith(1, '10:00', canoe, third.operatorId);
    // The operator rolled the key in Stripe's dashboard: the old one is refused from now on.
    world.stripe.addAccount({ secretKey: gone.secretKey.replace('sk_test_', 'sk_test_x') });
    (world.stripe as unknown as { accounts: Map<string, unknown> }).accounts.delete(gone.secretKey);
    problemOf(await checkout(basket.BasketToken, { Provider: 'stripe' }, third.operatorId), 502, 'payment-provider-refused');
    const after = await readBasket(basket.BasketToken, third.operatorId);
    expect(after).toMatchObject({ Status: 'open', Items: [{ Status: 'on_hold' }] });
  });
});

describe("Stripe's webhook", () => {
  it('completes the basket once when the guest pays, before the guest is back: online bookings confirmed, one order', async () => {
    const basket = await basketWith(2, '12:00');
    const { sessionId } = await awaitingPayment(basket.BasketToken);
    const row = await basketRow(basket.BasketToken);
    await world.stripe.pay(sessionId);
    const delivered = world.stripe.deliveries.at(-1)!;
    expect(delivered.status, delivered.body).toBe(200);
    expect(JSON.parse(delivered.body).data.Outcome).toBe('handled');
    // The guest never came back to the booking pages: the basket is paid all the same.
    const paid = await readBasket(basket.BasketToken);
    const intent = world.stripe.requireSession(sessionId).payment_intent;
    expect(paid).toMatchObject({
      Status: 'paid',
      PaymentReference: intent,
      Payment: { Status: 'succeeded', RedirectURL: null },
      Items: [{ Status: 'confirmed' }],
    });
    const booking = (await call(world.t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${basket.Items[0]!.BookingReference}`)).json().data;
    expect(booking).toMatchObject({ Status: 'confirmed', Source: 'online' });
    expect(await orderEntries(row.id)).toHaveLength(1);
    expect(await orderEvents(row.id)).toBe(1);
    const payments = await world.t.db.kysely.selectFrom('payments').selectAll().where('basket_id', '=', row.id).execute();
    expect(payments).toMatchObject([{ provider: 'stripe', status: 'succeeded', amount: 9000, currency: 'EUR', provider_reference: intent }]);
  });

  it('does nothing the second time: the same event again, or the async-payment event of the same session', async () => {
    const basket = await basketWith(1, '12:00');
    const { sessionId } = await awaitingPayment(basket.BasketToken);
    const row = await basketRow(basket.BasketToken);
    const event = await world.stripe.pay(sessionId);
    const again = await world.stripe.send(account, event);
    expect(again.status, again.body).toBe(200);
    expect(JSON.parse(again.body).data.Outcome).toBe('duplicate');
    const async = world.stripe.event('checkout.session.async_payment_succeeded', world.stripe.requireSession(sessionId));
    const second = await world.stripe.send(account, async);
    expect(second.status, second.body).toBe(200);
    expect(JSON.parse(second.body).data.Outcome).toBe('ignored');
    expect(await orderEntries(row.id)).toHaveLength(1);
    expect(await orderEvents(row.id)).toBe(1);
    expect((await readBasket(basket.BasketToken)).Status).toBe('paid');
  });

  it('refuses a missing or forged signature, or one made with another secret: 400, nothing written', async () => {
    const basket = await basketWith(1, '12:00');
    const { sessionId } = await awaitingPayment(basket.BasketToken);
    const event = await world.stripe.pay(sessionId, { send: false });
    const before = await eventCount();
    for (const options of [{ signature: 't=1,v1=00' }, { secret: otherAccount.webhookSecret }, { signature: '' }]) {
      const answer = await world.stripe.send(account, event, options);
      expect(answer.status, answer.body).toBe(400);
      expect(JSON.parse(answer.body).type).toBe(`${PUBLIC_URL}/problems/bad-request`);
    }
    const unsigned = await world.t.app.inject({
      method: 'POST',
      url: new URL(webhookUrl(op.operatorId)).pathname,
      payload: JSON.stringify(event),
      headers: { 'content-type': 'application/json' },
    });
    expect(unsigned.statusCode).toBe(400);
    expect(await eventCount()).toBe(before);
    expect((await readBasket(basket.BasketToken)).Status).toBe('awaiting_payment');
    // The genuine delivery still counts.
    expect((await world.stripe.send(account, event)).status).toBe(200);
    expect((await readBasket(basket.BasketToken)).Status).toBe('paid');
  });

  it("acknowledges and ignores an event of another operator's session, and one for no known basket", async () => {
    const basket = await basketWith(1, '12:00');
    const { sessionId } = await awaitingPayment(basket.BasketToken);
    const event = await world.stripe.pay(sessionId, { send: false });
    // Sent to the other operator's address, signed with its secret (its account sees another's session).
    const misrouted = await world.stripe.send(otherAccount, event);
    expect(misrouted.status, misrouted.body).toBe(200);
    expect(JSON.parse(misrouted.body).data.Outcome).toBe('ignored');
    // A session this operator never made, naming this operator.
    const stranger = world.stripe.event('checkout.session.completed', {
      ...world.stripe.requireSession(sessionId),
      id: 'cs_test_unknown',
      metadata: { slotbook_operator_id: String(op.operatorId), slotbook_basket_id: '999999', slotbook_payment_id: '999999' },
    });
    const unknown = await world.stripe.send(account, stranger);
    expect(unknown.status, unknown.body).toBe(200);
    expect(JSON.parse(unknown.body).data.Outcome).toBe('ignored');
    expect((await readBasket(basket.BasketToken)).Status).toBe('awaiting_payment');
    // An operator without Stripe has no address for events.
    const third = await world.t.newOperator();
    const nowhere = await world.stripe.send(account, event, { url: webhookUrl(third.operatorId) });
    expect(nowhere.status).toBe(400);
    expect((await world.stripe.send(account, event)).status).toBe(200);
    expect((await readBasket(basket.BasketToken)).Status).toBe('paid');
  });

  it('refunds in full, and confirms nothing, when the seats were taken after the hold lapsed', async () => {
    const small = await createTimeslot(world.t, op.adminKey, kayak, { Date: date, Time: '16:00', Capacity: 2 });
    const basket = await basketWith(2, '16:00');
    const { sessionId } = await awaitingPayment(basket.BasketToken);
    const row = await basketRow(basket.BasketToken);
    // The guest dawdles on Stripe's page: the hold lapses, and another guest takes both seats.
    await world.t.db.kysely
      .updateTable('bookings')
      .set({ hold_expires_at: addSeconds(unixNow(), -1) })
      .where('reference', '=', basket.Items[0]!.BookingReference)
      .execute();
    const rival = await basketWith(2, '16:00');
    expect(rival.Items[0]!.Status).toBe('on_hold');
    await world.stripe.pay(sessionId);
    expect(world.stripe.deliveries.at(-1)!.status).toBe(200);
    const refunds = [...world.stripe.refunds.values()].filter(
      (refund) => refund.payment_intent === world.stripe.requireSession(sessionId).payment_intent,
    );
    expect(refunds).toMatchObject([{ amount: 9000, status: 'succeeded' }]);
    const payment = await world.t.db.kysely.selectFrom('payments').selectAll().where('basket_id', '=', row.id).executeTakeFirstOrThrow();
    expect(payment).toMatchObject({ status: 'refunded', refund_reference: refunds[0]!.id });
    expect(await readBasket(basket.BasketToken)).toMatchObject({ Status: 'open', Payment: { Status: 'refunded' }, Items: [{ Status: 'expired' }] });
    expect(await orderEntries(row.id)).toHaveLength(0);
    // The rival's two seats, not four: nothing overbooked.
    expect((await getTimeslot(world.t, op.adminKey, small.ID)).Booked).toBe(2);
    // Stripe delivers it again: refunded once.
    await world.stripe.send(account, JSON.parse(world.stripe.deliveries.at(-1)!.payload));
    expect([...world.stripe.refunds.values()].filter((refund) => refund.payment_intent === refunds[0]!.payment_intent)).toHaveLength(1);
  });

  it('answers 502 when the refund fails, and refunds once when Stripe delivers the event again', async () => {
    const small = await createTimeslot(world.t, op.adminKey, kayak, { Date: date, Time: '17:00', Capacity: 1 });
    const basket = await basketWith(1, '17:00');
    const { sessionId } = await awaitingPayment(basket.BasketToken);
    const row = await basketRow(basket.BasketToken);
    await world.t.db.kysely
      .updateTable('bookings')
      .set({ hold_expires_at: addSeconds(unixNow(), -1) })
      .where('reference', '=', basket.Items[0]!.BookingReference)
      .execute();
    await basketWith(1, '17:00');
    // Stripe fails every try of the SDK (it retries twice with the same key).
    world.stripe.failNext('/v1/refunds', 3);
    const event = await world.stripe.pay(sessionId);
    const failed = world.stripe.deliveries.at(-1)!;
    expect(failed.status, failed.body).toBe(502);
    const pending = await world.t.db.kysely.selectFrom('payments').selectAll().where('basket_id', '=', row.id).executeTakeFirstOrThrow();
    expect(pending).toMatchObject({ status: 'refunding', refund_reference: null });
    // Stripe delivers it again (it retries what was not 2xx): the refund is made, once.
    const again = await world.stripe.send(account, event);
    expect(again.status, again.body).toBe(200);
    const intent = world.stripe.requireSession(sessionId).payment_intent;
    expect([...world.stripe.refunds.values()].filter((refund) => refund.payment_intent === intent)).toHaveLength(1);
    expect(await world.t.db.kysely.selectFrom('payments').selectAll().where('basket_id', '=', row.id).executeTakeFirstOrThrow()).toMatchObject({
      status: 'refunded',
    });
    expect((await getTimeslot(world.t, op.adminKey, small.ID)).Booked).toBe(1);
  });

  it('lets an expired session go without releasing anything early; the basket can be paid with a new session', async () => {
    const basket = await basketWith(1, '14:00');
    const { sessionId } = await awaitingPayment(basket.BasketToken);
    const expired = await world.stripe.expire(sessionId);
    expect(world.stripe.deliveries.at(-1)!.status).toBe(200);
    const after = await readBasket(basket.BasketToken);
    expect(after).toMatchObject({ Status: 'open', Payment: { Status: 'expired', RedirectURL: null }, Items: [{ Status: 'on_hold' }] });
    void expired;
    const next = await awaitingPayment(basket.BasketToken);
    expect(next.sessionId).not.toBe(sessionId);
    await world.stripe.pay(next.sessionId);
    expect((await readBasket(basket.BasketToken)).Status).toBe('paid');
  });
});

describe('the test provider', () => {
  it('still charges a shop in test mode, with Stripe connected', async () => {
    const response = await call(world.t.app, op.adminKey, 'PATCH', '/api/v2/admin/shop', { TestMode: true });
    expect(response.json().data.PaymentProvider).toBe('test');
    try {
      const basket = await basketWith(1, '14:00');
      const paid = await checkout(basket.BasketToken, GOOD_CARD);
      expect(paid.statusCode, paid.body).toBe(200);
      expect(paid.json().data).toMatchObject({ Status: 'paid', PaymentReference: expect.stringMatching(/^test_/) });
      expect(paid.json().data.Payment).toBeUndefined();
      problemOf(await checkout((await basketWith(1, '14:00')).BasketToken), 422, 'validation');
    } finally {
      await call(world.t.app, op.adminKey, 'PATCH', '/api/v2/admin/shop', { TestMode: false });
    }
  });
});
