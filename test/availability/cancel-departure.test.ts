// Cancelling a departure (issue 26, item 2): POST /api/v2/admin/timeslots/{ID}/cancel cancels every live
// booking of the timeslot (every channel, holds too), refunds in full what was paid online (the test
// provider at once, Stripe right after the commit), e-mails each guest the operator's message with a link
// to book again, closes the timeslot on every channel, and answers the same list when called again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, problemOf, PUBLIC_URL, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday, getTimeslot, type AdminTimeslot } from './fixtures.js';
import { customer } from '../emails/fixtures.js';
import { GOOD_CARD, openShop } from '../shop/fixtures.js';
import { connectStripe, stripeWorld, type StripeWorld } from '../payments/fixtures.js';
import { addEndpoint } from '../webhooks/fixtures.js';
import { dispatchEvents } from '../../src/webhooks/deliveries/dispatch.js';
import { addUser, as, signIn } from '../staff/fixtures.js';
import { manageToken } from '../../src/storefront/manage.js';
import { startSmtp, type TestSmtp } from '../emails/smtp.js';
import { deliveryFor } from '../emails/fixtures.js';
import { runDueEmails } from '../../src/emails/worker.js';
import { addSeconds, unixNow } from '../../src/lib/clock.js';

let world: StripeWorld;
let smtp: TestSmtp;
let op: TestOperator;
let testShop: TestOperator;
let kayak: string;
let testKayak: string;
let day = 30;

const shop = (operatorId: number) => `/api/v2/shop/${operatorId}`;
const cancel = (id: number, body: unknown = { Message: 'Strong wind: we cannot go out. Sorry!' }, key = op.adminKey) =>
  call(world.t.app, key, 'POST', `/api/v2/admin/timeslots/${id}/cancel`, body);

async function slotOf(operator: TestOperator, activityId: string, capacity = 20): Promise<AdminTimeslot> {
  return createTimeslot(world.t, operator.adminKey, activityId, { Date: dateFromToday(day++), Time: '10:00', Capacity: capacity });
}

