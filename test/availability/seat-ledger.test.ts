// Seats are never sold twice: concurrent bookings, holds that lapse with no background job, cancelling,
// and capacity changes by the operator.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday, getTimeslot, type AdminTimeslot } from './fixtures.js';
import { addSeconds, unixNow } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;
let activityId: string;
let slot: AdminTimeslot;
let date: string;
let day = 10;

const customer = { FirstName: 'Grace', LastName: 'Hopper', Email: 'grace@example.com', Phone: '+12025550123' };
const bodyFor = (overrides: Record<string, unknown> = {}) => ({
  ActivityID: activityId,
  Date: date,
  Time: '10:00',
  Participants: 1,
  Customer: customer,
  ...overrides,
});
const book = (overrides: Record<string, unknown> = {}) => call(t.app, op.otaKey, 'POST', '/api/v2/ota/viator/booking', bodyFor(overrides));
const action = (reference: string, verb: 'cancel' | 'confirm') => call(t.app, op.otaKey, 'POST', `/api/v2/ota/viator/booking/${reference}/${verb}`);
const partnerSlot = async () =>
  (await call(t.app, op.otaKey, 'GET', `/api/v2/ota/viator/availability/${activityId}/timeslots?Date=${date}`)).json().data[0];

/** Lets a hold lapse without waiting: moves its expiry into the past, as time would. */
async function lapse(reference: string) {
  await t.db.kysely
    .updateTable('bookings')
    .set({ hold_expires_at: addSeconds(unixNow(), -1) })
    .where('reference', '=', reference)
    .execute();
}

async function storedBooked(id: number) {
  return (await t.db.kysely.selectFrom('timeslots').select('booked').where('id', '=', id).executeTakeFirstOrThrow()).booked;
}

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  activityId = (await createActivity(t, op.adminKey, { MaxParticipantsPerBooking: 10 })).ActivityID;
});
afterAll(() => t.close());

beforeEach(async () => {
  date = dateFromToday(day++);
  slot = await createTimeslot(t, op.adminKey, activityId, { Date: date, Time: '10:00', Capacity: 5 });
});

describe('concurrent bookings', () => {
  it('20 parallel requests for a 5-seat timeslot: exactly 5 succeed, 15 get 409, Booked is 5', async () => {
    const responses = await Promise.all(Array.from({ length: 20 }, () => book()));
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(15);
    for (const response of responses.filter((r) => r.statusCode === 409)) problemOf(response, 409, 'insufficient-capacity');
    expect(new Set(responses.filter((r) => r.statusCode === 201).map((r) => r.json().data.BookingReference)).size).toBe(5);
    expect(await partnerSlot()).toMatchObject({ Capacity: 5, Booked: 5, Available: 0 });
    expect(await storedBooked(slot.ID)).toBe(5);
    const confirmed = await t.db.kysely
      .selectFrom('bookings')
      .select('participants')
      .where('timeslot_id', '=', slot.ID)
      .where('status', '=', 'confirmed')
      .execute();
    expect(confirmed).toHaveLength(5);
  });

  it('parallel bookings of different sizes never add up to more than the capacity', async () => {
    const responses = await Promise.all([3, 2, 4, 1, 2, 3, 1].map((n) => book({ Participants: n })));
    const taken = responses.filter((r) => r.statusCode === 201).reduce((sum, r) => sum + (r.json().data.Participants as number), 0);
    expect(taken).toBeLessThanOrEqual(5);
    expect(await storedBooked(slot.ID)).toBe(taken);
    expect(responses.every((r) => r.statusCode === 201 || r.statusCode === 409)).toBe(true);
  });
});

