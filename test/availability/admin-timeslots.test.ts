import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { addDays, createActivity, createTimeslot, dateFromToday, futureSpringYear, lastSundayOfMarch, type AdminTimeslot } from './fixtures.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;
let activityId: string;
let foreignActivityId: string;

const post = (body: unknown, id = activityId, key = op.adminKey) => call(t.app, key, 'POST', `/api/v2/admin/activities/${id}/timeslots`, body);
const fieldsOf = (problem: { errors?: { field: string }[] }) => problem.errors!.map((e) => e.field);

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  other = await t.newOperator();
  activityId = (await createActivity(t, op.adminKey, { DurationMinutes: 90 })).ActivityID;
  foreignActivityId = (await createActivity(t, other.adminKey, { Name: 'Foreign' })).ActivityID;
});
afterAll(() => t.close());

describe('POST /api/v2/admin/activities/{ActivityID}/timeslots: one timeslot', () => {
  it('creates it (201) with its ID, a Location, wall-clock times and its instant', async () => {
    const date = dateFromToday(30);
    const response = await post({ Date: date, Time: '10:00', Capacity: 8 });
    expect(response.statusCode, response.body).toBe(201);
    const slot = response.json().data as AdminTimeslot;
    expect(slot).toEqual({
      ID: expect.any(Number),
      ActivityID: activityId,
      Date: date,
      Time: '10:00',
      EndTime: '11:30',
      StartsAt: expect.stringMatching(new RegExp(`^${date}T10:00:00\\+0[12]:00$`)),
      Capacity: 8,
      Booked: 0,
      Available: 8,
      Free: 8,
      CancelledAt: null,
    });
    expect(response.headers.location).toBe(`/api/v2/admin/timeslots/${slot.ID}`);
    const read = await call(t.app, op.adminKey, 'GET', `/api/v2/admin/timeslots/${slot.ID}`);
    expect(read.json().data).toEqual(slot);
  });

  it('is 409 for a date and time the activity already has', async () => {
    const date = dateFromToday(31);
    await createTimeslot(t, op.adminKey, activityId, { Date: date, Time: '10:00', Capacity: 8 });
    problemOf(await post({ Date: date, Time: '10:00', Capacity: 3 }), 409, 'conflict');
  });

  it('may lie in the past (for the record), where it has no seats to sell', async () => {
    const slot = await createTimeslot(t, op.adminKey, activityId, { Date: dateFromToday(-3), Time: '09:00', Capacity: 4 });
    expect(slot.Available).toBe(0);
    expect(slot.Free).toBe(4);
  });

  it('is 422 on Time for a wall-clock time the clocks skip (daylight saving)', async () => {
    const problem = problemOf(await post({ Date: lastSundayOfMarch(futureSpringYear()), Time: '02:30', Capacity: 4 }), 422, 'validation');
    expect(fieldsOf(problem)).toEqual(['Time']);
  });

  it('is 422 naming every invalid field', async () => {
    const bad = problemOf(await post({ Date: '2031-02-30', Time: '24:00', Capacity: 0 }), 422, 'validation');
    expect(fieldsOf(bad).sort()).toEqual(['Capacity', 'Date', 'Time']);
    expect(fieldsOf(problemOf(await post({ Date: dateFromToday(5), Time: '10:00' }), 422, 'validation'))).toEqual(['Capacity']);
    expect(fieldsOf(problemOf(await post({ Capacity: 5 }), 422, 'validation'))).toEqual(['Date', 'Time']);
    expect(fieldsOf(problemOf(await post({ Date: dateFromToday(5), Capacity: 5 }), 422, 'validation'))).toEqual(['Time']);
    expect(fieldsOf(problemOf(await post({ Date: dateFromToday(5), Time: '10:00', Capacity: '5' }), 422, 'validation'))).toEqual(['Capacity']);
  });
});

