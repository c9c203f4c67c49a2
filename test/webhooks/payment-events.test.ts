// The webhook events of money moving (issue 25, item 7): payment.succeeded when a payment takes money
// (Stripe's webhook, the test provider's checkout) and payment.refunded when a refund succeeds (at once,
// or when Stripe's event says so), with ids and amounts only, never the basket's token; none where nothing
// moved (a declined card, an expired session, a pending or failed refund, an event delivered twice). Both
// are in the catalogue and the OpenAPI document's webhooks section.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, type TestOperator } from '../helpers/app.js';
import type { StripeTestAccount } from '../helpers/stripe-server.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer } from '../emails/fixtures.js';
import { DECLINED_CARD, GOOD_CARD, openShop } from '../shop/fixtures.js';
import { connectStripe, stripeWorld, type StripeWorld } from '../payments/fixtures.js';
import { addEndpoint, deliveryDeps, flush } from './fixtures.js';
import { startReceiver, type Receiver } from './receiver.js';
import type { DeliveryDeps } from '../../src/webhooks/deliveries/deliver.js';

let world: StripeWorld;
let op: TestOperator;
let testShop: TestOperator;
let account: StripeTestAccount;
let receiver: Receiver;
let testReceiver: Receiver;
let deps: DeliveryDeps;
let kayak: string;
let testKayak: string;
const date = dateFromToday(14);

const shop = (operatorId: number) => `/api/v2/shop/${operatorId}`;
const deliverAll = () => flush(world.t, deps);
const money = (receiver: Receiver) => receiver.received.map((r) => r.event).filter((e) => e.type.startsWith('payment.'));

/** A basket of one booking per entry of `items`, checked out with `payment`; answers its token, references and the Stripe event. */
async function basket(operator: TestOperator, ActivityID: string, items: number[], payment: object) {
  const opened = await call(world.t.app, undefined, 'POST', `${shop(operator.operatorId)}/baskets`, { Customer: customer() });
  const token: string = opened.json().data.BasketToken;
  for (const [index, Participants] of items.entries()) {
    const added = await call(world.t.app, undefined, 'POST', `${shop(operator.operatorId)}/baskets/${token}/items`, {
      ActivityID,
      Date: date,
      Time: ['10:00', '12:00'][index],
      Participants,
    });
    expect(added.statusCode, added.body).toBe(201);
  }
  const checkout = await call(world.t.app, undefined, 'POST', `${shop(operator.operatorId)}/baskets/${token}/checkout`, { Payment: payment });
  return { token, checkout };
}

async function stripeBasket(items: number[]) {
  const { token, checkout } = await basket(op, kayak, items, { Provider: 'stripe' });
  expect(checkout.statusCode, checkout.body).toBe(200);
  const sessionId: string = checkout.json().data.Payment.RedirectURL.split('/pay/')[1];
  const event = await world.stripe.pay(sessionId);
  const paid = (await call(world.t.app, undefined, 'GET', `${shop(op.operatorId)}/baskets/${token}`)).json().data;
  expect(paid.Status).toBe('paid');
  const paymentIntent = (event.data as { object: { payment_intent: string } }).object.payment_intent;
  return { token, event, paymentIntent, references: paid.Items.map((item: { BookingReference: string }) => item.BookingReference) as string[] };
}

