// What a booking paid, refunded and owes is one computation (payments/ledger.ts) that every refund path
// uses: a booking paid in two Stripe payments (a deposit and its balance) is refunded across both by the
// departure's cancellation, by staff and by the guest's own cancellation; a refund still pending at Stripe
// counts, so a move cheaper, back and cheaper again refunds the difference once and asks for it back once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, problemOf, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer } from '../emails/fixtures.js';
import { GOOD_CARD, openShop } from '../shop/fixtures.js';
import { connectStripe, stripeWorld, type StripeWorld } from './fixtures.js';
import { manageToken } from '../../src/storefront/manage.js';

let world: StripeWorld;
let op: TestOperator;

const date = dateFromToday(20);

const shop = () => `/api/v2/shop/${op.operatorId}`;
const admin = (method: 'GET' | 'POST', url: string, body?: unknown) => call(world.t.app, op.adminKey, method, url, body);
const token = (reference: string) => manageToken(world.t.app.instanceKeys, op.operatorId, reference);

interface Money {
  Status: string;
  Total: number;
  AmountPaid: number;
  AmountRefunded: number;
  AmountRefundable: number;
  AmountDue: number;
  PaymentState: string;
  Refunds: { AmountMinorUnits: number; Reason: string; Status: string }[];
}
const booking = async (reference: string): Promise<Money> => {
  const response = await admin('GET', `/api/v2/admin/bookings/${reference}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
};

async function activity(body: Record<string, unknown>) {
  const made = await createActivity(world.t, op.adminKey, { UnitPrice: 4500, ...body });
  const slot = await createTimeslot(world.t, op.adminKey, made.ActivityID, { Date: date, Time: '10:00', Capacity: 50 });
  await createTimeslot(world.t, op.adminKey, made.ActivityID, { Date: date, Time: '14:00', Capacity: 50 });
  return { id: made.ActivityID, slot: slot.ID };
}

/** A booking of `Participants` bought in the shop through Stripe: its reference. */
async function boughtWithStripe(ActivityID: string, Participants: number): Promise<string> {
  const opened = await call(world.t.app, undefined, 'POST', `${shop()}/baskets`, { Customer: customer() });
  const basketToken: string = opened.json().data.BasketToken;
  const added = await call(world.t.app, undefined, 'POST', `${shop()}/baskets/${basketToken}/items`, {
    ActivityID,
    Date: date,
    Time: '10:00',
    Participants,
  });
  expect(added.statusCode, added.body).toBe(201);
  const paid = await call(world.t.app, undefined, 'POST', `${shop()}/baskets/${basketToken}/checkout`, { Payment: { Provider: 'stripe' } });
  expect(paid.statusCode, paid.body).toBe(200);
  await world.stripe.pay(paid.json().data.Payment.RedirectURL.split('/pay/')[1]);
  return added.json().data.Items[0].BookingReference;
}

/** A booking of 90.00 (two people at 45.00) that paid a 30% deposit (27.00) and then its balance (63.00), both through Stripe. */
async function paidInTwo(ActivityID: string): Promise<string> {
  const reference = await boughtWithStripe(ActivityID, 2);
  const started = await call(world.t.app, undefined, 'POST', `${shop()}/bookings/${token(reference)}/balance`, {});
  expect(started.statusCode, started.body).toBe(200);
  await world.stripe.pay(started.json().data.RedirectURL.split('/pay/')[1]);
  expect(await booking(reference)).toMatchObject({ Total: 9000, AmountPaid: 9000, AmountDue: 0, AmountRefundable: 9000, PaymentState: 'paid' });
  return reference;
}

/** What Stripe was asked to refund, per PaymentIntent. */
function refundedAtStripe(): Map<string, number> {
  const sums = new Map<string, number>();
  for (const refund of world.stripe.refunds.values()) {
    const intent = String(refund.payment_intent);
    sums.set(intent, (sums.get(intent) ?? 0) + Number(refund.amount));
  }
  return sums;
}

beforeAll(async () => {
  world = await stripeWorld();
  op = await world.t.newOperator();
  await openShop(world.t, op.adminKey);
  await connectStripe(world, op.operatorId, op.adminKey);
});
afterAll(async () => {
  await world.close();
});

describe('a booking paid in a deposit and a balance', () => {
  it("is refunded in full by its departure's cancellation, across both payments", async () => {
    const { id, slot } = await activity({ Name: 'Glacier walk', Deposit: { Percent: 30 }, BalanceDueDays: 30 });
    const reference = await paidInTwo(id);
    const before = refundedAtStripe();
    const cancelled = await admin('POST', `/api/v2/admin/timeslots/${slot}/cancel`, { Message: 'The glacier is closed today.' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const read = await booking(reference);
    expect(read).toMatchObject({ Status: 'cancelled', AmountPaid: 9000, AmountRefunded: 9000, AmountRefundable: 0, PaymentState: 'refunded' });
    expect(read.Refunds.map((refund) => [refund.AmountMinorUnits, refund.Reason])).toEqual([
      [2700, 'departure-cancelled'],
      [6300, 'departure-cancelled'],
    ]);
    const asked = [...refundedAtStripe()].filter(([intent, sum]) => sum !== (before.get(intent) ?? 0));
    expect(asked.map(([, sum]) => sum).sort()).toEqual([2700, 6300]);
  });

  it('is refunded by staff up to all it paid, the oldest payment first; then nothing is left (409)', async () => {
    const { id } = await activity({ Name: 'Canyon', Deposit: { Percent: 30 } });
    const reference = await paidInTwo(id);
    const part = await admin('POST', `/api/v2/admin/bookings/${reference}/refund`, { Amount: '30.00' });
    expect(part.statusCode, part.body).toBe(201);
    expect(part.json().data.map((refund: { AmountMinorUnits: number }) => refund.AmountMinorUnits)).toEqual([2700, 300]);
    const rest = await admin('POST', `/api/v2/admin/bookings/${reference}/refund`, {});
    expect(rest.json().data.map((refund: { AmountMinorUnits: number }) => refund.AmountMinorUnits)).toEqual([6000]);
    expect(await booking(reference)).toMatchObject({ AmountRefunded: 9000, AmountRefundable: 0, PaymentState: 'refunded' });
    expect((await admin('POST', `/api/v2/admin/bookings/${reference}/refund`, { Amount: '0.01' })).statusCode).toBe(409);
  });

  it('is offered and given back all it paid when the guest cancels it themselves', async () => {
    const { id } = await activity({ Name: 'Cave dive', Deposit: { Percent: 30 }, GuestCancelHours: 24 });
    const reference = await paidInTwo(id);
    const page = await call(world.t.app, undefined, 'GET', `${shop()}/bookings/${token(reference)}`);
    expect(page.json().data.Cancellation).toMatchObject({ Allowed: true, RefundPercent: 100, Refund: 9000 });
    const cancelled = await call(world.t.app, undefined, 'POST', `${shop()}/bookings/${token(reference)}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await booking(reference)).toMatchObject({ Status: 'cancelled', AmountRefunded: 9000, AmountRefundable: 0 });
  });
});