describe('POST /api/v2/admin/activities/{ActivityID}/timeslots: a schedule', () => {
  it('creates a timeslot at each time on each chosen weekday, skipping existing ones, and lists only what it created', async () => {
    const monday = (() => {
      let date = dateFromToday(60);
      while (new Date(`${date}T00:00:00Z`).getUTCDay() !== 1) date = addDays(date, 1);
      return date;
    })();
    await createTimeslot(t, op.adminKey, activityId, { Date: monday, Time: '14:00', Capacity: 2 });
    const response = await post({ From: monday, To: addDays(monday, 13), Weekdays: [1, 3], Times: ['14:00', '09:00'], Capacity: 6 });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json().data as AdminTimeslot[];
    const wed = addDays(monday, 2);
    const monday2 = addDays(monday, 7);
    const wed2 = addDays(monday, 9);
    expect(created.map((s) => `${s.Date} ${s.Time}`)).toEqual([
      `${monday} 09:00`,
      `${wed} 09:00`,
      `${wed} 14:00`,
      `${monday2} 09:00`,
      `${monday2} 14:00`,
      `${wed2} 09:00`,
      `${wed2} 14:00`,
    ]);
    expect(created.every((s) => s.Capacity === 6 && s.ID > 0)).toBe(true);
    const again = await post({ From: monday, To: addDays(monday, 13), Weekdays: [1, 3], Times: ['09:00', '14:00'], Capacity: 6 });
    expect(again.statusCode).toBe(201);
    expect(again.json().data).toEqual([]);
  });

  it('leaves out the time the clocks skip on the spring-forward Sunday', async () => {
    const sunday = lastSundayOfMarch(futureSpringYear());
    const response = await post({
      From: addDays(sunday, -1),
      To: addDays(sunday, 1),
      Weekdays: [1, 2, 3, 4, 5, 6, 7],
      Times: ['02:30'],
      Capacity: 3,
    });
    expect(response.statusCode).toBe(201);
    const created = response.json().data as AdminTimeslot[];
    expect(created.map((s) => s.Date)).toEqual([addDays(sunday, -1), addDays(sunday, 1)]);
    expect(created.map((s) => s.StartsAt)).toEqual([`${addDays(sunday, -1)}T02:30:00+01:00`, `${addDays(sunday, 1)}T02:30:00+02:00`]);
  });

  it('is 422 for a reversed range, a range over 366 days, bad weekdays or times, or a mix of both shapes', async () => {
    const from = dateFromToday(10);
    const base = { From: from, To: addDays(from, 7), Weekdays: [1], Times: ['10:00'], Capacity: 2 };
    expect(fieldsOf(problemOf(await post({ ...base, To: addDays(from, -1) }), 422, 'validation'))).toEqual(['To']);
    expect(fieldsOf(problemOf(await post({ ...base, To: addDays(from, 367) }), 422, 'validation'))).toEqual(['To']);
    expect(fieldsOf(problemOf(await post({ ...base, Weekdays: [0, 8] }), 422, 'validation'))).toEqual(['Weekdays[0]', 'Weekdays[1]']);
    expect(fieldsOf(problemOf(await post({ ...base, Weekdays: [] }), 422, 'validation'))).toEqual(['Weekdays']);
    expect(fieldsOf(problemOf(await post({ ...base, Times: ['9:00'] }), 422, 'validation'))).toEqual(['Times[0]']);
    expect(fieldsOf(problemOf(await post({ ...base, Times: undefined }), 422, 'validation'))).toEqual(['Times']);
    expect(fieldsOf(problemOf(await post({ ...base, Date: from }), 422, 'validation'))).toEqual(['From', 'To', 'Weekdays', 'Times']);
  });
});

