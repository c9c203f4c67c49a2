// OCTo availability and calendar over the same timeslots as the partner API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { addDays, createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer, octoClient, type OctoCall } from './fixtures.js';
import { octoBody, octoError } from './spec.js';

let t: TestApp;
let op: TestOperator;
let octo: OctoCall;
let activityId: string;
let date: string;

const check = (body: Record<string, unknown>, capabilities?: string) =>
  octo('POST', '/availability', { productId: activityId, optionId: 'DEFAULT', ...body }, capabilities);
const partnerSlots = async (day: string) =>
  (await call(t.app, op.otaKey, 'GET', `/api/v2/ota/viator/availability/${activityId}/timeslots?Date=${day}`)).json().data as {
    Time: string;
    Available: number;
  }[];

async function partnerSlotIds(day: string): Promise<Map<string, number>> {
  const slots = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/activities/${activityId}/timeslots?From=${day}&To=${day}`)).json().data as {
    ID: number;
    Time: string;
  }[];
  return new Map(slots.map((slot) => [slot.Time, slot.ID]));
}

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  octo = octoClient(t, op.otaKey);
  activityId = (await createActivity(t, op.adminKey, { Timezone: 'Europe/Berlin', DurationMinutes: 120, MaxParticipantsPerBooking: 8 })).ActivityID;
  date = dateFromToday(6);
  for (const [Time, Capacity] of [
    ['09:00', 10],
    ['12:00', 10],
    ['15:00', 4],
    ['18:00', 1],
  ] as const) {
    await createTimeslot(t, op.adminKey, activityId, { Date: date, Time, Capacity });
  }
  // The operator closes 18:00 (capacity 0).
  const closed = (await partnerSlotIds(date)).get('18:00')!;
  expect((await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/timeslots/${closed}`, { Capacity: 0 })).statusCode).toBe(200);
  await createTimeslot(t, op.adminKey, activityId, { Date: addDays(date, 2), Time: '10:00', Capacity: 6 });
  await createTimeslot(t, op.adminKey, activityId, { Date: dateFromToday(-1), Time: '10:00', Capacity: 6 });
  // 6 of 10 seats at 12:00 and all 4 at 15:00 taken through the partner API.
  for (const [Time, Participants] of [
    ['12:00', 6],
    ['15:00', 4],
  ] as const) {
    const booked = await call(t.app, op.otaKey, 'POST', '/api/v2/ota/viator/booking', {
      ActivityID: activityId,
      Date: date,
      Time,
      Participants,
      Customer: customer,
    });
    expect(booked.statusCode).toBe(201);
  }
});
afterAll(() => t.close());

