// Deposits and balances (issue 25, item 3): an activity takes a deposit per booking (a percentage or a fixed
// amount); the shop charges each booking's deposit (test provider and Stripe's line items), the booking owes
// the rest; refunds never pass what it paid; the balance link is e-mailed once per booking within the
// activity's BalanceDueDays; the guest pays the balance on their booking page, through a Stripe Checkout
// Session made at the click and recorded paid by Stripe's signed webhook exactly once (or a test card).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, problemOf, type TestOperator } from '../helpers/app.js';
import type { StripeTestAccount } from '../helpers/stripe-server.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer } from '../emails/fixtures.js';
import { GOOD_CARD, openShop } from '../shop/fixtures.js';
import { connectStripe, stripeWorld, type StripeWorld } from './fixtures.js';
import { manageToken } from '../../src/storefront/manage.js';
import { sendBalanceLinks } from '../../src/flows/balance-links.js';
import { runDueEmails } from '../../src/emails/worker.js';
import { deliveryFor } from '../emails/fixtures.js';
import { startSmtp, type TestSmtp } from '../emails/smtp.js';

let world: StripeWorld;
let op: TestOperator;
let testShop: TestOperator;
let account: StripeTestAccount;
let smtp: TestSmtp;
const soon = dateFromToday(5);
const later = dateFromToday(40);

