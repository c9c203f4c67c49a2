import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import {
  addDays,
  createActivity,
  createTimeslot,
  dateFromToday,
  firstSundayOfNovember,
  futureSpringYear,
  lastSundayOfMarch,
  secondSundayOfMarch,
} from './fixtures.js';
import { addSeconds, unixNow } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;
let activityId: string;

const get = (path: string, key = op.otaKey, partner = 'viator') => call(t.app, key, 'GET', `/api/v2/ota/${partner}/availability/${path}`);
const fieldsOf = (problem: { errors?: { field: string }[] }) => problem.errors!.map((e) => e.field);

async function book(id: string, date: string, time: string, participants: number) {
  const response = await call(t.app, op.otaKey, 'POST', '/api/v2/ota/viator/booking', {
    ActivityID: id,
    Date: date,
    Time: time,
    Participants: participants,
    Customer: { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: '+441234567890' },
  });
  expect(response.statusCode, response.body).toBe(201);
}

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  other = await t.newOperator();
  activityId = (await createActivity(t, op.adminKey, { DurationMinutes: 60 })).ActivityID;
});
afterAll(() => t.close());

describe('GET /api/v2/ota/{partner}/availability/{ActivityID}/timeslots', () => {
  it('lists every timeslot of the date by Time, sold-out ones with Available 0', async () => {
    const date = dateFromToday(10);
    await createTimeslot(t, op.adminKey, activityId, { Date: date, Time: '14:00', Capacity: 6 });
    await createTimeslot(t, op.adminKey, activityId, { Date: date, Time: '09:30', Capacity: 2 });
    await createTimeslot(t, op.adminKey, activityId, { Date: addDays(date, 1), Time: '09:30', Capacity: 9 });
    await book(activityId, date, '09:30', 2);
    await book(activityId, date, '14:00', 1);
    const response = await get(`${activityId}/timeslots?Date=${date}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toEqual([
      {
        Time: '09:30',
        EndTime: '10:30',
        StartsAt: expect.stringMatching(new RegExp(`^${date}T09:30:00\\+0[12]:00$`)),
        Capacity: 2,
        Booked: 2,
        Available: 0,
      },
      {
        Time: '14:00',
        EndTime: '15:00',
        StartsAt: expect.stringMatching(new RegExp(`^${date}T14:00:00\\+0[12]:00$`)),
        Capacity: 6,
        Booked: 1,
        Available: 5,
      },
    ]);
  });

  it('shows a timeslot that has started with Available 0', async () => {
    const date = dateFromToday(-1);
    await createTimeslot(t, op.adminKey, activityId, { Date: date, Time: '12:00', Capacity: 6 });
    const response = await get(`${activityId}/timeslots?Date=${date}`);
    expect(response.json().data).toEqual([expect.objectContaining({ Time: '12:00', Capacity: 6, Booked: 0, Available: 0 })]);
  });

  it('answers [] for a day without timeslots', async () => {
    const response = await get(`${activityId}/timeslots?Date=${dateFromToday(200)}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: [] });
  });

  it('is 422 naming Date when it is missing or not a calendar date', async () => {
    expect(fieldsOf(problemOf(await get(`${activityId}/timeslots`), 422, 'validation'))).toEqual(['Date']);
    expect(fieldsOf(problemOf(await get(`${activityId}/timeslots?Date=2031-02-30`), 422, 'validation'))).toEqual(['Date']);
    expect(fieldsOf(problemOf(await get(`${activityId}/timeslots?Date=tomorrow`), 422, 'validation'))).toEqual(['Date']);
  });
});