describe('POST /octo/availability', () => {
  it("answers every timeslot of localDate with its status and the partner API's seats left", async () => {
    const availabilities = octoBody(await check({ localDate: date }), 'Availability', true);
    expect(availabilities.map((a: { id: string }) => a.id)).toEqual(
      ['09:00', '12:00', '15:00', '18:00'].map((time) => expect.stringMatching(new RegExp(`^${date}T${time}:00\\+0[12]:00$`))),
    );
    expect(availabilities.map((a: { status: string; vacancies: number; available: boolean }) => [a.status, a.vacancies, a.available])).toEqual([
      ['AVAILABLE', 10, true],
      ['LIMITED', 4, true],
      ['SOLD_OUT', 0, false],
      ['CLOSED', 0, false],
    ]);
    expect(availabilities[0]).toMatchObject({ localDateTimeStart: availabilities[0].id, allDay: false, capacity: 10, maxUnits: 8 });
    expect(availabilities[0].localDateTimeEnd).toMatch(new RegExp(`^${date}T11:00:00\\+0[12]:00$`));
    expect(Date.parse(availabilities[0].utcCutoffAt)).toBe(Date.parse(availabilities[0].id));
    expect(availabilities.map((a: { vacancies: number }) => a.vacancies)).toEqual((await partnerSlots(date)).map((slot) => slot.Available));
  });

  it('is CLOSED for a timeslot that has started', async () => {
    const [past] = octoBody(await check({ localDate: dateFromToday(-1) }), 'Availability', true);
    expect(past).toMatchObject({ status: 'CLOSED', available: false, vacancies: 0 });
  });

  it('answers a range of dates, or the availabilities named by id (in any offset)', async () => {
    const range = octoBody(await check({ localDateStart: date, localDateEnd: addDays(date, 2) }), 'Availability', true);
    expect(range).toHaveLength(5);
    const utc = new Date(Date.parse(range[4].id)).toISOString().replace('.000Z', 'Z');
    const byId = octoBody(await check({ availabilityIds: [range[1].id, utc] }), 'Availability', true);
    expect(byId.map((a: { id: string }) => a.id)).toEqual([range[1].id, range[4].id]);
  });

  it('marks timeslots without room for the units asked for as not available', async () => {
    const availabilities = octoBody(await check({ localDate: date, units: [{ id: 'adult', quantity: 5 }] }), 'Availability', true);
    expect(availabilities.map((a: { available: boolean }) => a.available)).toEqual([true, false, false, false]);
  });

  it('adds unit prices with octo/pricing', async () => {
    const [first] = octoBody(await check({ localDate: date }, 'octo/pricing'), 'Availability', true);
    expect(first.unitPricing).toEqual([
      { unitId: 'adult', original: 4500, retail: 4500, net: null, currency: 'EUR', currencyPrecision: 2, includedTaxes: [] },
    ]);
  });

  it("refuses unknown ids and ambiguous or invalid ranges in OCTo's words", async () => {
    octoError(await octo('POST', '/availability', { productId: 's_Unknown12345', optionId: 'DEFAULT', localDate: date }), 400, 'INVALID_PRODUCT_ID');
    expect(octoError(await check({ optionId: 'VIP', localDate: date }), 400, 'INVALID_OPTION_ID').optionId).toBe('VIP');
    expect(octoError(await check({ localDate: date, units: [{ id: 'child', quantity: 1 }] }), 400, 'INVALID_UNIT_ID').unitId).toBe('child');
    for (const id of ['tomorrow', `${date}T10:30:00+02:00`, `${date}T09:00:00`]) {
      expect(octoError(await check({ availabilityIds: [id] }), 400, 'INVALID_AVAILABILITY_ID').availabilityId).toBe(id);
    }
    octoError(await check({}), 400, 'BAD_REQUEST');
    octoError(await check({ localDate: date, availabilityIds: [] }), 400, 'BAD_REQUEST');
    octoError(await check({ localDateStart: date }), 400, 'BAD_REQUEST');
    octoError(await check({ localDateStart: date, localDateEnd: addDays(date, -1) }), 400, 'BAD_REQUEST');
    octoError(await check({ localDate: date, currency: 'USD' }), 400, 'BAD_REQUEST');
  });
});

describe('POST /octo/availability/calendar', () => {
  const calendar = (body: Record<string, unknown>, capabilities?: string) =>
    octo('POST', '/availability/calendar', { productId: activityId, optionId: 'DEFAULT', ...body }, capabilities);

  it("answers every date of the range: the best timeslot's vacancies, the day's capacity, days without timeslots CLOSED", async () => {
    const days = octoBody(await calendar({ localDateStart: date, localDateEnd: addDays(date, 2) }), 'AvailabilityCalendar', true);
    expect(days).toEqual([
      { localDate: date, available: true, status: 'AVAILABLE', vacancies: 10, capacity: 24, openingHours: [] },
      { localDate: addDays(date, 1), available: false, status: 'CLOSED', vacancies: 0, capacity: 0, openingHours: [] },
      { localDate: addDays(date, 2), available: true, status: 'AVAILABLE', vacancies: 6, capacity: 6, openingHours: [] },
    ]);
  });

  it('takes units into account and adds prices with octo/pricing', async () => {
    const days = octoBody(
      await calendar({ localDateStart: addDays(date, 2), localDateEnd: addDays(date, 2), units: [{ id: 'adult', quantity: 7 }] }, 'octo/pricing'),
      'AvailabilityCalendar',
      true,
    );
    expect(days[0]).toMatchObject({ available: false, vacancies: 6 });
    expect(days[0].unitPricingFrom[0]).toMatchObject({ unitId: 'adult', retail: 4500 });
  });

  it('is BAD_REQUEST for a missing, reversed or too long range', async () => {
    octoError(await calendar({ localDateStart: date }), 400, 'BAD_REQUEST');
    octoError(await calendar({ localDateStart: date, localDateEnd: addDays(date, -1) }), 400, 'BAD_REQUEST');
    octoError(await calendar({ localDateStart: date, localDateEnd: addDays(date, 367) }), 400, 'BAD_REQUEST');
  });
});
