// Moving a booking paid online to a dearer or cheaper activity (issue 26, item 1), over HTTP on a real
// database with the test payment provider: a cheaper move refunds the difference at once (reason
// price-difference, audited, what remains refundable shrinks by it), a dearer one leaves the difference due,
// e-mails the guest their booking page, and the page offers to pay it; a move within the activity changes
// no money; a booking not paid online is left to the desk.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer } from '../emails/fixtures.js';
import { GOOD_CARD, openShop } from '../shop/fixtures.js';
import { manageToken } from '../../src/storefront/manage.js';

let t: TestApp;
let op: TestOperator;
let kayak: string;
let canoe: string;
let yacht: string;
const date = dateFromToday(12);

interface Money {
  Total: number;
  AmountPaid: number;
  AmountRefunded: number;
  AmountRefundable: number;
  AmountDue: number;
  PaymentState: string;
  Refunds: { Amount: string; Reason: string; Status: string }[];
}

async function paidBooking(ActivityID: string): Promise<string> {
  const shop = `/api/v2/shop/${op.operatorId}`;
  const opened = await call(t.app, undefined, 'POST', `${shop}/baskets`, { Customer: customer() });
  expect(opened.statusCode, opened.body).toBe(201);
  const token: string = opened.json().data.BasketToken;
  const added = await call(t.app, undefined, 'POST', `${shop}/baskets/${token}/items`, { ActivityID, Date: date, Time: '10:00', Participants: 2 });
  expect(added.statusCode, added.body).toBe(201);
  const paid = await call(t.app, undefined, 'POST', `${shop}/baskets/${token}/checkout`, { Payment: GOOD_CARD });
  expect(paid.statusCode, paid.body).toBe(200);
  return paid.json().data.Items[0].BookingReference as string;
}

const booking = async (reference: string) => (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${reference}`)).json().data as Money;
const moveTo = async (reference: string, ActivityID: string, Time = '10:00') => {
  const moved = await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${reference}/reschedule`, { ActivityID, Date: date, Time });
  expect(moved.statusCode, moved.body).toBe(200);
};
const balanceEmails = (reference: string) =>
  t.db.kysely
    .selectFrom('emails')
    .innerJoin('bookings', 'bookings.id', 'emails.booking_id')
    .select(['emails.subject', 'emails.body', 'emails.to_address'])
    .where('bookings.reference', '=', reference)
    .where('emails.kind', '=', 'balance')
    .execute();

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  await openShop(t, op.adminKey);
  kayak = (await createActivity(t, op.adminKey, { Name: 'Kayak', UnitPrice: 4500 })).ActivityID;
  canoe = (await createActivity(t, op.adminKey, { Name: 'Canoe', UnitPrice: 3000 })).ActivityID;
  yacht = (await createActivity(t, op.adminKey, { Name: 'Yacht', UnitPrice: 8000 })).ActivityID;
  for (const activity of [kayak, canoe, yacht]) {
    await createTimeslot(t, op.adminKey, activity, { Date: date, Time: '10:00', Capacity: 20 });
    await createTimeslot(t, op.adminKey, activity, { Date: date, Time: '15:00', Capacity: 20 });
  }
});
afterAll(() => t.close());

describe('a paid booking moved to another price', () => {
  it('refunds the difference of a cheaper activity at once, asked by whoever moved it', async () => {
    const reference = await paidBooking(kayak);
    expect(await booking(reference)).toMatchObject({ Total: 9000, AmountPaid: 9000, AmountRefundable: 9000 });
    await moveTo(reference, canoe);
    const moved = await booking(reference);
    expect(moved).toMatchObject({ Total: 6000, AmountRefunded: 3000, AmountRefundable: 6000, AmountDue: 0, PaymentState: 'partially_refunded' });
    expect(moved.Refunds).toEqual([expect.objectContaining({ Amount: '30.00', Reason: 'price-difference', Status: 'succeeded' })]);
    // A move back and forth within the new activity changes no money.
    await moveTo(reference, canoe, '15:00');
    expect((await booking(reference)).Refunds).toHaveLength(1);
    expect(await balanceEmails(reference)).toEqual([]);
  });

  it("leaves a dearer activity's difference due, e-mails the booking page, and the page offers to pay it", async () => {
    const reference = await paidBooking(kayak);
    await moveTo(reference, yacht);
    expect(await booking(reference)).toMatchObject({ Total: 16000, AmountPaid: 9000, AmountDue: 7000, PaymentState: 'part_paid', Refunds: [] });
    const emails = await balanceEmails(reference);
    expect(emails).toHaveLength(1);
    expect(emails[0]!.subject).toBe(`Your booking ${reference} moved: 70.00 EUR to pay`);
    expect(emails[0]!.body).toContain('{{ManageBookingUrl}}');
    expect(emails[0]!.to_address).toBe(customer().Email);
    const token = manageToken(t.app.instanceKeys, op.operatorId, reference);
    const managed = (await call(t.app, undefined, 'GET', `/api/v2/shop/${op.operatorId}/bookings/${token}`)).json().data;
    expect(managed.Balance).toEqual({ AmountPaid: 9000, AmountDue: 7000 });
  });

  it('leaves a booking not paid online to the desk', async () => {
    const desk = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/bookings', {
      ActivityID: kayak,
      Date: date,
      Time: '10:00',
      Participants: 1,
      Customer: { FirstName: 'Walk', Email: 'walk@example.com' },
      Payment: { Method: 'cash' },
    });
    expect(desk.statusCode, desk.body).toBe(201);
    const reference = desk.json().data.BookingReference as string;
    await moveTo(reference, canoe);
    expect(await booking(reference)).toMatchObject({ Total: 3000, AmountPaid: 4500, AmountDue: 0, Refunds: [] });
    expect(await balanceEmails(reference)).toEqual([]);
  });
});