describe('GET /api/v2/admin/activities/{ActivityID}/timeslots', () => {
  it('lists the timeslots from From to To by start, with seats booked and free', async () => {
    const id = (await createActivity(t, op.adminKey, { Name: 'Listing' })).ActivityID;
    const date = dateFromToday(20);
    await createTimeslot(t, op.adminKey, id, { Date: addDays(date, 1), Time: '09:00', Capacity: 3 });
    await createTimeslot(t, op.adminKey, id, { Date: date, Time: '15:00', Capacity: 2 });
    await createTimeslot(t, op.adminKey, id, { Date: date, Time: '08:00', Capacity: 1 });
    await createTimeslot(t, op.adminKey, id, { Date: addDays(date, 2), Time: '09:00', Capacity: 3 });
    const response = await call(t.app, op.adminKey, 'GET', `/api/v2/admin/activities/${id}/timeslots?From=${date}&To=${addDays(date, 1)}`);
    expect(response.statusCode).toBe(200);
    const slots = response.json().data as AdminTimeslot[];
    expect(slots.map((s) => `${s.Date} ${s.Time} ${s.Capacity}/${s.Booked}/${s.Free}`)).toEqual([
      `${date} 08:00 1/0/1`,
      `${date} 15:00 2/0/2`,
      `${addDays(date, 1)} 09:00 3/0/3`,
    ]);
  });

  it('still shows the timeslots of an archived activity to its operator', async () => {
    const id = (await createActivity(t, op.adminKey, { Name: 'Archived' })).ActivityID;
    const date = dateFromToday(20);
    await createTimeslot(t, op.adminKey, id, { Date: date, Time: '09:00', Capacity: 3 });
    await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${id}`, { Archived: true });
    const response = await call(t.app, op.adminKey, 'GET', `/api/v2/admin/activities/${id}/timeslots?From=${date}&To=${date}`);
    expect(response.json().data).toHaveLength(1);
  });

  it('is 422 naming missing or invalid From and To', async () => {
    const url = `/api/v2/admin/activities/${activityId}/timeslots`;
    expect(fieldsOf(problemOf(await call(t.app, op.adminKey, 'GET', url), 422, 'validation')).sort()).toEqual(['From', 'To']);
    expect(fieldsOf(problemOf(await call(t.app, op.adminKey, 'GET', `${url}?From=2031-02-29&To=2031-03-01`), 422, 'validation'))).toEqual(['From']);
    expect(fieldsOf(problemOf(await call(t.app, op.adminKey, 'GET', `${url}?From=2031-03-02&To=2031-03-01`), 422, 'validation'))).toEqual(['To']);
  });
});

describe('PATCH /api/v2/admin/timeslots/{ID}', () => {
  it('changes the capacity, down to 0 to close the timeslot', async () => {
    const slot = await createTimeslot(t, op.adminKey, activityId, { Date: dateFromToday(40), Time: '10:00', Capacity: 5 });
    const response = await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/timeslots/${slot.ID}`, { Capacity: 12 });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ ID: slot.ID, Capacity: 12, Available: 12 });
    const closed = await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/timeslots/${slot.ID}`, { Capacity: 0 });
    expect(closed.json().data).toMatchObject({ Capacity: 0, Available: 0 });
  });

  it('is 422 for a missing or negative capacity and 400 for a malformed ID', async () => {
    const slot = await createTimeslot(t, op.adminKey, activityId, { Date: dateFromToday(41), Time: '10:00', Capacity: 5 });
    expect(
      fieldsOf(problemOf(await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/timeslots/${slot.ID}`, { Capacity: -1 }), 422, 'validation')),
    ).toEqual(['Capacity']);
    expect(fieldsOf(problemOf(await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/timeslots/${slot.ID}`, {}), 422, 'validation'))).toEqual([
      'Capacity',
    ]);
    problemOf(await call(t.app, op.adminKey, 'PATCH', '/api/v2/admin/timeslots/abc', { Capacity: 3 }), 400, 'bad-request');
    for (const id of ['0', '-1', '2147483648', '1e309', '9007199254740993']) {
      problemOf(await call(t.app, op.adminKey, 'GET', `/api/v2/admin/timeslots/${id}`), 400, 'bad-request');
    }
  });
});

describe('tenancy and access', () => {
  it("is 404 for another operator's activity or timeslot, and for unknown ones", async () => {
    const date = dateFromToday(25);
    problemOf(await post({ Date: date, Time: '10:00', Capacity: 1 }, foreignActivityId), 404, 'not-found');
    problemOf(await post({ Date: date, Time: '10:00', Capacity: 1 }, 's_UnknownActivity1'), 404, 'not-found');
    problemOf(
      await call(t.app, op.adminKey, 'GET', `/api/v2/admin/activities/${foreignActivityId}/timeslots?From=${date}&To=${date}`),
      404,
      'not-found',
    );
    const foreignSlot = await createTimeslot(t, other.adminKey, foreignActivityId, { Date: date, Time: '10:00', Capacity: 5 });
    problemOf(await call(t.app, op.adminKey, 'GET', `/api/v2/admin/timeslots/${foreignSlot.ID}`), 404, 'not-found');
    problemOf(await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/timeslots/${foreignSlot.ID}`, { Capacity: 1 }), 404, 'not-found');
    problemOf(await call(t.app, op.adminKey, 'GET', '/api/v2/admin/timeslots/999999'), 404, 'not-found');
    expect((await call(t.app, other.adminKey, 'GET', `/api/v2/admin/timeslots/${foreignSlot.ID}`)).json().data.Capacity).toBe(5);
  });

  it('is 400 for a malformed ActivityID, 401 without a key and 403 for a key without the admin scope', async () => {
    problemOf(await post({ Date: dateFromToday(5), Time: '10:00', Capacity: 1 }, 'kayak'), 400, 'bad-request');
    problemOf(await post({ Date: dateFromToday(5), Time: '10:00', Capacity: 1 }, activityId, ''), 401, 'unauthenticated');
    problemOf(await post({ Date: dateFromToday(5), Time: '10:00', Capacity: 1 }, activityId, op.otaKey), 403, 'forbidden');
    problemOf(await call(t.app, op.otaKey, 'PATCH', '/api/v2/admin/timeslots/1', { Capacity: 1 }), 403, 'forbidden');
  });
});
