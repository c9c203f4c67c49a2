// The payment report (issue 25, item 7): gross (payments that succeeded), refunds (that succeeded) and net
// per day, activity and channel, exact per currency, dated by when the money moved in the activity's own
// time zone (a refund on its own later day), a basket's payment split over its bookings' activities; the
// CSV export; tenant isolation; 422 for bad periods; who may read it. The moments money moved are set in
// the database after the real checkout and refunds, so that the days and zone boundaries are exact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer } from '../emails/fixtures.js';
import { GOOD_CARD, openShop } from '../shop/fixtures.js';
import { userSession, as } from '../staff/fixtures.js';
import { asUnixMillis } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;
const activities: Record<string, string> = {};
const slotDate = dateFromToday(9);
const ms = (iso: string) => asUnixMillis(Date.parse(iso));

const shop = (operatorId: number) => `/api/v2/shop/${operatorId}`;

/** A basket of [activity, participants] items paid with the test provider; answers its references. */
async function paid(operator: TestOperator, items: [string, number][]): Promise<string[]> {
  const opened = await call(t.app, undefined, 'POST', `${shop(operator.operatorId)}/baskets`, { Customer: customer() });
  const token: string = opened.json().data.BasketToken;
  for (const [ActivityID, Participants] of items) {
    const added = await call(t.app, undefined, 'POST', `${shop(operator.operatorId)}/baskets/${token}/items`, {
      ActivityID,
      Date: slotDate,
      Time: '10:00',
      Participants,
    });
    expect(added.statusCode, added.body).toBe(201);
  }
  const checkout = await call(t.app, undefined, 'POST', `${shop(operator.operatorId)}/baskets/${token}/checkout`, { Payment: GOOD_CARD });
  expect(checkout.statusCode, checkout.body).toBe(200);
  return checkout.json().data.Items.map((item: { BookingReference: string }) => item.BookingReference);
}

/** Moves the moment the booking's basket payment took money. */
async function paidAt(reference: string, iso: string) {
  const booking = await t.db.kysely.selectFrom('bookings').select('id').where('reference', '=', reference).executeTakeFirstOrThrow();
  const item = await t.db.kysely.selectFrom('basket_items').select('basket_id').where('booking_id', '=', booking.id).executeTakeFirstOrThrow();
  await t.db.write((tx) =>
    tx
      .updateTable('payments')
      .set({ succeeded_at: ms(iso) })
      .where('basket_id', '=', item.basket_id)
      .execute(),
  );
}

async function refund(reference: string, Amount: string, iso: string, key = op.adminKey) {
  const answer = await call(t.app, key, 'POST', `/api/v2/admin/bookings/${reference}/refund`, { Amount });
  expect(answer.statusCode, answer.body).toBe(201);
  const id: number = answer.json().data[0].RefundID;
  await t.db.write((tx) =>
    tx
      .updateTable('refunds')
      .set({ succeeded_at: ms(iso) })
      .where('id', '=', id)
      .execute(),
  );
}