beforeAll(async () => {
  world = await stripeWorld();
  op = await world.t.newOperator('Fjord Kayaks');
  testShop = await world.t.newOperator('Test Tours');
  await openShop(world.t, op.adminKey);
  await openShop(world.t, testShop.adminKey);
  account = await connectStripe(world, op.operatorId, op.adminKey);
  receiver = await startReceiver();
  testReceiver = await startReceiver();
  receiver.secrets = [(await addEndpoint(world.t, op.adminKey, { URL: receiver.url, EventTypes: ['*'] })).Secret];
  testReceiver.secrets = [
    (await addEndpoint(world.t, testShop.adminKey, { URL: testReceiver.url, EventTypes: ['payment.succeeded', 'payment.refunded'] })).Secret,
  ];
  deps = deliveryDeps(world.t);
  kayak = (await createActivity(world.t, op.adminKey, { Name: 'Kayak', UnitPrice: 4500, Currency: 'EUR' })).ActivityID;
  testKayak = (await createActivity(world.t, testShop.adminKey, { Name: 'Tea', UnitPrice: 1500, Currency: 'JPY' })).ActivityID;
  for (const Time of ['10:00', '12:00']) {
    await createTimeslot(world.t, op.adminKey, kayak, { Date: date, Time, Capacity: 100 });
    await createTimeslot(world.t, testShop.adminKey, testKayak, { Date: date, Time, Capacity: 100 });
  }
});
afterAll(async () => {
  await world.close();
  await receiver.close();
  await testReceiver.close();
});
beforeEach(async () => {
  await deliverAll();
  receiver.clear();
  testReceiver.clear();
  world.stripe.refundStatus = 'succeeded';
});