describe('daylight saving time', () => {
  it('gives Europe/Berlin timeslots the offset of their own day: +01:00 before the March change, +02:00 after', async () => {
    const sunday = lastSundayOfMarch(futureSpringYear());
    const before = addDays(sunday, -1);
    const after = addDays(sunday, 1);
    for (const date of [before, sunday, after]) await createTimeslot(t, op.adminKey, activityId, { Date: date, Time: '10:00', Capacity: 4 });
    const startOf = async (date: string) => (await get(`${activityId}/timeslots?Date=${date}`)).json().data[0].StartsAt;
    expect(await startOf(before)).toBe(`${before}T10:00:00+01:00`);
    expect(await startOf(sunday)).toBe(`${sunday}T10:00:00+02:00`);
    expect(await startOf(after)).toBe(`${after}T10:00:00+02:00`);
  });

  it('does the same for America/New_York in March, and keeps the first 01:30 when November repeats it', async () => {
    const year = futureSpringYear();
    const ny = (await createActivity(t, op.adminKey, { Name: 'Harbor Cruise', Timezone: 'America/New_York', DurationMinutes: 90 })).ActivityID;
    const sunday = secondSundayOfMarch(year);
    const before = addDays(sunday, -1);
    const after = addDays(sunday, 1);
    for (const date of [before, after]) await createTimeslot(t, op.adminKey, ny, { Date: date, Time: '10:00', Capacity: 4 });
    expect((await get(`${ny}/timeslots?Date=${before}`)).json().data[0]).toMatchObject({ StartsAt: `${before}T10:00:00-05:00`, EndTime: '11:30' });
    expect((await get(`${ny}/timeslots?Date=${after}`)).json().data[0]).toMatchObject({ StartsAt: `${after}T10:00:00-04:00`, EndTime: '11:30' });

    // 01:30 happens twice on the fall-back Sunday: the timeslot is the first (EDT), and 90 minutes
    // later the wall clock shows 02:00 EST.
    const fallBack = firstSundayOfNovember(year);
    await createTimeslot(t, op.adminKey, ny, { Date: fallBack, Time: '01:30', Capacity: 4 });
    expect((await get(`${ny}/timeslots?Date=${fallBack}`)).json().data[0]).toMatchObject({
      Time: '01:30',
      StartsAt: `${fallBack}T01:30:00-04:00`,
      EndTime: '02:00',
    });
  });
});

