import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday, getTimeslot } from '../availability/fixtures.js';
import { addSeconds, unixNow } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;
let kayak: string;
let room: string;
const d1 = dateFromToday(20);
const d2 = dateFromToday(21);
const d3 = dateFromToday(22);
const refs: Record<string, string> = {};

interface Booking {
  BookingReference: string;
  Status: string;
  Source: string;
  Partner: string | null;
  Date: string;
  Time: string;
  Customer: { FirstName: string; LastName: string; Email: string };
}

const person = (FirstName: string, LastName: string, Email: string) => ({ FirstName, LastName, Email, Phone: '+4930123456' });
const list = async (query = '', key = op.adminKey) => {
  const response = await call(t.app, key, 'GET', `/api/v2/admin/bookings${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as Booking[];
};
const refsOf = (bookings: Booking[]) => bookings.map((b) => b.BookingReference);

async function partnerBooking(activityId: string, date: string, time: string, customer: ReturnType<typeof person>, extra: object = {}) {
  const response = await call(t.app, op.otaKey, 'POST', '/api/v2/ota/viator/booking', {
    ActivityID: activityId,
    Date: date,
    Time: time,
    Participants: 1,
    Customer: customer,
    ...extra,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.BookingReference as string;
}

async function posBooking(activityId: string, date: string, time: string, customer: ReturnType<typeof person>) {
  const response = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/bookings', {
    ActivityID: activityId,
    Date: date,
    Time: time,
    Participants: 2,
    Customer: customer,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response;
}

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  other = await t.newOperator();
  kayak = (await createActivity(t, op.adminKey, { Name: 'Kayak' })).ActivityID;
  room = (await createActivity(t, op.adminKey, { Name: 'Escape Room' })).ActivityID;
  for (const date of [d1, d2, d3]) {
    await createTimeslot(t, op.adminKey, kayak, { Date: date, Time: '09:00', Capacity: 10 });
    await createTimeslot(t, op.adminKey, kayak, { Date: date, Time: '15:00', Capacity: 10 });
    await createTimeslot(t, op.adminKey, room, { Date: date, Time: '12:00', Capacity: 10 });
  }
  // Made in an order different from the order they are listed in.
  refs.late = await partnerBooking(kayak, d2, '15:00', person('Ada', 'Lovelace', 'ada@example.com'));
  refs.early = await partnerBooking(kayak, d1, '09:00', person('Grace', 'Hopper', 'grace@navy.example'));
  refs.pos = (await posBooking(room, d1, '12:00', person('Alan', 'Turing', 'alan@bletchley.example'))).json().data.BookingReference;
  refs.sameSlot = await partnerBooking(kayak, d1, '09:00', person('Percent', '100%_off', 'promo@example.com'));
  refs.hold = await partnerBooking(room, d3, '12:00', person('Edsger', 'Dijkstra', 'ewd@example.com'), { HoldMinutes: 20 });
  refs.cancelled = await partnerBooking(kayak, d3, '09:00', person('Barbara', 'Liskov', 'liskov@mit.example'));
  await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${refs.cancelled}/cancel`);
  const theirs = (await createActivity(t, other.adminKey, { Name: 'Theirs' })).ActivityID;
  await createTimeslot(t, other.adminKey, theirs, { Date: d1, Time: '09:00', Capacity: 10 });
  const foreign = await call(t.app, other.otaKey, 'POST', '/api/v2/ota/viator/booking', {
    ActivityID: theirs,
    Date: d1,
    Time: '09:00',
    Participants: 1,
    Customer: person('Ada', 'Other', 'ada@other.example'),
  });
  refs.foreign = foreign.json().data.BookingReference;
});
afterAll(() => t.close());