describe('a refund still pending at Stripe', () => {
  it('counts: a move cheaper, back and cheaper again refunds the difference once and asks it back once', async () => {
    const dear = await activity({ Name: 'Harbour cruise', UnitPrice: 2200 });
    const cheap = await activity({ Name: 'Harbour walk', UnitPrice: 1520 });
    const reference = await boughtWithStripe(dear.id, 1);
    world.stripe.refundStatus = 'pending';
    try {
      const move = async (ActivityID: string) => {
        const moved = await admin('POST', `/api/v2/admin/bookings/${reference}/reschedule`, { ActivityID, Date: date, Time: '10:00' });
        expect(moved.statusCode, moved.body).toBe(200);
        return booking(reference);
      };
      expect(await move(cheap.id)).toMatchObject({ Total: 1520, AmountRefunded: 680, AmountDue: 0, AmountRefundable: 1520 });
      const back = await move(dear.id);
      expect(back).toMatchObject({ Total: 2200, AmountPaid: 2200, AmountRefunded: 680, AmountDue: 680 });
      const page = await call(world.t.app, undefined, 'GET', `${shop()}/bookings/${token(reference)}`);
      expect(page.json().data.Balance).toEqual({ AmountPaid: 1520, AmountDue: 680 });
      const again = await move(cheap.id);
      expect(again).toMatchObject({ Total: 1520, AmountRefunded: 680, AmountDue: 0 });
      expect(again.Refunds.map((refund) => [refund.AmountMinorUnits, refund.Reason, refund.Status])).toEqual([[680, 'price-difference', 'pending']]);
      expect([...refundedAtStripe().values()].reduce((sum, amount) => sum + amount, 0)).toBeGreaterThanOrEqual(680);
    } finally {
      world.stripe.refundStatus = 'succeeded';
    }
  });
});