const report = async (from: string, to: string, key = op.adminKey) => {
  const response = await call(t.app, key, 'GET', `/api/v2/admin/reports/payments?From=${from}&To=${to}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
};

const sum = (Currency: string, Amount: string, AmountMinorUnits: number) => ({ Currency, Amount, AmountMinorUnits });

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator('Fjord Kayaks');
  other = await t.newOperator('Other Tours');
  await openShop(t, op.adminKey);
  await openShop(t, other.adminKey);
  // Berlin kayaks and canoes in EUR; a Tokyo tea ceremony in JPY (no minor digits).
  activities.kayak = (
    await createActivity(t, op.adminKey, { Name: 'Kayak', UnitPrice: 4500, Currency: 'EUR', Timezone: 'Europe/Berlin' })
  ).ActivityID;
  activities.canoe = (
    await createActivity(t, op.adminKey, { Name: 'Canoe', UnitPrice: 3000, Currency: 'EUR', Timezone: 'Europe/Berlin' })
  ).ActivityID;
  activities.tea = (await createActivity(t, op.adminKey, { Name: 'Tea', UnitPrice: 1500, Currency: 'JPY', Timezone: 'Asia/Tokyo' })).ActivityID;
  activities.theirs = (await createActivity(t, other.adminKey, { Name: 'Theirs', UnitPrice: 9900, Currency: 'EUR' })).ActivityID;
  for (const name of ['kayak', 'canoe', 'tea'])
    await createTimeslot(t, op.adminKey, activities[name]!, { Date: slotDate, Time: '10:00', Capacity: 50 });
  await createTimeslot(t, other.adminKey, activities.theirs!, { Date: slotDate, Time: '10:00', Capacity: 50 });

  // One EUR basket over two activities: 2 kayak (90.00) + 1 canoe (30.00) = 120.00, paid 22:30 UTC on
  // 10 June, which is already 00:30 on 11 June in Berlin.
  const [kayakRef, canoeRef] = await paid(op, [
    [activities.kayak!, 2],
    [activities.canoe!, 1],
  ]);
  await paidAt(kayakRef!, '2030-06-10T22:30:00Z');
  // A JPY basket: 3 tea = 4500 yen, paid 14:00 UTC on 10 June (23:00 in Tokyo, still the 10th).
  const [teaRef] = await paid(op, [[activities.tea!, 3]]);
  await paidAt(teaRef!, '2030-06-10T14:00:00Z');
  // Refunds on a later day: 12.50 of the kayaks on 12 June, 1500 yen of the tea on 12 June (Tokyo).
  await refund(kayakRef!, '12.50', '2030-06-12T10:00:00Z');
  await refund(teaRef!, '1500', '2030-06-12T01:00:00Z');
  void canoeRef;
  // Another operator's payment in the same days: never in this report.
  const [theirs] = await paid(other, [[activities.theirs!, 1]]);
  await paidAt(theirs!, '2030-06-11T10:00:00Z');
  // A point-of-sale booking took no payment: not in the report.
  const pos = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/bookings', {
    ActivityID: activities.kayak,
    Date: slotDate,
    Time: '10:00',
    Participants: 1,
    Customer: customer(),
  });
  expect(pos.statusCode, pos.body).toBe(201);
});
afterAll(() => t.close());

describe('the payment report', () => {
  it('sums gross, refunds and net exactly per currency, by the day money moved in the activity zone', async () => {
    const data = await report('2030-06-10', '2030-06-12');
    expect(data.Totals).toEqual({
      Gross: [sum('EUR', '120.00', 12000), sum('JPY', '4500', 4500)],
      Refunds: [sum('EUR', '12.50', 1250), sum('JPY', '1500', 1500)],
      Net: [sum('EUR', '107.50', 10750), sum('JPY', '3000', 3000)],
    });
    const rows = data.Rows.map((row: Record<string, unknown>) => [
      row.Date,
      row.Activity,
      row.Channel,
      row.Currency,
      row.Gross,
      row.Refunds,
      row.Net,
    ]);
    expect(rows).toEqual([
      ['2030-06-10', 'Tea', 'online', 'JPY', '4500', '0', '4500'],
      ['2030-06-11', 'Canoe', 'online', 'EUR', '30.00', '0.00', '30.00'],
      ['2030-06-11', 'Kayak', 'online', 'EUR', '90.00', '0.00', '90.00'],
      ['2030-06-12', 'Kayak', 'online', 'EUR', '0.00', '12.50', '-12.50'],
      ['2030-06-12', 'Tea', 'online', 'JPY', '0', '1500', '-1500'],
    ]);
    expect(data.Rows[3]).toMatchObject({ GrossMinorUnits: 0, RefundsMinorUnits: 1250, NetMinorUnits: -1250, ChannelName: 'Online shop' });
    expect(data.ByDay.map((day: { Key: string; Net: unknown }) => [day.Key, day.Net])).toEqual([
      ['2030-06-10', [sum('JPY', '4500', 4500)]],
      ['2030-06-11', [sum('EUR', '120.00', 12000)]],
      ['2030-06-12', [sum('EUR', '-12.50', -1250), sum('JPY', '-1500', -1500)]],
    ]);
    expect(data.ByActivity.map((group: { Label: string; Gross: unknown; Refunds: unknown }) => [group.Label, group.Gross, group.Refunds])).toEqual([
      ['Canoe', [sum('EUR', '30.00', 3000)], [sum('EUR', '0.00', 0)]],
      ['Kayak', [sum('EUR', '90.00', 9000)], [sum('EUR', '12.50', 1250)]],
      ['Tea', [sum('JPY', '4500', 4500)], [sum('JPY', '1500', 1500)]],
    ]);
    expect(data.ByChannel).toEqual([
      {
        Key: 'online',
        Label: 'Online shop',
        Gross: [sum('EUR', '120.00', 12000), sum('JPY', '4500', 4500)],
        Refunds: [sum('EUR', '12.50', 1250), sum('JPY', '1500', 1500)],
        Net: [sum('EUR', '107.50', 10750), sum('JPY', '3000', 3000)],
      },
    ]);
  });

  it("dates by the activity's zone: 22:30 UTC on the 10th is the 11th in Berlin, 14:00 UTC the 10th in Tokyo", async () => {
    const tenth = await report('2030-06-10', '2030-06-10');
    expect(tenth.Totals.Gross).toEqual([sum('JPY', '4500', 4500)]);
    expect(tenth.ByDay).toHaveLength(1);
    const later = await report('2030-06-11', '2030-06-11');
    expect(later.Totals.Gross).toEqual([sum('EUR', '120.00', 12000)]);
    expect(later.Totals.Refunds).toEqual([sum('EUR', '0.00', 0)]);
    // The refund's own day, without its payment: net negative.
    const twelfth = await report('2030-06-12', '2030-06-20');
    expect(twelfth.Totals.Net).toEqual([sum('EUR', '-12.50', -1250), sum('JPY', '-1500', -1500)]);
    expect(twelfth.ByDay).toHaveLength(9);
    expect((await report('2030-07-01', '2030-07-31')).Rows).toEqual([]);
  });

  it("keeps operators apart: the other's report has only its own payment", async () => {
    const theirs = await report('2030-06-10', '2030-06-12', other.adminKey);
    expect(theirs.Totals).toEqual({ Gross: [sum('EUR', '99.00', 9900)], Refunds: [sum('EUR', '0.00', 0)], Net: [sum('EUR', '99.00', 9900)] });
  });

  it('exports the rows as CSV', async () => {
    const response = await call(t.app, op.adminKey, 'GET', '/api/v2/admin/reports/payments/export?From=2030-06-10&To=2030-06-12');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="payments-report-2030-06-10-to-2030-06-12.csv"');
    const lines = response.body.trim().split(/\r?\n/);
    expect(lines[0]).toBe('Date,ActivityID,Activity,Channel,Currency,GrossMinorUnits,Gross,RefundsMinorUnits,Refunds,NetMinorUnits,Net');
    expect(lines.slice(1)).toEqual([
      `2030-06-10,${activities.tea},Tea,Online shop,JPY,4500,4500,0,0,4500,4500`,
      `2030-06-11,${activities.canoe},Canoe,Online shop,EUR,3000,30.00,0,0.00,3000,30.00`,
      `2030-06-11,${activities.kayak},Kayak,Online shop,EUR,9000,90.00,0,0.00,9000,90.00`,
      // Minor units are numbers; a negative decimal text starts with an apostrophe, as every text a spreadsheet could run as a formula.
      `2030-06-12,${activities.kayak},Kayak,Online shop,EUR,0,0.00,1250,12.50,-1250,'-12.50`,
      `2030-06-12,${activities.tea},Tea,Online shop,JPY,0,0,1500,1500,-1500,'-1500`,
    ]);
  });

  it('refuses a period backwards, too long or malformed (422 naming the field)', async () => {
    const url = (query: string) => `/api/v2/admin/reports/payments?${query}`;
    const backwards = problemOf(await call(t.app, op.adminKey, 'GET', url('From=2030-06-12&To=2030-06-10')), 422, 'validation');
    expect(backwards.errors?.[0]?.field).toBe('To');
    const long = problemOf(await call(t.app, op.adminKey, 'GET', url('From=2030-01-01&To=2031-01-03')), 422, 'validation');
    expect(long.errors?.[0]?.field).toBe('To');
    problemOf(await call(t.app, op.adminKey, 'GET', url('From=2030-02-30&To=2030-03-01')), 422, 'validation');
    problemOf(await call(t.app, op.adminKey, 'GET', url('To=2030-03-01')), 422, 'validation');
    problemOf(await call(t.app, op.adminKey, 'GET', '/api/v2/admin/reports/payments/export?From=x&To=2030-03-01'), 422, 'validation');
  });

  it('is read by those who read reports; the front desk is refused (403)', async () => {
    const manager = await userSession(t, op.operatorId, 'manager');
    expect((await as(t, manager, 'GET', '/api/v2/admin/reports/payments?From=2030-06-10&To=2030-06-12')).statusCode).toBe(200);
    const desk = await userSession(t, op.operatorId, 'front-desk');
    problemOf(await as(t, desk, 'GET', '/api/v2/admin/reports/payments?From=2030-06-10&To=2030-06-12'), 403, 'forbidden');
  });
});
