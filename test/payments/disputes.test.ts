// Disputes (issue 25, item 5): Stripe's charge.dispute.* events flag the bookings of the disputed payment
// (AdminBooking's Disputes, with the evidence deadline and the payment's address in Stripe's dashboard),
// e-mail the operator's owners once per dispute and write an audit entry; later events keep the status;
// an event delivered twice does nothing more, another operator's dispute is acknowledged and ignored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestOperator } from '../helpers/app.js';
import type { StripeTestAccount } from '../helpers/stripe-server.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer } from '../emails/fixtures.js';
import { openShop } from '../shop/fixtures.js';
import { addUser } from '../staff/fixtures.js';
import { connectStripe, stripeWorld, type StripeWorld } from './fixtures.js';

let world: StripeWorld;
let op: TestOperator;
let other: TestOperator;
let account: StripeTestAccount;
let otherAccount: StripeTestAccount;
let kayak: string;
let otherKayak: string;
const date = dateFromToday(12);
const owners = ['owner-a@fjord.example', 'owner-b@fjord.example'];

const shop = (operatorId: number) => `/api/v2/shop/${operatorId}`;

/** A basket of one booking per entry of `items` paid through Stripe; answers the references and the PaymentIntent. */
async function paidBasket(operator: TestOperator, ActivityID: string, items: number[]) {
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
  const paid = await call(world.t.app, undefined, 'POST', `${shop(operator.operatorId)}/baskets/${token}/checkout`, {
    Payment: { Provider: 'stripe' },
  });
  expect(paid.statusCode, paid.body).toBe(200);
  const event = await world.stripe.pay(paid.json().data.Payment.RedirectURL.split('/pay/')[1]);
  const paymentIntent = (event.data as { object: { payment_intent: string } }).object.payment_intent;
  const basket = (await call(world.t.app, undefined, 'GET', `${shop(operator.operatorId)}/baskets/${token}`)).json().data;
  expect(basket.Status).toBe('paid');
  return { references: basket.Items.map((item: { BookingReference: string }) => item.BookingReference) as string[], paymentIntent };
}

