// Refunds by the rules (issue 25, item 4): an activity's GuestRefundRules say what a guest's own
// cancellation gets back by how long before the start it comes; the booking pages show the rules before
// paying (the storefront's GuestCancellation), the manage page says what cancelling now gives back, and
// the cancellation refunds exactly that, through Stripe or the test provider.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, problemOf, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer } from '../emails/fixtures.js';
import { GOOD_CARD, openShop } from '../shop/fixtures.js';
import { connectStripe, stripeWorld, type StripeWorld } from './fixtures.js';
import { manageToken } from '../../src/storefront/manage.js';
import { refundAmount, refundPercent } from '../../src/catalog/refund-rules.js';
import { addSeconds, asUnixSeconds } from '../../src/lib/clock.js';

let world: StripeWorld;
let op: TestOperator;
let testShop: TestOperator;
// 15 days ahead: about 350 to 370 hours before the start, whatever the time of day and zone.
const date = dateFromToday(15);
const RULES = [
  { HoursBefore: 240, Percent: 50 },
  { HoursBefore: 720, Percent: 100 },
];

const shop = (operatorId: number) => `/api/v2/shop/${operatorId}`;
const manageUrl = (operator: TestOperator, reference: string) =>
  `${shop(operator.operatorId)}/bookings/${manageToken(world.t.app.instanceKeys, operator.operatorId, reference)}`;
const refundRows = (reference: string) =>
  world.t.db.kysely
    .selectFrom('refunds')
    .innerJoin('bookings', 'bookings.id', 'refunds.booking_id')
    .select(['refunds.amount', 'refunds.status', 'refunds.reason'])
    .where('bookings.reference', '=', reference)
    .orderBy('refunds.id')
    .execute();

async function newActivity(operator: TestOperator, body: Record<string, unknown>) {
  const activity = await createActivity(world.t, operator.adminKey, { Name: 'Canoe', Currency: 'EUR', GuestCancelHours: 24, ...body });
  await createTimeslot(world.t, operator.adminKey, activity.ActivityID, { Date: date, Time: '10:00', Capacity: 50 });
  return activity.ActivityID;
}

/** One booking of `participants` on the activity, paid with Stripe or the test provider; its reference. */
async function paidBooking(operator: TestOperator, ActivityID: string, participants: number, payment: 'stripe' | 'test'): Promise<string> {
  const opened = await call(world.t.app, undefined, 'POST', `${shop(operator.operatorId)}/baskets`, { Customer: customer() });
  const token: string = opened.json().data.BasketToken;
  const added = await call(world.t.app, undefined, 'POST', `${shop(operator.operatorId)}/baskets/${token}/items`, {
    ActivityID,
    Date: date,
    Time: '10:00',
    Participants: participants,
  });
  expect(added.statusCode, added.body).toBe(201);
  const paid = await call(world.t.app, undefined, 'POST', `${shop(operator.operatorId)}/baskets/${token}/checkout`, {
    Payment: payment === 'stripe' ? { Provider: 'stripe' } : GOOD_CARD,
  });
  expect(paid.statusCode, paid.body).toBe(200);
  if (payment === 'stripe') await world.stripe.pay(paid.json().data.Payment.RedirectURL.split('/pay/')[1]);
  const basket = (await call(world.t.app, undefined, 'GET', `${shop(operator.operatorId)}/baskets/${token}`)).json().data;
  expect(basket.Status).toBe('paid');
  return basket.Items[0].BookingReference;
}

beforeAll(async () => {
  world = await stripeWorld();
  op = await world.t.newOperator();
  testShop = await world.t.newOperator();
  await openShop(world.t, op.adminKey);
  await openShop(world.t, testShop.adminKey);
  await connectStripe(world, op.operatorId, op.adminKey);
});
afterAll(() => world.close());