describe('GET /api/v2/admin/bookings', () => {
  it("lists the operator's bookings of every source by Date, Time and CreatedAt", async () => {
    expect(refsOf(await list())).toEqual([refs.early, refs.sameSlot, refs.pos, refs.late, refs.cancelled, refs.hold]);
  });

  it('filters by the booked Date, Source, ActivityID and Status', async () => {
    expect(refsOf(await list(`?From=${d2}`))).toEqual([refs.late, refs.cancelled, refs.hold]);
    expect(refsOf(await list(`?From=${d1}&To=${d1}`))).toEqual([refs.early, refs.sameSlot, refs.pos]);
    expect(refsOf(await list('?Source=pos'))).toEqual([refs.pos]);
    expect(refsOf(await list('?Source=online'))).toEqual([]);
    expect(refsOf(await list(`?ActivityID=${room}`))).toEqual([refs.pos, refs.hold]);
    expect(refsOf(await list('?Status=cancelled'))).toEqual([refs.cancelled]);
    expect(refsOf(await list('?Status=on_hold'))).toEqual([refs.hold]);
    expect(refsOf(await list(`?Status=confirmed&ActivityID=${kayak}&To=${d1}`))).toEqual([refs.early, refs.sameSlot]);
  });

  it('searches reference, customer name and e-mail, in any case, with % and _ taken literally', async () => {
    expect(refsOf(await list('?Search=hopper'))).toEqual([refs.early]);
    expect(refsOf(await list('?Search=ADA%20LOVE'))).toEqual([refs.late]);
    expect(refsOf(await list('?Search=bletchley'))).toEqual([refs.pos]);
    expect(refsOf(await list(`?Search=${refs.hold!.slice(3).toLowerCase()}`))).toEqual([refs.hold]);
    expect(refsOf(await list('?Search=%25_off'))).toEqual([refs.sameSlot]);
    expect(refsOf(await list('?Search=_'))).toEqual([refs.sameSlot]);
    expect(refsOf(await list('?Search=nobody'))).toEqual([]);
  });

  it('pages with Limit and Offset', async () => {
    expect(refsOf(await list('?Limit=2'))).toEqual([refs.early, refs.sameSlot]);
    expect(refsOf(await list('?Limit=2&Offset=2'))).toEqual([refs.pos, refs.late]);
    expect(refsOf(await list('?Offset=10'))).toEqual([]);
  });

  it('shows a lapsed hold as expired, in the list and in the Status filter', async () => {
    const ref = await partnerBooking(room, d3, '12:00', person('Short', 'Hold', 'short@example.com'), { HoldMinutes: 1 });
    await t.db.kysely
      .updateTable('bookings')
      .set({ hold_expires_at: addSeconds(unixNow(), -1) })
      .where('reference', '=', ref)
      .execute();
    expect(refsOf(await list('?Status=expired'))).toEqual([ref]);
    expect(refsOf(await list('?Status=on_hold'))).toEqual([refs.hold]);
    expect((await list('?Search=short@')).map((b) => b.Status)).toEqual(['expired']);
  });

  it('is 422 naming each invalid query parameter', async () => {
    const fields = async (query: string) =>
      problemOf(await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings${query}`), 422, 'validation').errors!.map((e) => e.field);
    expect(await fields('?From=2031-02-30')).toEqual(['From']);
    expect(await fields(`?From=${d2}&To=${d1}`)).toEqual(['To']);
    expect(await fields('?Source=phone&Status=paid')).toEqual(['Source', 'Status']);
    expect(await fields('?ActivityID=kayak')).toEqual(['ActivityID']);
    expect(await fields('?Limit=501')).toEqual(['Limit']);
    expect(await fields('?Limit=0&Offset=-1')).toEqual(['Limit', 'Offset']);
    expect(await fields('?Search=%00')).toEqual(['Search']);
  });

  it("never shows another operator's bookings, and needs the admin scope", async () => {
    expect(refsOf(await list('?Search=ada'))).toEqual([refs.late]);
    expect(refsOf(await list('', other.adminKey))).toEqual([refs.foreign]);
    problemOf(await call(t.app, op.otaKey, 'GET', '/api/v2/admin/bookings'), 403, 'forbidden');
    problemOf(await call(t.app, undefined, 'GET', '/api/v2/admin/bookings'), 401, 'unauthenticated');
  });
});

describe('POST /api/v2/admin/bookings (point of sale)', () => {
  it('books with Source pos and no Partner, confirmed at once even if HoldMinutes is sent', async () => {
    const date = dateFromToday(30);
    const slot = await createTimeslot(t, op.adminKey, kayak, { Date: date, Time: '09:00', Capacity: 3 });
    const response = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/bookings', {
      ActivityID: kayak,
      Date: date,
      Time: '09:00',
      Participants: 2,
      Customer: person('Walk', 'In', 'walk@in.example'),
      HoldMinutes: 5,
      PaymentReference: 'till-7',
    });
    expect(response.statusCode, response.body).toBe(201);
    const booking = response.json().data;
    expect(booking).toMatchObject({ Source: 'pos', Partner: null, Status: 'confirmed', HoldExpiresAt: null, PaymentReference: 'till-7' });
    expect(response.headers.location).toBe(`/api/v2/admin/bookings/${booking.BookingReference}`);
    expect((await getTimeslot(t, op.adminKey, slot.ID)).Booked).toBe(2);
    const overbook = { ActivityID: kayak, Date: date, Time: '09:00', Participants: 2, Customer: person('Walk', 'In', 'walk@in.example') };
    problemOf(await call(t.app, op.adminKey, 'POST', '/api/v2/admin/bookings', overbook), 409, 'insufficient-capacity');
  });

  it('applies the same validation and existence rules as a partner booking', async () => {
    const invalid = problemOf(
      await call(t.app, op.adminKey, 'POST', '/api/v2/admin/bookings', { ActivityID: kayak, Date: d1, Time: '09:00', Participants: 0 }),
      422,
      'validation',
    );
    expect(invalid.errors!.map((e) => e.field).sort()).toEqual(['Customer', 'Participants']);
    const missing = { ActivityID: kayak, Date: d1, Time: '10:00', Participants: 1, Customer: person('A', 'B', 'a@b.example') };
    problemOf(await call(t.app, op.adminKey, 'POST', '/api/v2/admin/bookings', missing), 404, 'not-found');
    problemOf(await call(t.app, other.adminKey, 'POST', '/api/v2/admin/bookings', { ...missing, Time: '09:00' }), 404, 'not-found');
  });
});

describe('GET /api/v2/admin/bookings/{BookingReference} and cancel', () => {
  it('reads and cancels bookings of every source; a repeated cancel answers the same', async () => {
    const read = await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${refs.early}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toMatchObject({ BookingReference: refs.early, Source: 'partner', Partner: 'viator', Date: d1, Time: '09:00' });
    const cancelled = await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${refs.pos}/cancel`);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().data.Status).toBe('cancelled');
    expect((await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${refs.pos}/cancel`)).json()).toEqual(cancelled.json());
  });

  it("is 404 for another operator's booking and 400 for a malformed reference", async () => {
    problemOf(await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${refs.foreign}`), 404, 'not-found');
    problemOf(await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${refs.foreign}/cancel`), 404, 'not-found');
    expect((await call(t.app, other.adminKey, 'GET', `/api/v2/admin/bookings/${refs.foreign}`)).json().data.Status).toBe('confirmed');
    problemOf(await call(t.app, op.adminKey, 'GET', '/api/v2/admin/bookings/bk-abc'), 400, 'bad-request');
  });
});