describe("a balance paid through the guest's link", () => {
  it('waits after repeated declines like a checkout: 429 with Retry-After, per booking and per address', async () => {
    const testShop = await world.t.newOperator();
    await openShop(world.t, testShop.adminKey);
    const made = await createActivity(world.t, testShop.adminKey, { Name: 'Rope park', UnitPrice: 3000, Deposit: { Amount: '5' } });
    await createTimeslot(world.t, testShop.adminKey, made.ActivityID, { Date: date, Time: '10:00', Capacity: 20 });
    const base = `/api/v2/shop/${testShop.operatorId}`;
    const bought = async () => {
      const opened = await call(world.t.app, undefined, 'POST', `${base}/baskets`, { Customer: customer() });
      const basketToken: string = opened.json().data.BasketToken;
      const added = await call(world.t.app, undefined, 'POST', `${base}/baskets/${basketToken}/items`, {
        ActivityID: made.ActivityID,
        Date: date,
        Time: '10:00',
        Participants: 1,
      });
      const paid = await call(world.t.app, undefined, 'POST', `${base}/baskets/${basketToken}/checkout`, { Payment: GOOD_CARD });
      expect(paid.statusCode, paid.body).toBe(200);
      return added.json().data.Items[0].BookingReference as string;
    };
    const pay = (reference: string, CardNumber: string, remoteAddress: string) =>
      world.t.app.inject({
        method: 'POST',
        url: `${base}/bookings/${manageToken(world.t.app.instanceKeys, testShop.operatorId, reference)}/balance`,
        payload: { CardNumber },
        remoteAddress,
      });
    const first = await bought();
    const DECLINED = '4000000000000002';
    for (let attempt = 0; attempt < 3; attempt++) expect((await pay(first, DECLINED, '198.51.100.7')).statusCode).toBe(422);
    const waiting = await pay(first, GOOD_CARD.CardNumber, '198.51.100.7');
    expect(problemOf(waiting, 429, 'too-many-declines').detail).toMatch(/wait/);
    expect(Number(waiting.headers['retry-after'])).toBeGreaterThan(0);
    // The booking's count holds from another address too; another booking from a fresh address pays.
    expect((await pay(first, GOOD_CARD.CardNumber, '198.51.100.8')).statusCode).toBe(429);
    const second = await bought();
    expect((await pay(second, GOOD_CARD.CardNumber, '198.51.100.9')).statusCode).toBe(200);
    // ... but not from the address that was declined three times.
    const third = await bought();
    expect((await pay(third, GOOD_CARD.CardNumber, '198.51.100.7')).statusCode).toBe(429);
  });
});