const booking = async (reference: string, key = op.adminKey) => {
  const response = await call(world.t.app, key, 'GET', `/api/v2/admin/bookings/${reference}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
};

const disputeEmails = (operatorId: number) =>
  world.t.db.kysely.selectFrom('emails').selectAll().where('operator_id', '=', operatorId).where('kind', '=', 'payment').orderBy('id').execute();

beforeAll(async () => {
  world = await stripeWorld();
  op = await world.t.newOperator('Fjord Kayaks');
  other = await world.t.newOperator('Other Tours');
  for (const operator of [op, other]) await openShop(world.t, operator.adminKey);
  account = await connectStripe(world, op.operatorId, op.adminKey);
  otherAccount = await connectStripe(world, other.operatorId, other.adminKey);
  for (const email of owners) await addUser(world.t, op.operatorId, 'owner', email);
  await addUser(world.t, op.operatorId, 'manager', 'manager@fjord.example');
  kayak = (await createActivity(world.t, op.adminKey, { Name: 'Kayak', UnitPrice: 4500, Currency: 'EUR', Timezone: 'Europe/Oslo' })).ActivityID;
  otherKayak = (await createActivity(world.t, other.adminKey, { Name: 'Kayak', UnitPrice: 2000, Currency: 'EUR' })).ActivityID;
  for (const Time of ['10:00', '12:00']) {
    await createTimeslot(world.t, op.adminKey, kayak, { Date: date, Time, Capacity: 100 });
    await createTimeslot(world.t, other.adminKey, otherKayak, { Date: date, Time, Capacity: 100 });
  }
});
afterAll(() => world.close());

describe('a dispute of a Stripe payment', () => {
  it('flags every booking of the basket, e-mails each owner once, audits; updated and closed keep its status', async () => {
    const { references, paymentIntent } = await paymentBasketOfTwo();
    const created = await world.stripe.dispute(paymentIntent, { send: false });
    const dispute = (created.data as { object: { id: string; evidence_details: { due_by: number } } }).object;
    const answer = await world.stripe.send(account, created);
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body).data.Outcome).toBe('handled');

    for (const reference of references) {
      const data = await booking(reference);
      expect(data.Disputes).toEqual([
        {
          DisputeID: dispute.id,
          Amount: '135.00',
          AmountMinorUnits: 13500,
          Currency: 'EUR',
          Reason: 'fraudulent',
          Status: 'needs_response',
          EvidenceDueBy: new Date(dispute.evidence_details.due_by * 1000).toISOString(),
          StripeURL: `https://dashboard.stripe.com/test/payments/${paymentIntent}`,
          CreatedAt: expect.any(String),
          UpdatedAt: expect.any(String),
        },
      ]);
    }

    const emails = await disputeEmails(op.operatorId);
    expect(emails.map((email) => email.to_address).sort()).toEqual(owners);
    for (const email of emails) {
      expect(email.subject).toBe(`Payment disputed: ${references.join(', ')} (135.00 EUR)`);
      expect(email.body).toContain(`Bookings: ${references.join(', ')}`);
      expect(email.body).toContain('Amount disputed: 135.00 EUR');
      expect(email.body).toContain(`https://dashboard.stripe.com/test/payments/${paymentIntent}`);
      // The deadline in the activity's zone (Oslo: UTC+01:00 in winter, +02:00 in summer).
      expect(email.body).toMatch(/Evidence is due by \d{4}-\d{2}-\d{2} \d{2}:\d{2} \(Europe\/Oslo time, UTC\+0[12]:00\)/);
    }
    // The same through the operator's e-mail list.
    const listed = await call(world.t.app, op.adminKey, 'GET', '/api/v2/admin/emails');
    expect(listed.json().data.filter((email: { Kind: string }) => email.Kind === 'payment')).toHaveLength(2);

    const audits = await world.t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('operator_id', '=', op.operatorId)
      .where('action', '=', 'booking.dispute')
      .orderBy('id')
      .execute();
    expect(audits.map((entry) => entry.resource_id)).toEqual(references);
    expect(audits[0]).toMatchObject({ actor_type: 'system', actor_label: 'Stripe' });
    expect(JSON.parse(audits[0]!.after_json!)).toMatchObject({ DisputeID: dispute.id, Status: 'needs_response' });

    // The same event again: duplicate, nothing more.
    const again = await world.stripe.send(account, created);
    expect(JSON.parse(again.body).data.Outcome).toBe('duplicate');
    // Stripe's later events: evidence under review, then closed as won. No e-mail for either.
    const reviewed = await world.stripe.changeDispute(dispute.id, 'under_review');
    expect(reviewed.type).toBe('charge.dispute.updated');
    expect(world.stripe.deliveries.at(-1)!.status).toBe(200);
    expect((await booking(references[1]!)).Disputes[0].Status).toBe('under_review');
    const closed = await world.stripe.changeDispute(dispute.id, 'won');
    expect(closed.type).toBe('charge.dispute.closed');
    expect(JSON.parse(world.stripe.deliveries.at(-1)!.body).data.Outcome).toBe('handled');
    expect((await booking(references[0]!)).Disputes[0].Status).toBe('won');
    const stored = world.stripe.disputes.get(dispute.id)!;
    // An older update delivered late does not undo the closing.
    const late = world.stripe.event('charge.dispute.updated', { ...stored, status: 'under_review' });
    (late as { created: number }).created -= 60;
    expect(JSON.parse((await world.stripe.send(account, late)).body).data.Outcome).toBe('ignored');
    expect((await booking(references[0]!)).Disputes[0].Status).toBe('won');
    expect(await disputeEmails(op.operatorId)).toHaveLength(2);
  });

  it('records a dispute whose first event is an update (Stripe keeps no order), and tells the owners then', async () => {
    const { references, paymentIntent } = await paidBasket(op, kayak, [1]);
    const before = (await disputeEmails(op.operatorId)).length;
    const created = await world.stripe.dispute(paymentIntent, { send: false });
    const object = (created.data as { object: Record<string, unknown> }).object;
    const update = world.stripe.event('charge.dispute.updated', { ...object, status: 'under_review' });
    expect(JSON.parse((await world.stripe.send(account, update)).body).data.Outcome).toBe('handled');
    // created, older, arrives after: neither applied nor a second e-mail.
    (created as { created: number }).created -= 10;
    expect(JSON.parse((await world.stripe.send(account, created)).body).data.Outcome).toBe('ignored');
    expect((await booking(references[0]!)).Disputes).toMatchObject([{ Status: 'under_review', Amount: '45.00' }]);
    expect(await disputeEmails(op.operatorId)).toHaveLength(before + owners.length);
  });

  it("acknowledges and ignores a dispute of another operator's payment, and one of no known payment", async () => {
    const theirs = await paidBasket(other, otherKayak, [1]);
    const before = (await disputeEmails(op.operatorId)).length;
    const event = await world.stripe.dispute(theirs.paymentIntent, { send: false });
    // Sent to this operator's address, signed with this operator's secret: verified, but not its payment.
    const answer = await world.stripe.send(account, event);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).data.Outcome).toBe('ignored');
    const unknown = world.stripe.event('charge.dispute.created', {
      ...(event.data as { object: Record<string, unknown> }).object,
      id: 'dp_test_unknown',
      payment_intent: 'pi_test_nobody',
    });
    expect(JSON.parse((await world.stripe.send(account, unknown)).body).data.Outcome).toBe('ignored');
    expect(
      await world.t.db.kysely
        .selectFrom('disputes')
        .selectAll()
        .where('operator_id', '=', op.operatorId)
        .where('payment_id', 'in', world.t.db.kysely.selectFrom('payments').select('id').where('operator_id', '=', other.operatorId))
        .execute(),
    ).toEqual([]);
    expect(await disputeEmails(op.operatorId)).toHaveLength(before);
    expect((await booking(theirs.references[0]!, other.adminKey)).Disputes).toEqual([]);
    // Its own operator's address records it (the other operator has no owner user: no e-mail, still flagged).
    expect(JSON.parse((await world.stripe.send(otherAccount, event)).body).data.Outcome).toBe('handled');
    expect((await booking(theirs.references[0]!, other.adminKey)).Disputes).toHaveLength(1);
    expect(await disputeEmails(other.operatorId)).toEqual([]);
  });

  it('links to the live dashboard for a live-mode key, and a booking without a dispute has none', async () => {
    const { references } = await paidBasket(op, kayak, [1]);
    expect((await booking(references[0]!)).Disputes).toEqual([]);
    const { stripePaymentUrl } = await import('../../src/flows/dispute.js');
    expect(stripePaymentUrl('pi_123', true)).toBe('https://dashboard.stripe.com/payments/pi_123');
    expect(stripePaymentUrl('pi_123', false)).toBe('https://dashboard.stripe.com/test/payments/pi_123');
  });
});

function paymentBasketOfTwo() {
  return paidBasket(op, kayak, [2, 1]);
}