/** A paid basket of one item on `slot`; answers its booking's reference. */
async function paidBooking(operator: TestOperator, slot: AdminTimeslot, Participants: number, payment: 'stripe' | 'test'): Promise<string> {
  const opened = await call(world.t.app, undefined, 'POST', `${shop(operator.operatorId)}/baskets`, {
    Customer: customer('Grace', 'grace@example.com'),
  });
  expect(opened.statusCode, opened.body).toBe(201);
  const token: string = opened.json().data.BasketToken;
  const added = await call(world.t.app, undefined, 'POST', `${shop(operator.operatorId)}/baskets/${token}/items`, {
    ActivityID: slot.ActivityID,
    Date: slot.Date,
    Time: slot.Time,
    Participants,
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

async function posBooking(operator: TestOperator, slot: AdminTimeslot, who = customer()) {
  const response = await call(world.t.app, operator.adminKey, 'POST', '/api/v2/admin/bookings', {
    ActivityID: slot.ActivityID,
    Date: slot.Date,
    Time: slot.Time,
    Participants: 1,
    Customer: who,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.BookingReference as string;
}

async function partnerBooking(operator: TestOperator, slot: AdminTimeslot, extra: Record<string, unknown> = {}) {
  const response = await call(world.t.app, operator.otaKey, 'POST', `/api/v2/ota/${operator.partner}/booking`, {
    ActivityID: slot.ActivityID,
    Date: slot.Date,
    Time: slot.Time,
    Participants: 2,
    Customer: customer('Ada', 'ada@example.com'),
    ...extra,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.BookingReference as string;
}

const statusOf = async (operator: TestOperator, reference: string) =>
  (await call(world.t.app, operator.adminKey, 'GET', `/api/v2/admin/bookings/${reference}`)).json().data;

const departureEmails = (operatorId: number) =>
  world.t.db.kysely
    .selectFrom('emails')
    .innerJoin('bookings', 'bookings.id', 'emails.booking_id')
    .select(['bookings.reference', 'emails.to_address', 'emails.subject', 'emails.body'])
    .where('emails.operator_id', '=', operatorId)
    .where('emails.kind', '=', 'departure')
    .orderBy('emails.id')
    .execute();

beforeAll(async () => {
  smtp = await startSmtp();
  world = await stripeWorld({ SMTP_URL: smtp.url });
  op = await world.t.newOperator();
  testShop = await world.t.newOperator();
  await openShop(world.t, op.adminKey);
  await openShop(world.t, testShop.adminKey);
  await connectStripe(world, op.operatorId, op.adminKey);
  kayak = (await createActivity(world.t, op.adminKey, { Name: 'Kayak', UnitPrice: 4500, Currency: 'EUR' })).ActivityID;
  testKayak = (await createActivity(world.t, testShop.adminKey, { Name: 'Kayak', UnitPrice: 2000, Currency: 'EUR' })).ActivityID;
});
afterAll(async () => {
  await world.close();
  await smtp.close();
});

describe('POST /api/v2/admin/timeslots/{ID}/cancel', () => {
  it('cancels every live booking of every channel, holds too; refunds Stripe in full; e-mails; closes the timeslot', async () => {
    await addEndpoint(world.t, op.adminKey, { URL: 'http://127.0.0.1:9/hook', EventTypes: ['booking.cancelled', 'availability.changed'] });
    const slot = await slotOf(op, kayak);
    const paid = await paidBooking(op, slot, 2, 'stripe');
    const pos = await posBooking(op, slot, customer('Alan', 'alan@example.com'));
    const partner = await partnerBooking(op, slot);
    const hold = await partnerBooking(op, slot, { HoldMinutes: 30, Participants: 1 });
    const gone = await posBooking(op, slot);
    expect((await call(world.t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${gone}/cancel`)).statusCode).toBe(200);
    expect((await getTimeslot(world.t, op.adminKey, slot.ID)).Booked).toBe(6);

    const message = 'Strong wind: <b>no</b> tour today.\nSorry!';
    const answer = await cancel(slot.ID, { Message: message });
    expect(answer.statusCode, answer.body).toBe(200);
    const data = answer.json().data;
    expect(data).toMatchObject({
      TimeslotID: slot.ID,
      ActivityID: kayak,
      Date: slot.Date,
      Time: '10:00',
      Message: message,
      CancelledBy: expect.any(String),
    });
    expect(data.Bookings.map((b: { BookingReference: string }) => b.BookingReference).sort()).toEqual([paid, pos, partner, hold].sort());
    expect(data.Bookings.every((b: { Status: string }) => b.Status === 'cancelled')).toBe(true);
    for (const reference of [paid, pos, partner, hold]) expect((await statusOf(op, reference)).Status).toBe('cancelled');

    // The timeslot: nothing booked, closed, marked cancelled.
    const after = await getTimeslot(world.t, op.adminKey, slot.ID);
    expect(after).toMatchObject({ Booked: 0, Available: 0, Capacity: 0, CancelledAt: expect.any(String) });

    // The paid booking is refunded in full through Stripe, with the reason.
    const money = await statusOf(op, paid);
    expect(money.Refunds).toHaveLength(1);
    expect(money.Refunds[0]).toMatchObject({ Amount: '90.00', Status: 'succeeded', Reason: 'departure-cancelled', Provider: 'stripe' });
    expect(world.stripe.refunds.get(money.Refunds[0].ProviderReference)).toMatchObject({ amount: 9000, currency: 'eur' });

    // Each guest with an address gets the message (as given: plain text) and the link to book again.
    const emails = await departureEmails(op.operatorId);
    expect(emails.map((email) => email.reference).sort()).toEqual([paid, pos, partner, hold].sort());
    const alan = emails.find((email) => email.reference === pos)!;
    expect(alan.to_address).toBe('alan@example.com');
    expect(alan.subject).toBe(`Cancelled: Kayak on ${slot.Date} at 10:00`);
    expect(alan.body).toContain(message);
    expect(alan.body).toContain('Hello Alan,');
    expect(alan.body).toMatch(new RegExp(`${PUBLIC_URL}/book/[a-z0-9-]+/activities/${kayak}`));
    // The worker sends them: the SMTP server receives the message as written.
    await runDueEmails(world.t.db, deliveryFor(world.t));
    const received = smtp.messages.find((m) => m.to.includes('alan@example.com') && m.subject.startsWith('Cancelled: Kayak'));
    expect(received, smtp.messages.map((m) => m.subject).join(', ')).toBeDefined();
    expect(received!.text).toContain('Strong wind: <b>no</b> tour today.');
    expect(received!.text).toContain(`/activities/${kayak}`);

    // The guest's manage page says why, with the operator's words.
    const token = manageToken(world.t.app.instanceKeys, op.operatorId, pos);
    const managed = (await call(world.t.app, undefined, 'GET', `${shop(op.operatorId)}/bookings/${token}`)).json().data;
    expect(managed).toMatchObject({ Status: 'cancelled', DepartureMessage: message });
    const gone_ = (
      await call(world.t.app, undefined, 'GET', `${shop(op.operatorId)}/bookings/${manageToken(world.t.app.instanceKeys, op.operatorId, gone)}`)
    ).json().data;
    expect(gone_.DepartureMessage).toBeNull();

    // Audit: who cancelled the timeslot, and each booking.
    const entries = await world.t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('operator_id', '=', op.operatorId)
      .where('action', 'in', ['timeslot.cancel', 'booking.cancel'])
      .execute();
    const timeslotEntry = entries.find((entry) => entry.action === 'timeslot.cancel')!;
    expect(timeslotEntry.actor_type).toBe('key');
    expect(JSON.parse(timeslotEntry.after_json!)).toMatchObject({ Message: message });
    expect(
      entries.filter((entry) => entry.action === 'booking.cancel' && JSON.parse(entry.after_json!).Reason === 'departure-cancelled'),
    ).toHaveLength(4);

    // Webhooks: booking.cancelled for each, availability.changed for the timeslot.
    await dispatchEvents(world.t.db, addSeconds(unixNow(), 60));
    const events = await world.t.db.kysely
      .selectFrom('webhook_events')
      .select(['type', 'resource'])
      .where('operator_id', '=', op.operatorId)
      .execute();
    for (const reference of [paid, pos, partner, hold])
      expect(events).toContainEqual({ type: 'booking.cancelled', resource: `booking:${reference}` });
    expect(events).toContainEqual({ type: 'availability.changed', resource: `timeslot:${slot.ID}` });

    // Closed on every channel: the partner API, the point of sale, the shop.
    const partnerTry = await call(world.t.app, op.otaKey, 'POST', `/api/v2/ota/${op.partner}/booking`, {
      ActivityID: kayak,
      Date: slot.Date,
      Time: '10:00',
      Participants: 1,
      Customer: customer(),
    });
    expect(problemOf(partnerTry, 422, 'validation').detail).toMatch(/cancelled/);
    const posTry = await call(world.t.app, op.adminKey, 'POST', '/api/v2/admin/bookings', {
      ActivityID: kayak,
      Date: slot.Date,
      Time: '10:00',
      Participants: 1,
      Customer: customer(),
    });
    problemOf(posTry, 422, 'validation');
    const listed = (await call(world.t.app, op.otaKey, 'GET', `/api/v2/ota/${op.partner}/availability/${kayak}/timeslots?Date=${slot.Date}`)).json()
      .data;
    expect(listed).toEqual([expect.objectContaining({ Time: '10:00', Available: 0 })]);
    const opened = await call(world.t.app, undefined, 'POST', `${shop(op.operatorId)}/baskets`, { Customer: customer() });
    const shopTry = await call(world.t.app, undefined, 'POST', `${shop(op.operatorId)}/baskets/${opened.json().data.BasketToken}/items`, {
      ActivityID: kayak,
      Date: slot.Date,
      Time: '10:00',
      Participants: 1,
    });
    expect(shopTry.statusCode).toBeGreaterThanOrEqual(409);
    // Its capacity cannot be raised again.
    problemOf(await call(world.t.app, op.adminKey, 'PATCH', `/api/v2/admin/timeslots/${slot.ID}`, { Capacity: 30 }), 409, 'conflict');

    // Idempotent: the same list, nothing more cancelled, refunded or e-mailed.
    const again = await cancel(slot.ID, { Message: 'Another message' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.Message).toBe(message);
    expect(
      again
        .json()
        .data.Bookings.map((b: { BookingReference: string }) => b.BookingReference)
        .sort(),
    ).toEqual([paid, pos, partner, hold].sort());
    expect((await statusOf(op, paid)).Refunds).toHaveLength(1);
    expect(await departureEmails(op.operatorId)).toHaveLength(4);
    const read = await call(world.t.app, op.adminKey, 'GET', `/api/v2/admin/timeslots/${slot.ID}/cancellation`);
    expect(read.json().data.Bookings).toHaveLength(4);
  });

  it('refunds a test-provider payment in full at once', async () => {
    const slot = await slotOf(testShop, testKayak);
    const paid = await paidBooking(testShop, slot, 3, 'test');
    const answer = await cancel(slot.ID, undefined, testShop.adminKey);
    expect(answer.statusCode, answer.body).toBe(200);
    const money = await statusOf(testShop, paid);
    expect(money).toMatchObject({ Status: 'cancelled', AmountPaid: 6000, AmountRefunded: 6000 });
    expect(money.Refunds[0]).toMatchObject({ Amount: '60.00', Status: 'succeeded', Reason: 'departure-cancelled', Provider: 'test' });
  });

  it('bookings racing the cancellation are either refused or cancelled with it: none stays live, nothing overbooked', async () => {
    const slot = await slotOf(op, kayak, 50);
    await posBooking(op, slot);
    const book = () =>
      call(world.t.app, op.adminKey, 'POST', '/api/v2/admin/bookings', {
        ActivityID: kayak,
        Date: slot.Date,
        Time: '10:00',
        Participants: 1,
        Customer: customer(),
      });
    const [cancelled, ...racers] = await Promise.all([cancel(slot.ID), book(), book(), book(), book(), book(), book()]);
    expect(cancelled!.statusCode, cancelled!.body).toBe(200);
    for (const racer of racers) expect([201, 409, 422], racer.body).toContain(racer.statusCode);
    const live = await world.t.db.kysely
      .selectFrom('bookings')
      .innerJoin('timeslots', 'timeslots.id', 'bookings.timeslot_id')
      .select('bookings.reference')
      .where('timeslots.id', '=', slot.ID)
      .where('bookings.status', 'in', ['confirmed', 'on_hold'])
      .execute();
    expect(live).toEqual([]);
    expect(await getTimeslot(world.t, op.adminKey, slot.ID)).toMatchObject({ Booked: 0, Capacity: 0 });
    // Those that got in before the cancellation are in its list.
    const listed = (cancelled!.json().data.Bookings as { BookingReference: string }[]).map((b) => b.BookingReference);
    for (const racer of racers.filter((r) => r.statusCode === 201)) expect(listed).toContain(racer.json().data.BookingReference);
  });

  it('a timeslot without bookings is closed all the same, with an empty list', async () => {
    const slot = await slotOf(op, kayak);
    const answer = await cancel(slot.ID);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().data.Bookings).toEqual([]);
    expect(await getTimeslot(world.t, op.adminKey, slot.ID)).toMatchObject({ Capacity: 0, CancelledAt: expect.any(String) });
  });

  it("is 404 for an unknown or another operator's timeslot, 422 without a Message, 409 once started", async () => {
    const slot = await slotOf(op, kayak);
    problemOf(await cancel(999_999), 404, 'not-found');
    problemOf(await cancel(slot.ID, undefined, testShop.adminKey), 404, 'not-found');
    for (const body of [{}, { Message: '' }, { Message: '   ' }, { Message: 'x'.repeat(2001) }, { Message: 'bell\u0007' }]) {
      const refused = problemOf(await cancel(slot.ID, body), 422, 'validation');
      expect(refused.errors?.[0]?.field).toBe('Message');
    }
    const past = await createTimeslot(world.t, op.adminKey, kayak, { Date: dateFromToday(-3), Time: '10:00', Capacity: 5 });
    problemOf(await cancel(past.ID), 409, 'conflict');
    expect((await getTimeslot(world.t, op.adminKey, slot.ID)).CancelledAt).toBeNull();
  });

  it('needs bookings:write: a guide may not cancel a departure; a manager may, and the audit names them', async () => {
    const slot = await slotOf(op, kayak);
    await posBooking(op, slot);
    const guide = await addUser(world.t, op.operatorId, 'guide');
    const guideSession = await signIn(world.t, guide.email);
    problemOf(await as(world.t, guideSession, 'POST', `/api/v2/admin/timeslots/${slot.ID}/cancel`, { Message: 'Storm' }), 403, 'forbidden');
    const manager = await addUser(world.t, op.operatorId, 'manager');
    const managerSession = await signIn(world.t, manager.email);
    const answer = await as(world.t, managerSession, 'POST', `/api/v2/admin/timeslots/${slot.ID}/cancel`, { Message: 'Storm' });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().data.CancelledBy).toBe(manager.email);
  });

  it('refunds a paid departure when the front desk cancels it, though the desk may not refund a booking itself (the documented exception)', async () => {
    const slot = await slotOf(testShop, testKayak);
    const paid = await paidBooking(testShop, slot, 2, 'test');
    const desk = await addUser(world.t, testShop.operatorId, 'front-desk');
    const session = await signIn(world.t, desk.email);
    problemOf(await as(world.t, session, 'POST', `/api/v2/admin/bookings/${paid}/refund`, {}), 403, 'forbidden');
    const answer = await as(world.t, session, 'POST', `/api/v2/admin/timeslots/${slot.ID}/cancel`, { Message: 'The lake froze over.' });
    expect(answer.statusCode, answer.body).toBe(200);
    const money = await statusOf(testShop, paid);
    expect(money).toMatchObject({ Status: 'cancelled', AmountRefunded: 4000, AmountRefundable: 0 });
    expect(money.Refunds).toEqual([expect.objectContaining({ Reason: 'departure-cancelled', RequestedBy: 'user', Status: 'succeeded' })]);
    const entry = await world.t.db.kysely
      .selectFrom('audit_log')
      .select(['actor_label'])
      .where('action', '=', 'booking.refund')
      .where('resource_id', '=', paid)
      .executeTakeFirstOrThrow();
    expect(entry.actor_label).toBe(desk.email);
  });
});