describe('the rules', () => {
  it('apply the rule with the largest HoursBefore the cancellation still comes before; none after them all; no rules: all', () => {
    const rules = [
      { HoursBefore: 48, Percent: 100 },
      { HoursBefore: 24, Percent: 50 },
    ];
    const start = asUnixSeconds(1_000_000);
    expect(refundPercent(rules, start, addSeconds(start, -(48 * 3600)))).toBe(100);
    expect(refundPercent(rules, start, addSeconds(start, -48 * 3600 + 1))).toBe(50);
    expect(refundPercent(rules, start, addSeconds(start, -(24 * 3600)))).toBe(50);
    expect(refundPercent(rules, start, addSeconds(start, -24 * 3600 + 1))).toBe(0);
    expect(refundPercent([], start, addSeconds(start, -1))).toBe(100);
    // Half a cent rounds up; what went back before counts; never below nothing.
    expect(refundAmount(3333, 0, 50)).toBe(1667);
    expect(refundAmount(6000, 1000, 50)).toBe(2000);
    expect(refundAmount(6000, 4000, 50)).toBe(0);
  });

  it('are kept largest HoursBefore first, shown with the activity and to guests before they pay', async () => {
    const created = await call(world.t.app, op.adminKey, 'POST', '/api/v2/admin/activities', {
      Name: 'Rules',
      DurationMinutes: 60,
      Timezone: 'Europe/Berlin',
      Currency: 'EUR',
      UnitPrice: 1000,
      GuestCancelHours: 12,
      GuestRefundRules: RULES,
    });
    expect(created.statusCode, created.body).toBe(201);
    const sorted = [RULES[1], RULES[0]];
    expect(created.json().data.GuestRefundRules).toEqual(sorted);
    const id = created.json().data.ActivityID;
    const read = await call(world.t.app, op.adminKey, 'GET', `/api/v2/admin/activities/${id}`);
    expect(read.json().data.GuestRefundRules).toEqual(sorted);
    const storefront = await call(world.t.app, undefined, 'GET', `/api/v2/shop/${op.operatorId}/storefront`);
    const shown = storefront.json().data.Activities.find((activity: { ActivityID: string }) => activity.ActivityID === id);
    expect(shown.GuestCancellation).toEqual({ HoursBefore: 12, Refunds: sorted });

    const cleared = await call(world.t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${id}`, { GuestRefundRules: [] });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().data.GuestRefundRules).toEqual([]);
    // An activity made before the rules has none: everything back, as before.
    const plain = await createActivity(world.t, op.adminKey, { Name: 'Plain' });
    expect((await call(world.t.app, op.adminKey, 'GET', `/api/v2/admin/activities/${plain.ActivityID}`)).json().data.GuestRefundRules).toEqual([]);
  });

  it('refuses a moment named twice, a percentage over 100, negative hours and more than 10 rules (422, nothing changed)', async () => {
    const id = await newActivity(op, { GuestRefundRules: RULES });
    const patch = (GuestRefundRules: unknown) => call(world.t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${id}`, { GuestRefundRules });
    const twice = problemOf(
      await patch([
        { HoursBefore: 24, Percent: 50 },
        { HoursBefore: 24, Percent: 20 },
      ]),
      422,
      'validation',
    );
    expect(twice.errors?.[0]?.field).toBe('GuestRefundRules');
    expect(problemOf(await patch([{ HoursBefore: 24, Percent: 101 }]), 422, 'validation').errors?.[0]?.field).toMatch(/^GuestRefundRules/);
    expect(problemOf(await patch([{ HoursBefore: -1, Percent: 10 }]), 422, 'validation').errors?.[0]?.field).toMatch(/^GuestRefundRules/);
    const many = Array.from({ length: 11 }, (_, i) => ({ HoursBefore: i, Percent: 10 }));
    expect(problemOf(await patch(many), 422, 'validation').errors?.[0]?.field).toMatch(/^GuestRefundRules/);
    expect((await call(world.t.app, op.adminKey, 'GET', `/api/v2/admin/activities/${id}`)).json().data.GuestRefundRules).toEqual([
      RULES[1],
      RULES[0],
    ]);
  });
});

describe("a guest's cancellation by the rules", () => {
  it('says on the manage page what cancelling now gives back, then refunds exactly that through Stripe', async () => {
    const canoe = await newActivity(op, { UnitPrice: 3000, GuestRefundRules: RULES });
    const reference = await paidBooking(op, canoe, 2, 'stripe');
    // Staff gave 10.00 back already: half of 60.00 is 30.00, less the 10.00, is 20.00.
    expect((await call(world.t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${reference}/refund`, { Amount: '10.00' })).statusCode).toBe(201);
    const before = (await call(world.t.app, undefined, 'GET', manageUrl(op, reference))).json().data;
    expect(before.Cancellation).toMatchObject({ Allowed: true, RefundPercent: 50, Refund: 2000 });
    const cancelled = await call(world.t.app, undefined, 'POST', `${manageUrl(op, reference)}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const rows = await refundRows(reference);
    expect(rows.map((row) => [Number(row.amount), row.status, row.reason])).toEqual([
      [1000, 'succeeded', 'staff'],
      [2000, 'succeeded', 'guest-cancellation'],
    ]);
    const sent = [...world.stripe.refunds.values()].filter((refund) => refund.amount === 2000);
    expect(sent).toHaveLength(1);
    // Cancelled: the page no longer offers a refund.
    expect(cancelled.json().data.Cancellation).toMatchObject({ Allowed: false, RefundPercent: null, Refund: null });
  });

  it('rounds to the nearest minor unit with the test provider', async () => {
    const odd = await newActivity(testShop, { UnitPrice: 3333, GuestRefundRules: RULES });
    const reference = await paidBooking(testShop, odd, 1, 'test');
    expect((await call(world.t.app, undefined, 'GET', manageUrl(testShop, reference))).json().data.Cancellation.Refund).toBe(1667);
    expect((await call(world.t.app, undefined, 'POST', `${manageUrl(testShop, reference)}/cancel`)).statusCode).toBe(200);
    expect((await refundRows(reference)).map((row) => [Number(row.amount), row.status])).toEqual([[1667, 'succeeded']]);
  });

  it('refunds nothing once the cancellation comes after every rule (the guest is told before cancelling)', async () => {
    const late = await newActivity(testShop, { UnitPrice: 2000, GuestRefundRules: [{ HoursBefore: 720, Percent: 100 }] });
    const reference = await paidBooking(testShop, late, 1, 'test');
    expect((await call(world.t.app, undefined, 'GET', manageUrl(testShop, reference))).json().data.Cancellation).toMatchObject({
      Allowed: true,
      RefundPercent: 0,
      Refund: 0,
    });
    const cancelled = await call(world.t.app, undefined, 'POST', `${manageUrl(testShop, reference)}/cancel`);
    expect(cancelled.json().data.Status).toBe('cancelled');
    expect(await refundRows(reference)).toEqual([]);
  });

  it('refunds everything paid when the activity has no rules, and says so', async () => {
    const all = await newActivity(testShop, { UnitPrice: 2500 });
    const reference = await paidBooking(testShop, all, 2, 'test');
    expect((await call(world.t.app, undefined, 'GET', manageUrl(testShop, reference))).json().data.Cancellation).toMatchObject({
      RefundPercent: 100,
      Refund: 5000,
    });
    await call(world.t.app, undefined, 'POST', `${manageUrl(testShop, reference)}/cancel`);
    expect((await refundRows(reference)).map((row) => Number(row.amount))).toEqual([5000]);
  });
});
