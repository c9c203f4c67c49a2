// Reports: the totals per day, activity and channel checked against bookings this test creates (several
// activities, currencies, marketplaces, a cancelled booking and a hold, time zones at day boundaries),
// tenant isolation, the period rules, the report CSV and the bookings list's CSV export with its filters.
// (A phone number's leading + gets the apostrophe too: spreadsheets would read +44... as a formula.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { addDays, createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer } from '../emails/fixtures.js';
import { as, userSession } from '../staff/fixtures.js';

let t: TestApp;
let op: TestOperator;
let gygKey: string;
const D = dateFromToday(20);
const D1 = addDays(D, 1);
const activities: Record<string, string> = {};
const _created: { reference: string; activity: string; date: string; guests: number; revenue: number; currency: string; channel: string }[] = [];

async function booking(key: string, url: string, activity: string, date: string, time: string, participants: number, who = customer()) {
  const response = await call(t.app, key, 'POST', url, {
    ActivityID: activities[activity],
    Date: date,
    Time: time,
    Participants: participants,
    Customer: who,
  });
  expect(response.statusCode, response.body).toBe(201);
  const data = response.json().data;
  expect(data.Status).toBe('confirmed');
  return data as { BookingReference: string; Total: number; Currency: string };
}

const pos = (activity: string, date: string, time: string, n: number, who = customer()) =>
  booking(op.adminKey, '/api/v2/admin/bookings', activity, date, time, n, who);
const viator = (activity: string, date: string, time: string, n: number) =>
  booking(op.otaKey, `/api/v2/ota/${op.partner}/booking`, activity, date, time, n);
const gyg = (activity: string, date: string, time: string, n: number) => booking(gygKey, '/api/v2/ota/getyourguide/booking', activity, date, time, n);

const report = async (from: string, to: string, key = op.adminKey) => {
  const response = await call(t.app, key, 'GET', `/api/v2/admin/reports/bookings?From=${from}&To=${to}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
};

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator('Fjord Kayaks');
  const key = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/keys', { Name: 'GYG', Scopes: ['ota'], Partner: 'getyourguide' });
  expect(key.statusCode, key.body).toBe(201);
  gygKey = key.json().data.Key;
  // Berlin kayak in EUR, Tokyo walk in JPY (no minor unit), a Honolulu night tour in USD whose 23:30 start
  // is already the next day in UTC, and an Auckland sunrise tour whose 00:30 start is the previous UTC day.
  activities.kayak = (
    await createActivity(t, op.adminKey, { Name: 'Kayak', UnitPrice: 1250, Currency: 'EUR', MaxParticipantsPerBooking: 20 })
  ).ActivityID;
  activities.walk = (
    await createActivity(t, op.adminKey, { Name: 'Walk', UnitPrice: 3000, Currency: 'JPY', Timezone: 'Asia/Tokyo', MaxParticipantsPerBooking: 20 })
  ).ActivityID;
  activities.night = (
    await createActivity(t, op.adminKey, {
      Name: 'Night',
      UnitPrice: 999,
      Currency: 'USD',
      Timezone: 'Pacific/Honolulu',
      MaxParticipantsPerBooking: 20,
    })
  ).ActivityID;
  activities.sunrise = (
    await createActivity(t, op.adminKey, {
      Name: 'Sunrise',
      UnitPrice: 5000,
      Currency: 'EUR',
      Timezone: 'Pacific/Auckland',
      MaxParticipantsPerBooking: 20,
    })
  ).ActivityID;
  for (const date of [D, D1]) {
    await createTimeslot(t, op.adminKey, activities.kayak!, { Date: date, Time: '10:00', Capacity: 100 });
    await createTimeslot(t, op.adminKey, activities.walk!, { Date: date, Time: '09:00', Capacity: 100 });
  }
  await createTimeslot(t, op.adminKey, activities.night!, { Date: D, Time: '23:30', Capacity: 100 });
  await createTimeslot(t, op.adminKey, activities.sunrise!, { Date: D1, Time: '00:30', Capacity: 100 });

  await pos('kayak', D, '10:00', 2); // 2500 EUR
  await viator('kayak', D, '10:00', 3); // 3750 EUR
  await gyg('kayak', D1, '10:00', 1); // 1250 EUR
  await pos('walk', D, '09:00', 4); // 12000 JPY
  await viator('walk', D1, '09:00', 1); // 3000 JPY
  await pos('night', D, '23:30', 3); // 2997 USD
  await gyg('sunrise', D1, '00:30', 2); // 10000 EUR
  const cancelled = await pos('kayak', D, '10:00', 5, customer('Cancelled'));
  expect((await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${cancelled.BookingReference}/cancel`)).statusCode).toBe(200);
  // A hold counts nowhere.
  const hold = await call(t.app, op.otaKey, `POST`, `/api/v2/ota/${op.partner}/booking`, {
    ActivityID: activities.kayak,
    Date: D,
    Time: '10:00',
    Participants: 7,
    Customer: customer(),
    HoldMinutes: 30,
  });
  expect(hold.json().data.Status, hold.body).toBe('on_hold');
  // Another operator's bookings of the same dates never show.
  const other = await t.newOperator('Elsewhere');
  const elsewhere = (await createActivity(t, other.adminKey, { Name: 'Kayak', UnitPrice: 100000 })).ActivityID;
  await createTimeslot(t, other.adminKey, elsewhere, { Date: D, Time: '10:00', Capacity: 10 });
  expect(
    (
      await call(t.app, other.adminKey, 'POST', '/api/v2/admin/bookings', {
        ActivityID: elsewhere,
        Date: D,
        Time: '10:00',
        Participants: 9,
        Customer: customer(),
      })
    ).statusCode,
  ).toBe(201);
});
afterAll(() => t.close());

