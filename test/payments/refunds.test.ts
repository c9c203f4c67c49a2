// Refunds by staff (issue 25, item 4): POST /api/v2/admin/bookings/{ref}/refund refunds a booking's share
// of its basket's payment, in part or all that remains, never more, also when two requests race; through
// Stripe after the commit with the key slotbook-refund-{id} (a failure leaves it failed, 502, retried with
// the same key), the test provider at once; Stripe's refund events move its status.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, problemOf, type TestOperator } from '../helpers/app.js';
import type { StripeTestAccount } from '../helpers/stripe-server.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer } from '../emails/fixtures.js';
import { GOOD_CARD, openShop } from '../shop/fixtures.js';
import { addUser, as, signIn } from '../staff/fixtures.js';
import { connectStripe, stripeWorld, type StripeWorld } from './fixtures.js';
import { manageToken } from '../../src/storefront/manage.js';
import { sendPendingRefunds } from '../../src/payments/jobs.js';

let world: StripeWorld;
let op: TestOperator;
let account: StripeTestAccount;
let testShop: TestOperator;
let kayak: string;
let tea: string;
let testKayak: string;
let canoe: string;
let testCanoe: string;
const date = dateFromToday(15);

const shop = (operatorId: number) => `/api/v2/shop/${operatorId}`;
const refundUrl = (reference: string) => `/api/v2/admin/bookings/${reference}/refund`;
const refund = (reference: string, body: object = {}, key = op.adminKey) => call(world.t.app, key, 'POST', refundUrl(reference), body);

/** A basket of `items` (participants each), checked out with `payment`; answers its bookings' references. */
async function paidBasket(operator: TestOperator, ActivityID: string, items: number[], payment: 'stripe' | 'test' = 'stripe'): Promise<string[]> {
  const opened = await call(world.t.app, undefined, 'POST', `${shop(operator.operatorId)}/baskets`, { Customer: customer() });
  expect(opened.statusCode, opened.body).toBe(201);
  const token: string = opened.json().data.BasketToken;
  const times = ['10:00', '12:00'];
  for (const [index, Participants] of items.entries()) {
    const added = await call(world.t.app, undefined, 'POST', `${shop(operator.operatorId)}/baskets/${token}/items`, {
      ActivityID,
      Date: date,
      Time: times[index],
      Participants,
    });
    expect(added.statusCode, added.body).toBe(201);
  }
  const paid = await call(world.t.app, undefined, 'POST', `${shop(operator.operatorId)}/baskets/${token}/checkout`, {
    Payment: payment === 'stripe' ? { Provider: 'stripe' } : GOOD_CARD,
  });
  expect(paid.statusCode, paid.body).toBe(200);
  if (payment === 'stripe') {
    await world.stripe.pay(paid.json().data.Payment.RedirectURL.split('/pay/')[1]);
  }
  const basket = (await call(world.t.app, undefined, 'GET', `${shop(operator.operatorId)}/baskets/${token}`)).json().data;
  expect(basket.Status).toBe('paid');
  return basket.Items.map((item: { BookingReference: string }) => item.BookingReference);
}

const refundRows = (reference: string) =>
  world.t.db.kysely
    .selectFrom('refunds')
    .innerJoin('bookings', 'bookings.id', 'refunds.booking_id')
    .selectAll('refunds')
    .where('bookings.reference', '=', reference)
    .orderBy('refunds.id')
    .execute();
const stripeRefundsOf = (refundId: number) =>
  [...world.stripe.refunds.values()].filter((r) => (r.metadata as Record<string, string>).slotbook_refund_id === String(refundId));

beforeAll(async () => {
  world = await stripeWorld();
  op = await world.t.newOperator();
  testShop = await world.t.newOperator();
  await openShop(world.t, op.adminKey);
  await openShop(world.t, testShop.adminKey);
  account = await connectStripe(world, op.operatorId, op.adminKey);
  kayak = (await createActivity(world.t, op.adminKey, { Name: 'Kayak', UnitPrice: 4500, Currency: 'EUR' })).ActivityID;
  tea = (await createActivity(world.t, op.adminKey, { Name: 'Tea', UnitPrice: 1500, Currency: 'JPY' })).ActivityID;
  testKayak = (await createActivity(world.t, testShop.adminKey, { Name: 'Kayak', UnitPrice: 2000, Currency: 'EUR' })).ActivityID;
  canoe = (await createActivity(world.t, op.adminKey, { Name: 'Canoe', UnitPrice: 3000, Currency: 'EUR', GuestCancelHours: 24 })).ActivityID;
  testCanoe = (await createActivity(world.t, testShop.adminKey, { Name: 'Canoe', UnitPrice: 3000, Currency: 'EUR', GuestCancelHours: 24 }))
    .ActivityID;
  for (const Time of ['10:00', '12:00']) {
    await createTimeslot(world.t, op.adminKey, canoe, { Date: date, Time, Capacity: 200 });
    await createTimeslot(world.t, testShop.adminKey, testCanoe, { Date: date, Time, Capacity: 200 });
    await createTimeslot(world.t, op.adminKey, kayak, { Date: date, Time, Capacity: 200 });
    await createTimeslot(world.t, op.adminKey, tea, { Date: date, Time, Capacity: 200 });
    await createTimeslot(world.t, testShop.adminKey, testKayak, { Date: date, Time, Capacity: 200 });
  }
});
afterAll(() => world.close());