describe('holds', () => {
  it('HoldMinutes books on_hold with HoldExpiresAt; confirm makes it confirmed, and confirming again changes nothing', async () => {
    const started = Date.now();
    const response = await book({ Participants: 2, HoldMinutes: 15 });
    expect(response.statusCode, response.body).toBe(201);
    const hold = response.json().data;
    expect(hold.Status).toBe('on_hold');
    const expiresIn = Date.parse(hold.HoldExpiresAt) - started;
    expect(expiresIn).toBeGreaterThan(14 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(15 * 60_000 + 1000);
    expect(await partnerSlot()).toMatchObject({ Booked: 2, Available: 3 });

    const confirmed = await action(hold.BookingReference, 'confirm');
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().data).toMatchObject({ Status: 'confirmed', HoldExpiresAt: null });
    const again = await action(hold.BookingReference, 'confirm');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(confirmed.json());
    expect(await storedBooked(slot.ID)).toBe(2);
    // A confirmed booking does not lapse.
    await lapse(hold.BookingReference);
    expect((await call(t.app, op.otaKey, 'GET', `/api/v2/ota/viator/booking/${hold.BookingReference}`)).json().data.Status).toBe('confirmed');
    expect(await partnerSlot()).toMatchObject({ Booked: 2 });
  });

  it('a lapsed hold frees its seats at once for readers and writers, with no background job', async () => {
    const hold = (await book({ Participants: 5, HoldMinutes: 10 })).json().data;
    problemOf(await book(), 409, 'insufficient-capacity');
    await lapse(hold.BookingReference);

    // Nothing has written since: the row still says on_hold and still counts the seats, yet readers
    // see them free and the booking as expired.
    expect(await storedBooked(slot.ID)).toBe(5);
    expect(await partnerSlot()).toMatchObject({ Booked: 0, Available: 5 });
    const dates = await call(t.app, op.otaKey, 'GET', `/api/v2/ota/viator/availability/${activityId}/dates?StartDate=${date}&EndDate=${date}`);
    expect(dates.json().data).toEqual([{ Date: date, Timeslots: 1, Available: 5 }]);
    expect(await getTimeslot(t, op.adminKey, slot.ID)).toMatchObject({ Booked: 0, Free: 5 });
    expect((await call(t.app, op.otaKey, 'GET', `/api/v2/ota/viator/booking/${hold.BookingReference}`)).json().data.Status).toBe('expired');

    // The next booking releases the hold in its own transaction and takes all five seats.
    expect((await book({ Participants: 5 })).statusCode).toBe(201);
    expect(await storedBooked(slot.ID)).toBe(5);
    const stored = await t.db.kysely.selectFrom('bookings').select('status').where('reference', '=', hold.BookingReference).executeTakeFirstOrThrow();
    expect(stored.status).toBe('expired');
  });

  it('a lapsed hold cannot be confirmed (409) and cancelling it answers it as expired, freeing nothing twice', async () => {
    const hold = (await book({ Participants: 3, HoldMinutes: 5 })).json().data;
    const other = (await book({ Participants: 2 })).json().data;
    await lapse(hold.BookingReference);
    problemOf(await action(hold.BookingReference, 'confirm'), 409, 'conflict');
    // The refused confirm still released the hold.
    expect(await storedBooked(slot.ID)).toBe(2);
    const cancelled = await action(hold.BookingReference, 'cancel');
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().data.Status).toBe('expired');
    expect(await storedBooked(slot.ID)).toBe(2);
    expect((await action(other.BookingReference, 'cancel')).json().data.Status).toBe('cancelled');
    expect(await storedBooked(slot.ID)).toBe(0);
  });

  it('a live hold can be cancelled, which frees its seats; a cancelled booking cannot be confirmed', async () => {
    const hold = (await book({ Participants: 4, HoldMinutes: 30 })).json().data;
    expect((await action(hold.BookingReference, 'cancel')).json().data.Status).toBe('cancelled');
    expect(await storedBooked(slot.ID)).toBe(0);
    problemOf(await action(hold.BookingReference, 'confirm'), 409, 'conflict');
  });

  it('confirm is 404 for an unknown booking and 400 for a malformed reference', async () => {
    problemOf(await action('BK-ZZZZZZZZ', 'confirm'), 404, 'not-found');
    problemOf(await action('BK-123', 'confirm'), 400, 'bad-request');
  });
});

describe('PATCH /api/v2/admin/timeslots/{ID} and booked seats', () => {
  const patch = (capacity: number) => call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/timeslots/${slot.ID}`, { Capacity: capacity });

  it('is 409 below the seats booked, and allowed down to exactly them', async () => {
    await book({ Participants: 3 });
    const problem = problemOf(await patch(2), 409, 'conflict');
    expect(problem.detail).toMatch(/3 seats/);
    expect((await getTimeslot(t, op.adminKey, slot.ID)).Capacity).toBe(5);
    const response = await patch(3);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ Capacity: 3, Booked: 3, Available: 0, Free: 0 });
    problemOf(await book(), 409, 'insufficient-capacity');
    expect((await patch(4)).statusCode).toBe(200);
    expect((await book()).statusCode).toBe(201);
  });

  it('counts live holds but not lapsed ones', async () => {
    const hold = (await book({ Participants: 4, HoldMinutes: 10 })).json().data;
    problemOf(await patch(3), 409, 'conflict');
    await lapse(hold.BookingReference);
    const response = await patch(1);
    expect(response.statusCode, response.body).toBe(200);
    expect(await storedBooked(slot.ID)).toBe(0);
  });
});