describe('payment.succeeded', () => {
  it("is sent once when Stripe's webhook completes a basket, with ids and amounts, never the basket token", async () => {
    const { token, event, paymentIntent, references } = await stripeBasket([2, 1]);
    // Stripe delivers the same event again: nothing more.
    expect(JSON.parse((await world.stripe.send(account, event)).body).data.Outcome).toBe('duplicate');
    await deliverAll();
    const sent = money(receiver);
    expect(sent.map((e) => e.type)).toEqual(['payment.succeeded']);
    expect(sent[0]!.data).toEqual({
      PaymentID: expect.any(Number),
      Amount: '135.00',
      AmountMinorUnits: 13500,
      Currency: 'EUR',
      Provider: 'stripe',
      ProviderReference: paymentIntent,
      BookingReferences: references,
      SucceededAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    const booking = (await call(world.t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${references[0]}`)).json().data;
    expect(booking.Payments[0].PaymentID).toBe(sent[0]!.data.PaymentID);
    for (const r of receiver.received) expect(r.body).not.toContain(token);
    // Delivered after the order it paid (order.completed) in the same change: both there.
    expect(receiver.received.map((r) => r.event.type)).toContain('order.completed');
  });

  it("is sent by the test provider's checkout (JPY), and not for a declined card", async () => {
    const declined = await basket(testShop, testKayak, [1], DECLINED_CARD);
    expect(declined.checkout.statusCode).toBe(422);
    const paid = await basket(testShop, testKayak, [3], GOOD_CARD);
    expect(paid.checkout.statusCode, paid.checkout.body).toBe(200);
    await deliverAll();
    const sent = money(testReceiver);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.data).toMatchObject({
      Amount: '4500',
      AmountMinorUnits: 4500,
      Currency: 'JPY',
      Provider: 'test',
      ProviderReference: expect.stringMatching(/^test_/),
      BookingReferences: [paid.checkout.json().data.Items[0].BookingReference],
    });
    // Subscribed to the payment events only: nothing else reached it.
    expect(testReceiver.received.map((r) => r.event.type)).toEqual(['payment.succeeded']);
  });

  it('is not sent for a session that expired unpaid', async () => {
    const { checkout } = await basket(op, kayak, [1], { Provider: 'stripe' });
    await world.stripe.expire(checkout.json().data.Payment.RedirectURL.split('/pay/')[1]);
    await deliverAll();
    expect(money(receiver)).toEqual([]);
  });
});

describe('payment.refunded', () => {
  it('is sent when a refund succeeds at once, with the refund, its payment and the booking', async () => {
    const { paymentIntent, references } = await stripeBasket([2, 1]);
    const refund = await call(world.t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${references[1]}/refund`, { Amount: '12.50' });
    expect(refund.statusCode, refund.body).toBe(201);
    await deliverAll();
    const [succeeded, refunded, ...rest] = money(receiver);
    expect(rest).toEqual([]);
    expect(succeeded!.type).toBe('payment.succeeded');
    expect(refunded).toMatchObject({ type: 'payment.refunded' });
    expect(refunded!.data).toEqual({
      RefundID: refund.json().data[0].RefundID,
      PaymentID: succeeded!.data.PaymentID,
      Amount: '12.50',
      AmountMinorUnits: 1250,
      Currency: 'EUR',
      Provider: 'stripe',
      ProviderReference: refund.json().data[0].ProviderReference,
      PaymentProviderReference: paymentIntent,
      BookingReferences: [references[1]],
      Reason: 'staff',
      SucceededAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
  });

  it("waits for Stripe's word on a pending refund, and is never sent for a failed one", async () => {
    const { references } = await stripeBasket([1]);
    await deliverAll();
    receiver.clear();
    world.stripe.refundStatus = 'pending';
    const pending = await call(world.t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${references[0]}/refund`, { Amount: '5.00' });
    expect(pending.json().data[0].Status).toBe('pending');
    await deliverAll();
    expect(money(receiver)).toEqual([]);
    const stripeRefund = world.stripe.refunds.get(pending.json().data[0].ProviderReference)!;
    const update = world.stripe.event('refund.updated', { ...stripeRefund, status: 'succeeded' });
    expect(JSON.parse((await world.stripe.send(account, update)).body).data.Outcome).toBe('handled');
    expect(JSON.parse((await world.stripe.send(account, update)).body).data.Outcome).toBe('duplicate');
    await deliverAll();
    expect(money(receiver).map((e) => [e.type, e.data.Amount])).toEqual([['payment.refunded', '5.00']]);

    receiver.clear();
    world.stripe.failNext('/v1/refunds', 3);
    const failed = await call(world.t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${references[0]}/refund`, { Amount: '1.00' });
    expect(failed.statusCode).toBe(502);
    await deliverAll();
    expect(money(receiver)).toEqual([]);
  });

  it("is sent by the test provider's refund at once", async () => {
    const paid = await basket(testShop, testKayak, [2], GOOD_CARD);
    const reference = paid.checkout.json().data.Items[0].BookingReference;
    const refund = await call(world.t.app, testShop.adminKey, 'POST', `/api/v2/admin/bookings/${reference}/refund`, {});
    expect(refund.statusCode, refund.body).toBe(201);
    await deliverAll();
    expect(money(testReceiver).map((e) => [e.type, e.data.Amount, e.data.Provider, e.data.BookingReferences])).toEqual([
      ['payment.succeeded', '3000', 'test', [reference]],
      ['payment.refunded', '3000', 'test', [reference]],
    ]);
  });
});

describe('the catalogue and the OpenAPI document', () => {
  it('lists both events with their payload schemas', async () => {
    const listed = (await call(world.t.app, op.adminKey, 'GET', '/api/v2/admin/webhooks/event-types')).json().data;
    expect(listed.filter((type: { Type: string }) => type.Type.startsWith('payment.'))).toEqual([
      { Type: 'payment.succeeded', Description: expect.stringContaining('took money'), OptIn: false, Marketplaces: false },
      { Type: 'payment.refunded', Description: expect.stringContaining('refund'), OptIn: false, Marketplaces: false },
    ]);
    const document = (await world.t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const body = (type: string) => document.webhooks[type].post.requestBody.content['application/json'].schema;
    expect(Object.keys(body('payment.succeeded').properties.data.properties)).toEqual([
      'PaymentID',
      'Amount',
      'AmountMinorUnits',
      'Currency',
      'Provider',
      'ProviderReference',
      'BookingReferences',
      'SucceededAt',
    ]);
    expect(body('payment.refunded').properties.data.properties).toHaveProperty('PaymentProviderReference');
    expect(JSON.stringify(document.webhooks['payment.succeeded'])).not.toContain('BasketToken');
  });
});