describe("Stripe's minimum charge and its refusals", () => {
  /** A basket of one booking of `Participants` at `ActivityID`, checked out through Stripe: the raw answer. */
  async function stripeCheckout(ActivityID: string, Participants = 1) {
    const opened = await call(world.t.app, undefined, 'POST', `${shop()}/baskets`, { Customer: customer() });
    const basketToken: string = opened.json().data.BasketToken;
    const added = await call(world.t.app, undefined, 'POST', `${shop()}/baskets/${basketToken}/items`, {
      ActivityID,
      Date: date,
      Time: '10:00',
      Participants,
    });
    expect(added.statusCode, added.body).toBe(201);
    return {
      added: added.json().data,
      answer: await call(world.t.app, undefined, 'POST', `${shop()}/baskets/${basketToken}/checkout`, { Payment: { Provider: 'stripe' } }),
    };
  }

  it('refuses a basket below it with a 422 naming Payment, before Stripe is asked (no retry loop)', async () => {
    const sticker = await activity({ Name: 'Sticker', UnitPrice: 30 });
    const sessions = world.stripe.sessions.size;
    const { answer } = await stripeCheckout(sticker.id);
    const problem = problemOf(answer, 422, 'validation');
    expect(problem.errors?.[0]?.field).toBe('Payment');
    expect(problem.detail).toContain('0.50 EUR');
    expect(world.stripe.sessions.size).toBe(sessions);
  });

  it('makes a percentage deposit below it no deposit (paid in full), and refuses a fixed one below it', async () => {
    const cheap = await activity({ Name: 'Pier pass', UnitPrice: 400, Deposit: { Percent: 10 } });
    const { added, answer } = await stripeCheckout(cheap.id);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(added.Total).toBe(400);
    expect(world.stripe.sessions.get(answer.json().data.Payment.RedirectURL.split('/pay/')[1])).toMatchObject({ amount_total: 400 });
    const refused = await admin('POST', '/api/v2/admin/activities', {
      Name: 'Tiny deposit',
      DurationMinutes: 60,
      Timezone: 'Europe/Berlin',
      Currency: 'EUR',
      UnitPrice: 4500,
      Deposit: { Amount: '0.20' },
    });
    const problem = problemOf(refused, 422, 'validation');
    expect(problem.errors?.[0]).toMatchObject({ field: 'Deposit.Amount' });
    expect(problem.detail).toContain('0.50 EUR');
  });

  it('tells Stripe refusing the session (4xx: do not retry) from Stripe failing (5xx: try again)', async () => {
    const { id } = await activity({ Name: 'Paddle board' });
    world.stripe.failNext('/v1/checkout/sessions', 1, 400);
    const refused = problemOf((await stripeCheckout(id)).answer, 502, 'payment-provider-refused');
    expect(refused.detail).toMatch(/will not help/);
    world.stripe.failNext('/v1/checkout/sessions', 3, 500);
    const failing = problemOf((await stripeCheckout(id)).answer, 502, 'payment-provider-unavailable');
    expect(failing.detail).toMatch(/Try again in a moment/);
  });
});

describe("an online booking's payment references", () => {
  it("read as its PaymentReference and are found by the bookings list's Search (pi_ and cs_)", async () => {
    const { id } = await activity({ Name: 'Lighthouse' });
    const reference = await boughtWithStripe(id, 1);
    const read = (await admin('GET', `/api/v2/admin/bookings/${reference}`)).json().data;
    expect(read.PaymentReference).toMatch(/^pi_/);
    const session = [...world.stripe.sessions.values()].find((candidate) => candidate.payment_intent === read.PaymentReference)!;
    for (const term of [read.PaymentReference, String(session.id), String(read.PaymentReference).slice(3, 15).toUpperCase()]) {
      const found = await admin('GET', `/api/v2/admin/bookings?Search=${encodeURIComponent(term)}`);
      expect(found.statusCode, found.body).toBe(200);
      expect(found.json().data.map((booking: { BookingReference: string }) => booking.BookingReference)).toEqual([reference]);
      expect(found.json().data[0].PaymentReference).toBe(read.PaymentReference);
    }
  });

  it("sends a move's price-difference refund to Stripe at once, as staff's and guests' refunds are", async () => {
    const dear = await activity({ Name: 'Sea safari', UnitPrice: 6000 });
    const cheap = await activity({ Name: 'Bay safari', UnitPrice: 4000 });
    const reference = await boughtWithStripe(dear.id, 1);
    const asked = world.stripe.requests.filter((request) => request.path === '/v1/refunds').length;
    const moved = await admin('POST', `/api/v2/admin/bookings/${reference}/reschedule`, { ActivityID: cheap.id, Date: date, Time: '10:00' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(world.stripe.requests.filter((request) => request.path === '/v1/refunds').length).toBe(asked + 1);
    const read = await booking(reference);
    expect(read.Refunds).toEqual([expect.objectContaining({ AmountMinorUnits: 2000, Reason: 'price-difference', Status: 'succeeded' })]);
  });
});