describe('refunding a booking through Stripe', () => {
  it('refunds part, then all that remains of the booking share (not the whole basket), then nothing more (409)', async () => {
    // Two bookings in one basket: 2 x 45.00 and 1 x 45.00, one payment of 135.00.
    const [first, second] = await paidBasket(op, kayak, [2, 1]);
    const part = await refund(first!, { Amount: '12.50' });
    expect(part.statusCode, part.body).toBe(201);
    const made = part.json().data[0];
    expect(made).toMatchObject({
      BookingReference: first,
      Amount: '12.50',
      AmountMinorUnits: 1250,
      Currency: 'EUR',
      Provider: 'stripe',
      Status: 'succeeded',
      RequestedBy: 'key',
      Reason: 'staff',
    });
    expect(made.ProviderReference).toMatch(/^re_/);
    const sent = world.stripe.requests.filter((r) => r.path === '/v1/refunds' && r.idempotencyKey === `slotbook-refund-${made.RefundID}`);
    expect(sent).toHaveLength(1);
    expect(world.stripe.refunds.get(made.ProviderReference)).toMatchObject({ amount: 1250, currency: 'eur' });

    const rest = await refund(first!);
    expect(rest.statusCode, rest.body).toBe(201);
    expect(rest.json().data[0]).toMatchObject({ Amount: '77.50', AmountMinorUnits: 7750 });

    const none = problemOf(await refund(first!), 409, 'conflict');
    expect(none.detail).toMatch(/nothing left/);
    expect(none.errors?.[0]?.field).toBe('Amount');
    // The other booking of the basket still has its own share.
    const tooMuch = problemOf(await refund(second!, { Amount: '45.01' }), 409, 'conflict');
    expect(tooMuch.errors?.[0]?.field).toBe('Amount');
    expect(tooMuch.detail).toContain('45.00 EUR');
    expect((await refund(second!, { Amount: '45' })).statusCode).toBe(201);
    expect((await refundRows(first!)).map((row) => Number(row.amount))).toEqual([1250, 7750]);
  });

  it('never refunds more than the share when two requests race (parallel)', async () => {
    const [reference] = await paidBasket(op, kayak, [1]);
    const answers = await Promise.all(Array.from({ length: 6 }, () => refund(reference!, { Amount: '20.00' })));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([201, 201, 409, 409, 409, 409]);
    const rows = await refundRows(reference!);
    expect(rows.reduce((sum, row) => sum + Number(row.amount), 0)).toBe(4000);
    const fulls = await Promise.all([refund(reference!), refund(reference!), refund(reference!)]);
    expect(fulls.map((answer) => answer.statusCode).sort()).toEqual([201, 409, 409]);
    expect((await refundRows(reference!)).reduce((sum, row) => sum + Number(row.amount), 0)).toBe(4500);
  });

  it('reads Amount in the currency: whole yen for JPY; 422 for a bad amount', async () => {
    const [reference] = await paidBasket(op, tea, [2]);
    expect(problemOf(await refund(reference!, { Amount: '10.5' }), 422, 'validation').errors?.[0]?.field).toBe('Amount');
    for (const Amount of ['abc', '-5', '1e3', '']) {
      const answer = await refund(reference!, { Amount });
      expect(answer.statusCode, `${Amount}: ${answer.body}`).toBe(422);
    }
    expect(problemOf(await refund(reference!, { Amount: '0' }), 422, 'validation').errors?.[0]?.field).toBe('Amount');
    const made = await refund(reference!, { Amount: '1000' });
    expect(made.json().data[0]).toMatchObject({ Amount: '1000', AmountMinorUnits: 1000, Currency: 'JPY' });
    expect(problemOf(await refund(reference!, { Amount: '2001' }), 409, 'conflict').detail).toContain('2000 JPY');
  });

  it('leaves a refund Stripe fails as failed (502), and retries it with the same key', async () => {
    const [reference] = await paidBasket(op, kayak, [1]);
    world.stripe.failNext('/v1/refunds', 3);
    const failed = problemOf(await refund(reference!, { Amount: '10.00' }), 502, 'payment-provider-unavailable');
    const [row] = await refundRows(reference!);
    expect(row).toMatchObject({ status: 'failed', provider_reference: null });
    expect(failed.detail).toContain(`/refunds/${row!.id}/retry`);
    // A failed refund keeps nothing back: another refund may take the whole share meanwhile, and the retry is then refused.
    const retried = await call(world.t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${reference}/refunds/${row!.id}/retry`);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().data).toMatchObject({ RefundID: row!.id, Status: 'succeeded', Amount: '10.00' });
    const keys = world.stripe.requests.filter((r) => r.path === '/v1/refunds').map((r) => r.idempotencyKey);
    expect(keys.filter((key) => key === `slotbook-refund-${row!.id}`).length).toBeGreaterThanOrEqual(2);
    expect(new Set(keys.filter((key) => key === `slotbook-refund-${row!.id}`))).toEqual(new Set([`slotbook-refund-${row!.id}`]));
    expect(stripeRefundsOf(row!.id)).toHaveLength(1);
    // Retrying a succeeded refund answers it as it is, asking nothing.
    const before = world.stripe.requests.length;
    const again = await call(world.t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${reference}/refunds/${row!.id}/retry`);
    expect(again.json().data.Status).toBe('succeeded');
    expect(world.stripe.requests.length).toBe(before);
  });

  it('refuses to retry a failed refund once the rest was refunded another way (409)', async () => {
    const [reference] = await paidBasket(op, kayak, [1]);
    world.stripe.failNext('/v1/refunds', 3);
    problemOf(await refund(reference!, { Amount: '10.00' }), 502, 'payment-provider-unavailable');
    const [failed] = await refundRows(reference!);
    expect((await refund(reference!)).json().data[0].Amount).toBe('45.00');
    problemOf(await call(world.t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${reference}/refunds/${failed!.id}/retry`), 409, 'conflict');
  });

  it("follows Stripe's refund events: pending -> succeeded, pending -> failed; deduplicated; another operator's ignored", async () => {
    const [reference] = await paidBasket(op, kayak, [2]);
    world.stripe.refundStatus = 'pending';
    try {
      const first = (await refund(reference!, { Amount: '5.00' })).json().data[0];
      const second = (await refund(reference!, { Amount: '6.00' })).json().data[0];
      expect([first.Status, second.Status]).toEqual(['pending', 'pending']);
      const stripeRefund = world.stripe.refunds.get(first.ProviderReference)!;
      const succeeded = world.stripe.event('refund.updated', { ...stripeRefund, status: 'succeeded' });
      expect((await world.stripe.send(account, succeeded)).status).toBe(200);
      const duplicate = await world.stripe.send(account, succeeded);
      expect(duplicate.body).toContain('duplicate');
      // charge.refunded lists the charge's refunds.
      const otherRefund = world.stripe.refunds.get(second.ProviderReference)!;
      const charge = world.stripe.event('charge.refunded', {
        id: otherRefund.charge,
        object: 'charge',
        refunds: { object: 'list', data: [{ ...otherRefund, status: 'failed', failure_reason: 'expired_or_canceled_card' }] },
      });
      expect((await world.stripe.send(account, charge)).status).toBe(200);
      const rows = await refundRows(reference!);
      expect(rows.map((row) => [row.status, row.failure])).toEqual([
        ['succeeded', null],
        ['failed', 'expired_or_canceled_card'],
      ]);
      // Another operator's account cannot move this operator's refund.
      const stranger = await world.t.newOperator();
      const strangerAccount = await connectStripe(world, stranger.operatorId, stranger.adminKey);
      const third = (await refund(reference!, { Amount: '1.00' })).json().data[0];
      const forged = world.stripe.event('refund.updated', { ...world.stripe.refunds.get(third.ProviderReference)!, status: 'succeeded' });
      const ignored = await world.stripe.send(strangerAccount, forged);
      expect(ignored.status).toBe(200);
      expect(ignored.body).toContain('ignored');
      expect((await refundRows(reference!))[2]!.status).toBe('pending');
    } finally {
      world.stripe.refundStatus = 'succeeded';
    }
  });

  it('writes an audit entry naming the refund', async () => {
    const [reference] = await paidBasket(op, kayak, [1]);
    const made = (await refund(reference!, { Amount: '1.00' })).json().data[0];
    const entries = await world.t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('operator_id', '=', op.operatorId)
      .where('action', '=', 'booking.refund')
      .where('resource_id', '=', reference!)
      .execute();
    expect(entries).toHaveLength(1);
    expect(JSON.parse(entries[0]!.after_json!)).toMatchObject({ RefundID: made.RefundID, Amount: '1.00' });
  });
});

describe("the operator's booking answer", () => {
  it('lists the payments of its basket and its refunds, with AmountPaid (its share) and AmountRefunded (succeeded only)', async () => {
    const [reference] = await paidBasket(op, kayak, [2, 1]);
    expect((await refund(reference!, { Amount: '10.00' })).statusCode).toBe(201);
    world.stripe.failNext('/v1/refunds', 3);
    expect((await refund(reference!, { Amount: '5.00' })).statusCode).toBe(502);
    const answer = await call(world.t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${reference}`);
    expect(answer.statusCode, answer.body).toBe(200);
    const booking = answer.json().data;
    expect(booking).toMatchObject({ BookingReference: reference, Total: 9000, AmountPaid: 9000, AmountRefunded: 1000 });
    expect(booking.Payments).toEqual([
      expect.objectContaining({ Amount: '135.00', AmountMinorUnits: 13500, Currency: 'EUR', Provider: 'stripe', Status: 'succeeded' }),
    ]);
    expect(booking.Payments[0].ProviderReference).toMatch(/^pi_/);
    expect(booking.Refunds.map((r: { Amount: string; Status: string }) => [r.Amount, r.Status])).toEqual([
      ['10.00', 'succeeded'],
      ['5.00', 'failed'],
    ]);
    // A desk booking paid nothing online.
    const pos = await call(world.t.app, op.adminKey, 'POST', '/api/v2/admin/bookings', {
      ActivityID: kayak,
      Date: date,
      Time: '12:00',
      Participants: 1,
      Customer: customer(),
    });
    const desk = (await call(world.t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${pos.json().data.BookingReference}`)).json().data;
    expect(desk).toMatchObject({ Payments: [], Refunds: [], AmountPaid: 0, AmountRefunded: 0 });
    // The list and the partner API answer bookings as before.
    const listed = (await call(world.t.app, op.adminKey, 'GET', `/api/v2/admin/bookings?Search=${reference}`)).json().data[0];
    expect(listed.Payments).toBeUndefined();
  });
});

describe('who may refund what', () => {
  it('refunds a booking paid by the test provider at once, without Stripe', async () => {
    const [reference] = await paidBasket(testShop, testKayak, [2], 'test');
    const before = world.stripe.requests.length;
    const made = await call(world.t.app, testShop.adminKey, 'POST', refundUrl(reference!), {});
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().data[0]).toMatchObject({ Provider: 'test', Status: 'succeeded', Amount: '40.00' });
    expect(made.json().data[0].ProviderReference).toMatch(/^test_refund_/);
    expect(world.stripe.requests.length).toBe(before);
  });

  it("answers 404 for another operator's booking and an unknown one, 409 for a booking not paid online", async () => {
    const [reference] = await paidBasket(op, kayak, [1]);
    problemOf(await refund(reference!, {}, testShop.adminKey), 404, 'not-found');
    problemOf(await refund('BK-ABCDEFGH'), 404, 'not-found');
    expect(await refundRows(reference!)).toHaveLength(0);
    const pos = await call(world.t.app, op.adminKey, 'POST', '/api/v2/admin/bookings', {
      ActivityID: kayak,
      Date: date,
      Time: '10:00',
      Participants: 1,
      Customer: customer(),
    });
    expect(pos.statusCode, pos.body).toBe(201);
    problemOf(await refund(pos.json().data.BookingReference), 409, 'conflict');
  });

  it('is for owners and admin keys: managers, the front desk and partner keys are refused (403)', async () => {
    const [reference] = await paidBasket(op, kayak, [1]);
    for (const role of ['manager', 'front-desk'] as const) {
      const session = await signIn(world.t, (await addUser(world.t, op.operatorId, role)).email);
      problemOf(await as(world.t, session, 'POST', refundUrl(reference!), {}), 403, 'forbidden');
    }
    problemOf(await refund(reference!, {}, op.otaKey), 403, 'forbidden');
    const owner = await signIn(world.t, (await addUser(world.t, op.operatorId, 'owner')).email);
    const made = await as(world.t, owner, 'POST', refundUrl(reference!), {});
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().data[0].RequestedBy).toBe('user');
  });
});

describe("a guest's cancellation within the activity's rule", () => {
  const cancelAsGuest = (operator: TestOperator, reference: string) =>
    call(
      world.t.app,
      undefined,
      'POST',
      `${shop(operator.operatorId)}/bookings/${manageToken(world.t.app.instanceKeys, operator.operatorId, reference)}/cancel`,
    );

  it('refunds all that remains of the booking share through Stripe, right after the cancellation', async () => {
    const [first, second] = await paidBasket(op, canoe, [2, 1]);
    expect((await refund(first!, { Amount: '10.00' })).statusCode).toBe(201);
    const cancelled = await cancelAsGuest(op, first!);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const rows = await refundRows(first!);
    expect(rows.map((row) => [Number(row.amount), row.status, row.reason, row.requested_by_type])).toEqual([
      [1000, 'succeeded', 'staff', 'key'],
      [5000, 'succeeded', 'guest-cancellation', 'guest'],
    ]);
    expect(world.stripe.refunds.get(rows[1]!.provider_reference!)).toMatchObject({ amount: 5000 });
    expect(stripeRefundsOf(rows[1]!.id)).toHaveLength(1);
    // The other booking of the basket keeps its money; nothing is left for the job to send.
    expect(await refundRows(second!)).toHaveLength(0);
    expect(await sendPendingRefunds(world.t.db, world.t.app.instanceKeys, world.t.app.config)).toBe(0);
  });

  it('refunds at once with the test provider', async () => {
    const [reference] = await paidBasket(testShop, testCanoe, [1], 'test');
    expect((await cancelAsGuest(testShop, reference!)).statusCode).toBe(200);
    const [row] = await refundRows(reference!);
    expect(row).toMatchObject({ status: 'succeeded', reason: 'guest-cancellation', requested_by_type: 'guest' });
    expect(Number(row!.amount)).toBe(3000);
    const entries = await world.t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'booking.refund')
      .where('resource_id', '=', reference!)
      .execute();
    expect(entries.map((entry) => [entry.actor_type, entry.actor_label])).toEqual([['anonymous', 'guest (manage link)']]);
  });

  it('leaves a refund Stripe could not take failed, for staff to retry', async () => {
    const [reference] = await paidBasket(op, canoe, [1]);
    world.stripe.failNext('/v1/refunds', 3);
    expect((await cancelAsGuest(op, reference!)).statusCode).toBe(200);
    const [row] = await refundRows(reference!);
    expect(row).toMatchObject({ status: 'failed', reason: 'guest-cancellation' });
    const retried = await call(world.t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${reference}/refunds/${row!.id}/retry`);
    expect(retried.json().data).toMatchObject({ Status: 'succeeded', Amount: '30.00' });
  });

  it('sends a refund left pending (a process stopped before asking Stripe) from the job', async () => {
    const [reference] = await paidBasket(op, canoe, [1]);
    // As if the process stopped between the commit and the call: a pending refund Stripe never saw.
    world.stripe.failNext('/v1/refunds', 3);
    expect((await cancelAsGuest(op, reference!)).statusCode).toBe(200);
    const [row] = await refundRows(reference!);
    await world.t.db.kysely.updateTable('refunds').set({ status: 'pending', failure: null }).where('id', '=', row!.id).execute();
    expect(await sendPendingRefunds(world.t.db, world.t.app.instanceKeys, world.t.app.config, op.operatorId)).toBe(1);
    expect((await refundRows(reference!))[0]).toMatchObject({ status: 'succeeded' });
    expect(stripeRefundsOf(row!.id)).toHaveLength(1);
  });

  it('refunds nothing when the operator cancels (the operator decides with the refund endpoint)', async () => {
    const [reference] = await paidBasket(op, canoe, [1]);
    expect((await call(world.t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${reference}/cancel`)).statusCode).toBe(200);
    expect(await refundRows(reference!)).toHaveLength(0);
    expect((await refund(reference!)).json().data[0]).toMatchObject({ Amount: '30.00', Status: 'succeeded' });
  });

  it('refunds nothing for a booking not paid online, and nothing outside the rule (the guest cannot cancel then)', async () => {
    const [reference] = await paidBasket(op, kayak, [1]);
    // Kayak lets no guest cancel: 409, and no refund.
    expect((await cancelAsGuest(op, reference!)).statusCode).toBe(409);
    expect(await refundRows(reference!)).toHaveLength(0);
  });
});