describe('GET /api/v2/ota/{partner}/availability/{ActivityID}/dates', () => {
  it('lists only dates with room, ascending, with the count of timeslots with room and the seats left', async () => {
    const id = (await createActivity(t, op.adminKey, { Name: 'Dates' })).ActivityID;
    const start = dateFromToday(50);
    await createTimeslot(t, op.adminKey, id, { Date: addDays(start, 3), Time: '10:00', Capacity: 4 });
    await createTimeslot(t, op.adminKey, id, { Date: start, Time: '16:00', Capacity: 3 });
    await createTimeslot(t, op.adminKey, id, { Date: start, Time: '10:00', Capacity: 5 });
    await createTimeslot(t, op.adminKey, id, { Date: addDays(start, 1), Time: '10:00', Capacity: 2 });
    await createTimeslot(t, op.adminKey, id, { Date: addDays(start, 9), Time: '10:00', Capacity: 2 });
    await book(id, start, '10:00', 1);
    await book(id, addDays(start, 1), '10:00', 2);
    const response = await get(`${id}/dates?StartDate=${start}&EndDate=${addDays(start, 5)}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toEqual([
      { Date: start, Timeslots: 2, Available: 7 },
      { Date: addDays(start, 3), Timeslots: 1, Available: 4 },
    ]);
  });

  it('counts the seats of live holds as taken and those of lapsed holds as free', async () => {
    const id = (await createActivity(t, op.adminKey, { Name: 'Holds' })).ActivityID;
    const start = dateFromToday(60);
    await createTimeslot(t, op.adminKey, id, { Date: start, Time: '10:00', Capacity: 4 });
    await createTimeslot(t, op.adminKey, id, { Date: start, Time: '12:00', Capacity: 3 });
    await createTimeslot(t, op.adminKey, id, { Date: addDays(start, 1), Time: '10:00', Capacity: 2 });
    const hold = (seats: number, date: string, time: string) =>
      call(t.app, op.otaKey, 'POST', '/api/v2/ota/viator/booking', {
        ActivityID: id,
        Date: date,
        Time: time,
        Participants: seats,
        HoldMinutes: 10,
        Customer: { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: '+441234567890' },
      });
    expect((await hold(3, start, '12:00')).statusCode).toBe(201);
    const lapsing = (await hold(2, addDays(start, 1), '10:00')).json().data.BookingReference;
    await book(id, start, '10:00', 1);
    // Lapsed by another process's clock: nothing has released it, and nothing in this process has read it.
    await t.db.kysely
      .updateTable('bookings')
      .set({ hold_expires_at: addSeconds(unixNow(), -1) })
      .where('reference', '=', lapsing)
      .execute();
    const response = await get(`${id}/dates?StartDate=${start}&EndDate=${addDays(start, 1)}`);
    expect(response.json().data).toEqual([
      { Date: start, Timeslots: 1, Available: 3 },
      { Date: addDays(start, 1), Timeslots: 1, Available: 2 },
    ]);
  });

  it('leaves out past dates, and answers [] for a range without room', async () => {
    const id = (await createActivity(t, op.adminKey, { Name: 'Past' })).ActivityID;
    await createTimeslot(t, op.adminKey, id, { Date: dateFromToday(-2), Time: '10:00', Capacity: 4 });
    await createTimeslot(t, op.adminKey, id, { Date: dateFromToday(3), Time: '10:00', Capacity: 4 });
    const response = await get(`${id}/dates?StartDate=${dateFromToday(-5)}&EndDate=${dateFromToday(5)}`);
    expect(response.json().data).toEqual([{ Date: dateFromToday(3), Timeslots: 1, Available: 4 }]);
    expect((await get(`${id}/dates?StartDate=${dateFromToday(100)}&EndDate=${dateFromToday(110)}`)).json()).toEqual({ data: [] });
  });

  it('accepts a range of 366 days and refuses 367 (422 on EndDate)', async () => {
    const start = dateFromToday(1);
    expect((await get(`${activityId}/dates?StartDate=${start}&EndDate=${addDays(start, 366)}`)).statusCode).toBe(200);
    const problem = problemOf(await get(`${activityId}/dates?StartDate=${start}&EndDate=${addDays(start, 367)}`), 422, 'validation');
    expect(fieldsOf(problem)).toEqual(['EndDate']);
  });

  it('is 422 naming StartDate and EndDate when missing, not real dates, or reversed', async () => {
    expect(fieldsOf(problemOf(await get(`${activityId}/dates`), 422, 'validation')).sort()).toEqual(['EndDate', 'StartDate']);
    expect(fieldsOf(problemOf(await get(`${activityId}/dates?EndDate=2031-01-01`), 422, 'validation'))).toEqual(['StartDate']);
    expect(fieldsOf(problemOf(await get(`${activityId}/dates?StartDate=2031-02-30&EndDate=2031-03-02`), 422, 'validation'))).toEqual(['StartDate']);
    expect(fieldsOf(problemOf(await get(`${activityId}/dates?StartDate=2031-03-01&EndDate=2031-13-01`), 422, 'validation'))).toEqual(['EndDate']);
    expect(fieldsOf(problemOf(await get(`${activityId}/dates?StartDate=2031-03-02&EndDate=2031-03-01`), 422, 'validation'))).toEqual(['EndDate']);
  });
});

describe('errors and access', () => {
  it('is 400 for a malformed ActivityID, before looking at the query', async () => {
    problemOf(await get('kayak/dates?StartDate=2031-01-01&EndDate=2031-01-02'), 400, 'bad-request');
    problemOf(await get('s_short/timeslots?Date=2031-01-01'), 400, 'bad-request');
    problemOf(await get('s_has-a-dash1234/timeslots'), 400, 'bad-request');
  });

  it("is 404 for an unknown, archived or other operator's activity", async () => {
    const archived = (await createActivity(t, op.adminKey, { Name: 'Old' })).ActivityID;
    await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${archived}`, { Archived: true });
    const foreign = (await createActivity(t, other.adminKey, { Name: 'Theirs' })).ActivityID;
    for (const id of ['s_DoesNotExist99', archived, foreign]) {
      problemOf(await get(`${id}/timeslots?Date=${dateFromToday(3)}`), 404, 'not-found');
      problemOf(await get(`${id}/dates?StartDate=${dateFromToday(3)}&EndDate=${dateFromToday(4)}`), 404, 'not-found');
    }
  });

  it('is 401 without a valid key and 403 for another marketplace or a key without the ota scope', async () => {
    const path = `${activityId}/timeslots?Date=${dateFromToday(3)}`;
    problemOf(await get(path, ''), 401, 'unauthenticated');
    problemOf(await get(path, op.otaKey, 'getyourguide'), 403, 'forbidden');
    problemOf(await get(path, op.adminKey), 403, 'forbidden');
    problemOf(await get(path, op.usageKey), 403, 'forbidden');
  });
});