describe('bookings report', () => {
  it('totals, per day, per activity and per channel match the bookings made; currencies are never mixed', async () => {
    const data = await report(D, D1);
    expect(data.Totals).toEqual({
      Bookings: 7,
      Guests: 16,
      CancelledBookings: 1,
      Revenue: [
        { Currency: 'EUR', Amount: 2500 + 3750 + 1250 + 10000 },
        { Currency: 'JPY', Amount: 15000 },
        { Currency: 'USD', Amount: 2997 },
      ],
    });
    expect(data.ByDay).toEqual([
      {
        Key: D,
        Label: D,
        Bookings: 4,
        Guests: 12,
        CancelledBookings: 1,
        Revenue: [
          { Currency: 'EUR', Amount: 6250 },
          { Currency: 'JPY', Amount: 12000 },
          { Currency: 'USD', Amount: 2997 },
        ],
      },
      {
        Key: D1,
        Label: D1,
        Bookings: 3,
        Guests: 4,
        CancelledBookings: 0,
        Revenue: [
          { Currency: 'EUR', Amount: 11250 },
          { Currency: 'JPY', Amount: 3000 },
        ],
      },
    ]);
    const byActivity = Object.fromEntries(data.ByActivity.map((g: { Label: string }) => [g.Label, g]));
    expect(byActivity.Kayak).toMatchObject({
      Key: activities.kayak,
      Bookings: 3,
      Guests: 6,
      CancelledBookings: 1,
      Revenue: [{ Currency: 'EUR', Amount: 7500 }],
    });
    expect(byActivity.Walk).toMatchObject({ Bookings: 2, Guests: 5, Revenue: [{ Currency: 'JPY', Amount: 15000 }] });
    expect(data.ByChannel).toEqual(
      [
        {
          Key: 'partner:viator',
          Label: 'viator',
          Bookings: 2,
          Guests: 4,
          CancelledBookings: 0,
          Revenue: [
            { Currency: 'EUR', Amount: 3750 },
            { Currency: 'JPY', Amount: 3000 },
          ],
        },
        {
          Key: 'partner:getyourguide',
          // A key's marketplace is named as the operator named it; GetYourGuide's own bookings are `GetYourGuide`.
          Label: 'getyourguide',
          Bookings: 2,
          Guests: 3,
          CancelledBookings: 0,
          Revenue: [{ Currency: 'EUR', Amount: 11250 }],
        },
        {
          Key: 'pos',
          Label: 'Point of sale',
          Bookings: 3,
          Guests: 9,
          CancelledBookings: 1,
          Revenue: [
            { Currency: 'EUR', Amount: 2500 },
            { Currency: 'JPY', Amount: 12000 },
            { Currency: 'USD', Amount: 2997 },
          ],
        },
      ].sort((a, b) => b.Bookings - a.Bookings || a.Label.localeCompare(b.Label)),
    );
  });

  it("the activity's own time zone decides the day, not UTC", async () => {
    // Honolulu 23:30 on D is D+1 in UTC; Auckland 00:30 on D+1 is D in UTC: each counts on its local date.
    const first = await report(D, D);
    expect(first.ByActivity.map((g: { Label: string }) => g.Label).sort()).toEqual(['Kayak', 'Night', 'Walk']);
    const second = await report(D1, D1);
    expect(second.ByActivity.map((g: { Label: string }) => g.Label).sort()).toEqual(['Kayak', 'Sunrise', 'Walk']);
    expect(second.Rows.find((r: { Activity: string }) => r.Activity === 'Sunrise')).toMatchObject({
      Date: D1,
      Channel: 'partner:getyourguide',
      Currency: 'EUR',
      Revenue: 10000,
      Guests: 2,
    });
  });

  it('lists every day of the period, also empty ones, and nothing outside it', async () => {
    const data = await report(addDays(D, -2), addDays(D, -1));
    expect(data.ByDay.map((d: { Key: string; Bookings: number }) => [d.Key, d.Bookings])).toEqual([
      [addDays(D, -2), 0],
      [addDays(D, -1), 0],
    ]);
    expect(data.Totals).toEqual({ Bookings: 0, Guests: 0, CancelledBookings: 0, Revenue: [] });
    expect(data.Rows).toEqual([]);
  });

  it('refuses a period backwards, too long or malformed (422 naming the field)', async () => {
    const backwards = problemOf(await call(t.app, op.adminKey, 'GET', `/api/v2/admin/reports/bookings?From=${D1}&To=${D}`), 422, 'validation');
    expect(backwards.errors?.[0]?.field).toBe('To');
    const long = problemOf(await call(t.app, op.adminKey, 'GET', `/api/v2/admin/reports/bookings?From=2030-01-01&To=2031-01-03`), 422, 'validation');
    expect(long.errors?.[0]?.field).toBe('To');
    expect((await call(t.app, op.adminKey, 'GET', '/api/v2/admin/reports/bookings?From=2030-01-01&To=2031-01-02')).statusCode).toBe(200);
    problemOf(await call(t.app, op.adminKey, 'GET', '/api/v2/admin/reports/bookings?From=2030-02-30&To=2030-03-01'), 422, 'validation');
    problemOf(await call(t.app, op.adminKey, 'GET', '/api/v2/admin/reports/bookings?To=2030-03-01'), 422, 'validation');
    problemOf(await call(t.app, op.adminKey, 'GET', '/api/v2/admin/reports/bookings/export?From=x&To=2030-03-01'), 422, 'validation');
  });

  it('is for roles with reports:read: a manager reads it, front desk gets 403', async () => {
    const manager = await userSession(t, op.operatorId, 'manager');
    expect((await as(t, manager, 'GET', `/api/v2/admin/reports/bookings?From=${D}&To=${D1}`)).json().data.Totals.Bookings).toBe(7);
    const desk = await userSession(t, op.operatorId, 'front-desk');
    problemOf(await as(t, desk, 'GET', `/api/v2/admin/reports/bookings?From=${D}&To=${D1}`), 403, 'forbidden');
    expect((await call(t.app, undefined, 'GET', `/api/v2/admin/reports/bookings?From=${D}&To=${D1}`)).statusCode).toBe(401);
  });

  it('exports the rows as CSV: one line per date, activity, channel and currency, exact amounts', async () => {
    const response = await call(t.app, op.adminKey, 'GET', `/api/v2/admin/reports/bookings/export?From=${D}&To=${D1}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="bookings-report-${D}-to-${D1}.csv"`);
    const lines = response.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Date,ActivityID,Activity,Channel,Bookings,Guests,CancelledBookings,Currency,RevenueMinorUnits,Revenue');
    expect(lines).toContain(`${D},${activities.kayak},Kayak,Point of sale,1,2,1,EUR,2500,25.00`);
    expect(lines).toContain(`${D},${activities.walk},Walk,Point of sale,1,4,0,JPY,12000,12000`);
    expect(lines).toContain(`${D},${activities.night},Night,Point of sale,1,3,0,USD,2997,29.97`);
    expect(lines).toContain(`${D1},${activities.sunrise},Sunrise,getyourguide,1,2,0,EUR,10000,100.00`);
    expect(lines.length).toBe(1 + 7); // the cancelled Kayak booking shares its line with the confirmed one
  });

  it('neutralises formulas in CSV cells (an activity named like a formula)', async () => {
    const other = await t.newOperator();
    const activity = (await createActivity(t, other.adminKey, { Name: '=HYPERLINK("http://evil.example","x")', UnitPrice: 100 })).ActivityID;
    await createTimeslot(t, other.adminKey, activity, { Date: D, Time: '10:00', Capacity: 5 });
    await call(t.app, other.adminKey, 'POST', '/api/v2/admin/bookings', {
      ActivityID: activity,
      Date: D,
      Time: '10:00',
      Participants: 1,
      Customer: customer('@cmd'),
    });
    const body = (await call(t.app, other.adminKey, 'GET', `/api/v2/admin/reports/bookings/export?From=${D}&To=${D}`)).body;
    expect(body).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    const bookings = (await call(t.app, other.adminKey, 'GET', `/api/v2/admin/bookings/export?From=${D}`)).body;
    expect(bookings).toContain(",'@cmd,");
  });

  it('neutralises the fullwidth signs too, which some spreadsheets read as = + - @ (issue 23, finding 8)', async () => {
    const other = await t.newOperator();
    const activity = (await createActivity(t, other.adminKey, { Name: '＝HYPERLINK("http://evil.example","x")', UnitPrice: 100 })).ActivityID;
    await createTimeslot(t, other.adminKey, activity, { Date: D, Time: '10:00', Capacity: 5 });
    const booked = await call(t.app, other.adminKey, 'POST', '/api/v2/admin/bookings', {
      ActivityID: activity,
      Date: D,
      Time: '10:00',
      Participants: 1,
      Customer: { ...customer('＋cmd'), LastName: '－1+1' },
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const report = (await call(t.app, other.adminKey, 'GET', `/api/v2/admin/reports/bookings/export?From=${D}&To=${D}`)).body;
    expect(report).toContain(`"'＝HYPERLINK(""http://evil.example"",""x"")"`);
    const bookings = (await call(t.app, other.adminKey, 'GET', `/api/v2/admin/bookings/export?From=${D}`)).body;
    expect(bookings).toContain(",'＋cmd,'－1+1,");
  });
});

describe('bookings list export', () => {
  it("exports every booking matching the list's filters, in the list's order, as CSV", async () => {
    const all = await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/export?From=${D}&To=${D1}`);
    expect(all.statusCode).toBe(200);
    expect(all.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(all.headers['content-disposition']).toMatch(/^attachment; filename="bookings-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = all.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'BookingReference,Status,Source,Partner,ActivityID,Date,Time,Participants,Tickets,Currency,Total,FirstName,LastName,Email,Phone,WaiverStatus,PaymentReference,CreatedAt',
    );
    const list = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings?From=${D}&To=${D1}`)).json().data as { BookingReference: string }[];
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(list.map((b) => b.BookingReference));
    expect(lines.length - 1).toBe(9); // 7 confirmed, 1 cancelled, 1 on hold

    const filtered = await call(
      t.app,
      op.adminKey,
      'GET',
      `/api/v2/admin/bookings/export?From=${D}&To=${D}&Source=pos&Status=confirmed&ActivityID=${activities.walk}`,
    );
    const rows = filtered.body.trimEnd().split('\r\n').slice(1);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(
      new RegExp(`^BK-[A-Z0-9]{8},confirmed,pos,,${activities.walk},${D},09:00,4,4 × [^,]+,JPY,12000,Ada,Lovelace,ada@example.com,'\\+441234567890,`),
    );
    const cancelled = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/export?Status=cancelled&Search=cancelled`)).body
      .trimEnd()
      .split('\r\n');
    expect(cancelled).toHaveLength(2);
    expect(cancelled[1]).toContain(',cancelled,pos,,');
  });

  it('pages through more bookings than one list page holds', async () => {
    const other = await t.newOperator();
    const activity = (await createActivity(t, other.adminKey, { Name: 'Busy', MaxParticipantsPerBooking: 5 })).ActivityID;
    await createTimeslot(t, other.adminKey, activity, { Date: D, Time: '08:00', Capacity: 1000 });
    for (let i = 0; i < 503; i++) {
      const response = await call(t.app, other.adminKey, 'POST', '/api/v2/admin/bookings', {
        ActivityID: activity,
        Date: D,
        Time: '08:00',
        Participants: 1,
        Customer: customer(`G${i}`),
      });
      expect(response.statusCode).toBe(201);
    }
    const body = (await call(t.app, other.adminKey, 'GET', '/api/v2/admin/bookings/export?Status=confirmed')).body;
    const references = body
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(',')[0]);
    expect(references).toHaveLength(503);
    expect(new Set(references).size).toBe(503);
  }, 120_000);

  it('refuses bad filters with 422 before any CSV is sent', async () => {
    const bad = problemOf(await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/export?From=${D1}&To=${D}`), 422, 'validation');
    expect(bad.errors?.[0]?.field).toBe('To');
    problemOf(await call(t.app, op.adminKey, 'GET', '/api/v2/admin/bookings/export?Status=lost'), 422, 'validation');
  });
});