const shop = (operatorId: number) => `/api/v2/shop/${operatorId}`;
const admin = (key: string, method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => call(world.t.app, key, method, url, body);

async function activity(operator: TestOperator, body: Record<string, unknown>, dates = [soon, later]) {
  const made = await createActivity(world.t, operator.adminKey, body);
  for (const Date of dates) await createTimeslot(world.t, operator.adminKey, made.ActivityID, { Date, Time: '10:00', Capacity: 100 });
  return made.ActivityID;
}

/** A basket of one booking of `Participants` at `date`, begun; answers its token and the basket. */
async function basket(operator: TestOperator, ActivityID: string, Participants: number, date = soon) {
  const opened = await call(world.t.app, undefined, 'POST', `${shop(operator.operatorId)}/baskets`, { Customer: customer() });
  const token: string = opened.json().data.BasketToken;
  const added = await call(world.t.app, undefined, 'POST', `${shop(operator.operatorId)}/baskets/${token}/items`, {
    ActivityID,
    Date: date,
    Time: '10:00',
    Participants,
  });
  expect(added.statusCode, added.body).toBe(201);
  return { token, basket: added.json().data, reference: added.json().data.Items[0].BookingReference as string };
}

async function payWithStripe(operator: TestOperator, token: string) {
  const paid = await call(world.t.app, undefined, 'POST', `${shop(operator.operatorId)}/baskets/${token}/checkout`, {
    Payment: { Provider: 'stripe' },
  });
  expect(paid.statusCode, paid.body).toBe(200);
  const sessionId = paid.json().data.Payment.RedirectURL.split('/pay/')[1];
  await world.stripe.pay(sessionId);
  return sessionId as string;
}

const booking = async (operator: TestOperator, reference: string) => {
  const response = await admin(operator.adminKey, 'GET', `/api/v2/admin/bookings/${reference}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
};
const token = (operator: TestOperator, reference: string) => manageToken(world.t.app.instanceKeys, operator.operatorId, reference);
const payBalance = (operator: TestOperator, reference: string, body: object = {}) =>
  call(world.t.app, undefined, 'POST', `${shop(operator.operatorId)}/bookings/${token(operator, reference)}/balance`, body);

beforeAll(async () => {
  smtp = await startSmtp();
  world = await stripeWorld({ SMTP_URL: smtp.url });
  op = await world.t.newOperator();
  testShop = await world.t.newOperator();
  await openShop(world.t, op.adminKey);
  await openShop(world.t, testShop.adminKey);
  account = await connectStripe(world, op.operatorId, op.adminKey);
});
afterAll(async () => {
  await world.close();
  await smtp.close();
});

describe("an activity's deposit", () => {
  it('is pay in full by default; takes a percentage or a fixed amount in its currency, and refuses what cannot be', async () => {
    const made = await createActivity(world.t, op.adminKey, { Name: 'Plain' });
    const url = `/api/v2/admin/activities/${made.ActivityID}`;
    expect((await admin(op.adminKey, 'GET', url)).json().data).toMatchObject({ Deposit: null, BalanceDueDays: null });
    const percent = await admin(op.adminKey, 'PATCH', url, { Deposit: { Percent: 30 }, BalanceDueDays: 14 });
    expect(percent.statusCode, percent.body).toBe(200);
    expect((await admin(op.adminKey, 'GET', url)).json().data).toMatchObject({ Deposit: { Percent: 30 }, BalanceDueDays: 14 });
    expect((await admin(op.adminKey, 'PATCH', url, { Deposit: { Amount: '20.5' } })).json().data.Deposit).toEqual({ Amount: '20.50' });
    for (const Deposit of [{ Percent: 0 }, { Percent: 100 }, { Amount: '-1' }, { Percent: 10, Amount: '1' }]) {
      expect((await admin(op.adminKey, 'PATCH', url, { Deposit })).statusCode, JSON.stringify(Deposit)).toBe(422);
    }
    expect(problemOf(await admin(op.adminKey, 'PATCH', url, { Deposit: { Amount: '1.001' } }), 422, 'validation').errors?.[0]?.field).toBe(
      'Deposit.Amount',
    );
    expect(problemOf(await admin(op.adminKey, 'PATCH', url, { Deposit: { Amount: '0' } }), 422, 'validation').errors?.[0]?.field).toBe(
      'Deposit.Amount',
    );
    expect((await admin(op.adminKey, 'PATCH', url, { BalanceDueDays: 400 })).statusCode).toBe(422);
    const yen = await createActivity(world.t, op.adminKey, { Name: 'Yen', Currency: 'JPY', UnitPrice: 1500, Deposit: { Amount: '500' } });
    expect((await admin(op.adminKey, 'GET', `/api/v2/admin/activities/${yen.ActivityID}`)).json().data.Deposit).toEqual({ Amount: '500' });
    expect((await admin(op.adminKey, 'PATCH', url, { Deposit: null })).json().data).toMatchObject({ Deposit: null, BalanceDueDays: 14 });
  });
});

describe('the shop charges the deposit', () => {
  it('test provider: 30% of 90.00 now (27.00), the booking owes 63.00; refunds stop at 27.00; the desk takes the balance', async () => {
    const kayak = await activity(testShop, { Name: 'Kayak', UnitPrice: 4500, Deposit: { Percent: 30 } });
    const { token: basketToken, basket: opened, reference } = await basket(testShop, kayak, 2);
    expect(opened).toMatchObject({ Total: 9000, DueNow: 2700, Items: [{ Amount: 9000, Deposit: 2700 }] });
    await call(world.t.app, undefined, 'POST', `${shop(testShop.operatorId)}/baskets/${basketToken}/begin-checkout`);
    const paid = await call(world.t.app, undefined, 'POST', `${shop(testShop.operatorId)}/baskets/${basketToken}/checkout`, { Payment: GOOD_CARD });
    expect(paid.statusCode, paid.body).toBe(200);
    let read = await booking(testShop, reference);
    expect(read).toMatchObject({ Total: 9000, AmountPaid: 2700, AmountDue: 6300, PaymentState: 'part_paid' });
    expect(read.Payments).toEqual([expect.objectContaining({ AmountMinorUnits: 2700, Method: 'online', BookingOnly: false })]);
    const tooMuch = problemOf(
      await admin(testShop.adminKey, 'POST', `/api/v2/admin/bookings/${reference}/refund`, { Amount: '27.01' }),
      409,
      'conflict',
    );
    expect(tooMuch.detail).toContain('27.00 EUR');
    const atDoor = await admin(testShop.adminKey, 'POST', `/api/v2/admin/bookings/${reference}/payments`, { Method: 'cash' });
    expect(atDoor.json().data).toMatchObject({ Payment: { Amount: '63.00' }, AmountDue: 0, PaymentState: 'paid' });
    read = await booking(testShop, reference);
    expect(read).toMatchObject({ AmountPaid: 9000, AmountDue: 0 });
  });

  it("Stripe: each booking's line is its deposit (a fixed 20.00, JPY 30% whole yen); a fixed deposit above the price is the price", async () => {
    const fixed = await activity(op, { Name: 'Canoe', UnitPrice: 3000, Deposit: { Amount: '20.00' } });
    const first = await basket(op, fixed, 2);
    expect(first.basket).toMatchObject({ Total: 6000, DueNow: 2000 });
    const sessionId = await payWithStripe(op, first.token);
    const session = world.stripe.sessions.get(sessionId)!;
    expect(session.amount_total).toBe(2000);
    expect(JSON.stringify(session.line_items ?? session)).toContain('Deposit: Canoe');
    expect(await booking(op, first.reference)).toMatchObject({ AmountPaid: 2000, AmountDue: 4000, PaymentState: 'part_paid' });

    const tea = await activity(op, { Name: 'Tea', Currency: 'JPY', UnitPrice: 1500, Timezone: 'Asia/Tokyo', Deposit: { Percent: 30 } });
    const yen = await basket(op, tea, 1);
    expect(yen.basket).toMatchObject({ Total: 1500, DueNow: 450 });
    const yenSession = world.stripe.sessions.get(await payWithStripe(op, yen.token))!;
    expect(yenSession).toMatchObject({ amount_total: 450, currency: 'jpy' });
    expect(await booking(op, yen.reference)).toMatchObject({ AmountPaid: 450, AmountDue: 1050, Currency: 'JPY' });

    const small = await activity(op, { Name: 'Short walk', UnitPrice: 1000, Deposit: { Amount: '25.00' } });
    expect((await basket(op, small, 1)).basket).toMatchObject({ Total: 1000, DueNow: 1000, Items: [{ Deposit: null }] });
  });
});

describe('the balance', () => {
  it('is e-mailed once per booking within BalanceDueDays, never before, never for a booking paid in full', async () => {
    const rafting = await activity(op, { Name: 'Rafting', UnitPrice: 5000, Deposit: { Percent: 20 }, BalanceDueDays: 7 });
    const near = await basket(op, rafting, 1, soon);
    await payWithStripe(op, near.token);
    const far = await basket(op, rafting, 1, later);
    await payWithStripe(op, far.token);
    const emailsOf = (reference: string) =>
      world.t.db.kysely
        .selectFrom('emails')
        .innerJoin('bookings', 'bookings.id', 'emails.booking_id')
        .select(['emails.kind', 'emails.subject', 'emails.body', 'emails.to_address'])
        .where('bookings.reference', '=', reference)
        .where('emails.kind', '=', 'balance')
        .execute();
    await sendBalanceLinks(world.t.db);
    await sendBalanceLinks(world.t.db);
    const sent = await emailsOf(near.reference);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toContain('Balance due: Rafting');
    expect(sent[0]!.body).toContain('40.00 EUR');
    // The link is the guest's booking page, filled in when sent (never a Stripe address, never stored).
    expect(sent[0]!.body).toContain('{{ManageBookingUrl}}');
    expect(sent[0]!.body).not.toContain('stripe');
    expect(await emailsOf(far.reference)).toHaveLength(0);
    // As sent: the guest's booking page, with its capability token.
    const delivery = deliveryFor(world.t);
    await runDueEmails(world.t.db, delivery);
    delivery.mailer.close();
    const message = smtp.messages.find((m) => m.subject.startsWith('Balance due: Rafting'));
    expect(message?.text).toContain(`/manage/${token(op, near.reference)}`);
    expect(message?.text).not.toContain('{{ManageBookingUrl}}');
    // Paid in full at the desk before the job runs: handled without an e-mail.
    const paidFirst = await basket(op, rafting, 1, soon);
    await payWithStripe(op, paidFirst.token);
    await admin(op.adminKey, 'POST', `/api/v2/admin/bookings/${paidFirst.reference}/payments`, { Method: 'cash' });
    await sendBalanceLinks(world.t.db);
    expect(await emailsOf(paidFirst.reference)).toHaveLength(0);
  });

  it("is paid on the guest's page through a session made at the click, recorded once though the event comes twice", async () => {
    const zip = await activity(op, { Name: 'Zipline', UnitPrice: 4000, Deposit: { Percent: 25 }, BalanceDueDays: 30 });
    const { token: basketToken, reference } = await basket(op, zip, 2);
    await payWithStripe(op, basketToken);
    const page = await call(world.t.app, undefined, 'GET', `${shop(op.operatorId)}/bookings/${token(op, reference)}`);
    expect(page.json().data.Balance).toEqual({ AmountPaid: 2000, AmountDue: 6000 });
    const sessionsBefore = world.stripe.sessions.size;
    const first = await payBalance(op, reference);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({ Status: 'awaiting_payment', AmountDue: 6000, Currency: 'EUR' });
    const again = await payBalance(op, reference);
    expect(again.json().data.RedirectURL).toBe(first.json().data.RedirectURL);
    expect(world.stripe.sessions.size).toBe(sessionsBefore + 1);
    const sessionId = first.json().data.RedirectURL.split('/pay/')[1];
    const session = world.stripe.sessions.get(sessionId)!;
    expect(session).toMatchObject({ amount_total: 6000, currency: 'eur', metadata: { slotbook_kind: 'balance' } });
    expect(String(session.success_url)).toContain(`/manage/${token(op, reference)}`);

    const event = await world.stripe.pay(sessionId, { send: false });
    expect((await world.stripe.send(account, event)).status).toBe(200);
    const twice = await world.stripe.send(account, event);
    expect(twice.status).toBe(200);
    expect(twice.body).toContain('duplicate');
    const read = await booking(op, reference);
    expect(read).toMatchObject({ AmountPaid: 8000, AmountDue: 0, PaymentState: 'paid' });
    const balances = read.Payments.filter((p: { BookingOnly: boolean; Status: string }) => p.BookingOnly && p.Status === 'succeeded');
    expect(balances).toEqual([expect.objectContaining({ AmountMinorUnits: 6000, Provider: 'stripe', Method: 'online' })]);
    expect(balances[0].ProviderReference).toMatch(/^pi_/);
    expect(problemOf(await payBalance(op, reference), 409, 'conflict').detail).toMatch(/Nothing is due/);
  });

  it('paid at the desk while the guest was on Stripe: the late balance is refunded in full, never kept', async () => {
    const zip = await activity(op, { Name: 'Cave', UnitPrice: 4000, Deposit: { Percent: 50 } });
    const { token: basketToken, reference } = await basket(op, zip, 1);
    await payWithStripe(op, basketToken);
    const started = await payBalance(op, reference);
    const sessionId = started.json().data.RedirectURL.split('/pay/')[1];
    await admin(op.adminKey, 'POST', `/api/v2/admin/bookings/${reference}/payments`, { Method: 'cash' });
    await world.stripe.pay(sessionId);
    const read = await booking(op, reference);
    expect(read).toMatchObject({ AmountPaid: 4000, AmountDue: 0, PaymentState: 'paid' });
    expect(read.Payments.find((p: { Provider: string; BookingOnly: boolean }) => p.Provider === 'stripe' && p.BookingOnly)).toMatchObject({
      Status: 'refunded',
    });
    expect(
      [...world.stripe.refunds.values()].filter((r) => (r.metadata as Record<string, string>).slotbook_payment_id !== undefined).length,
    ).toBeGreaterThan(0);
  });

  it("Stripe down at the click: 502 and nothing charged, the next click works; an expired session, another operator's event change nothing", async () => {
    const bikes = await activity(op, { Name: 'Bikes', UnitPrice: 3000, Deposit: { Percent: 10 } });
    const { token: basketToken, reference } = await basket(op, bikes, 1);
    await payWithStripe(op, basketToken);
    world.stripe.failNext('/v1/checkout/sessions', 3);
    expect(problemOf(await payBalance(op, reference), 502, 'payment-provider-unavailable')).toBeTruthy();
    expect(await booking(op, reference)).toMatchObject({ AmountPaid: 300, AmountDue: 2700 });
    const started = await payBalance(op, reference);
    expect(started.statusCode, started.body).toBe(200);
    const sessionId = started.json().data.RedirectURL.split('/pay/')[1];

    // Another operator's account sends an event for this session to its own address: ignored there.
    const other = await world.t.newOperator();
    await openShop(world.t, other.adminKey);
    const otherAccount = await connectStripe(world, other.operatorId, other.adminKey);
    const paid = await world.stripe.pay(sessionId, { send: false });
    const foreign = await world.stripe.send(otherAccount, paid);
    expect(foreign.status).toBe(200);
    expect(foreign.body).toContain('ignored');
    expect(await booking(op, reference)).toMatchObject({ AmountDue: 2700 });

    // The session lapses unpaid (a fresh one, as the first is paid on the local server now).
    const again = await payBalance(op, reference);
    expect(again.json().data.RedirectURL).toBe(started.json().data.RedirectURL);
    const expired = world.stripe.event('checkout.session.expired', { ...world.stripe.sessions.get(sessionId)!, status: 'expired' });
    expect((await world.stripe.send(account, expired)).status).toBe(200);
    const read = await booking(op, reference);
    expect(read.Payments.filter((p: { BookingOnly: boolean }) => p.BookingOnly).map((p: { Status: string }) => p.Status)).toEqual([
      'expired',
      'expired',
    ]);
    expect(read).toMatchObject({ AmountDue: 2700, PaymentState: 'part_paid' });
  });

  it('with the test provider: a test card pays it at once; a declined card or none is 422; another booking link 404', async () => {
    const walk = await activity(testShop, { Name: 'Walk', UnitPrice: 2000, Deposit: { Amount: '5' } });
    const { token: basketToken, reference } = await basket(testShop, walk, 1);
    await call(world.t.app, undefined, 'POST', `${shop(testShop.operatorId)}/baskets/${basketToken}/begin-checkout`);
    expect(
      (await call(world.t.app, undefined, 'POST', `${shop(testShop.operatorId)}/baskets/${basketToken}/checkout`, { Payment: GOOD_CARD })).statusCode,
    ).toBe(200);
    expect(problemOf(await payBalance(testShop, reference), 422, 'validation').errors?.[0]?.field).toBe('CardNumber');
    expect(problemOf(await payBalance(testShop, reference, { CardNumber: '4000000000000002' }), 422, 'validation').errors?.[0]?.field).toBe(
      'CardNumber',
    );
    const paid = await payBalance(testShop, reference, { CardNumber: '4242424242424242' });
    expect(paid.json().data).toMatchObject({ Status: 'paid', AmountDue: 0 });
    expect(await booking(testShop, reference)).toMatchObject({ AmountPaid: 2000, AmountDue: 0, PaymentState: 'paid' });
    const forged = `${reference}_${'0'.repeat(32)}`;
    expect((await call(world.t.app, undefined, 'POST', `${shop(testShop.operatorId)}/bookings/${forged}/balance`, {})).statusCode).toBe(404);
  });
});
