// The partner read cache (src/http/answer-cache.ts): a write through this process is visible to the very
// next read, another operator's writes neither evict nor leak, errors are not kept, and what another
// process wrote shows up once ANSWER_TTL_MS has passed. "Another process" is a direct database write.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday, type AdminTimeslot } from '../availability/fixtures.js';
import { ANSWER_TTL_MS } from '../../src/http/answer-cache.js';
import { setCapacityAboveBooked } from '../../src/availability/store.js';
import { nowMillis } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;
let activityId: string;
let otherActivityId: string;
let day = 20;

const customer = { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: '+441234567890' };
const partner = (key: string, path: string, headers: Record<string, string> = {}) =>
  call(t.app, key, 'GET', `/api/v2/ota/viator${path}`, undefined, headers);
const timeslots = async (date: string, key = op.otaKey, id = activityId) =>
  (await partner(key, `/availability/${id}/timeslots?Date=${date}`)).json().data;
const dates = async (date: string) => (await partner(op.otaKey, `/availability/${activityId}/dates?StartDate=${date}&EndDate=${date}`)).json().data;
const productNames = async (key = op.otaKey) => (await partner(key, '/products')).json().data.map((p: { Name: string }) => p.Name);
const book = (date: string, Participants: number, overrides: Record<string, unknown> = {}) =>
  call(t.app, op.otaKey, 'POST', '/api/v2/ota/viator/booking', {
    ActivityID: activityId,
    Date: date,
    Time: '10:00',
    Participants,
    Customer: customer,
    ...overrides,
  });
/** Another process's write: this process hears nothing of it. */
const setCapacityDirectly = (slot: AdminTimeslot, capacity: number) =>
  t.db.kysely.updateTable('timeslots').set({ capacity }).where('id', '=', slot.ID).execute();

async function newSlot(capacity = 5) {
  const date = dateFromToday(day++);
  return { date, slot: await createTimeslot(t, op.adminKey, activityId, { Date: date, Time: '10:00', Capacity: capacity }) };
}

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  other = await t.newOperator();
  expect((await call(t.app, op.adminKey, 'PATCH', '/api/v2/admin/shop', { Open: true })).statusCode).toBe(200); // for the shop's hold below
  activityId = (await createActivity(t, op.adminKey, { Name: 'Cached Kayak', MaxParticipantsPerBooking: 10 })).ActivityID;
  otherActivityId = (await createActivity(t, other.adminKey, { Name: 'Other Kayak' })).ActivityID;
});
afterAll(() => t.close());
afterEach(() => vi.restoreAllMocks());

describe('writes through this process are visible to the next read', () => {
  it('a booking and its cancellation, in timeslots and dates', async () => {
    const { date } = await newSlot();
    expect(await timeslots(date)).toMatchObject([{ Booked: 0, Available: 5 }]);
    expect(await dates(date)).toEqual([{ Date: date, Timeslots: 1, Available: 5 }]);
    const booked = await book(date, 2);
    expect(booked.statusCode, booked.body).toBe(201);
    expect(await timeslots(date)).toMatchObject([{ Booked: 2, Available: 3 }]);
    expect(await dates(date)).toEqual([{ Date: date, Timeslots: 1, Available: 3 }]);
    const reference = booked.json().data.BookingReference;
    expect((await call(t.app, op.otaKey, 'POST', `/api/v2/ota/viator/booking/${reference}/cancel`)).statusCode).toBe(200);
    expect(await timeslots(date)).toMatchObject([{ Booked: 0, Available: 5 }]);
    expect(await dates(date)).toEqual([{ Date: date, Timeslots: 1, Available: 5 }]);
  });

  it('a capacity change and a new timeslot by the operator', async () => {
    const { date, slot } = await newSlot();
    expect(await timeslots(date)).toMatchObject([{ Capacity: 5 }]);
    expect((await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/timeslots/${slot.ID}`, { Capacity: 8 })).statusCode).toBe(200);
    expect(await timeslots(date)).toMatchObject([{ Capacity: 8, Available: 8 }]);
    await createTimeslot(t, op.adminKey, activityId, { Date: date, Time: '15:00', Capacity: 2 });
    expect((await timeslots(date)).map((s: { Time: string }) => s.Time)).toEqual(['10:00', '15:00']);
  });

  it('a hold from the public shop', async () => {
    const { date } = await newSlot();
    expect(await timeslots(date)).toMatchObject([{ Available: 5 }]);
    const shop = `/api/v2/shop/${op.operatorId}`;
    const basket = (await call(t.app, undefined, 'POST', `${shop}/baskets`, { Customer: customer })).json().data;
    const item = await call(t.app, undefined, 'POST', `${shop}/baskets/${basket.BasketToken}/items`, {
      ActivityID: activityId,
      Date: date,
      Time: '10:00',
      Participants: 4,
    });
    expect(item.statusCode, item.body).toBe(201);
    expect(await timeslots(date)).toMatchObject([{ Booked: 4, Available: 1 }]);
  });

  it('an activity edit and archiving, in the products list, resolve-product and a new ETag', async () => {
    const first = await partner(op.otaKey, '/products');
    expect(first.json().data.map((p: { Name: string }) => p.Name)).toContain('Cached Kayak');
    const etag = first.headers.etag as string;
    expect((await partner(op.otaKey, '/products', { 'if-none-match': etag })).statusCode).toBe(304);
    const head = await call(t.app, op.otaKey, 'HEAD', '/api/v2/ota/viator/products');
    expect([head.statusCode, head.headers.etag, head.body]).toEqual([200, etag, '']);
    expect((await partner(op.otaKey, '/resolve-product?Name=cached%20kayak')).statusCode).toBe(200);

    const renamed = await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${activityId}`, { Name: 'Renamed Kayak' });
    expect(renamed.statusCode).toBe(200);
    const after = await partner(op.otaKey, '/products', { 'if-none-match': etag });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    expect(after.json().data.map((p: { Name: string }) => p.Name)).toContain('Renamed Kayak');
    problemOf(await partner(op.otaKey, '/resolve-product?Name=cached%20kayak'), 404, 'not-found');

    const archive = await createActivity(t, op.adminKey, { Name: 'Short-lived Tour' });
    expect(await productNames()).toContain('Short-lived Tour');
    await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${archive.ActivityID}`, { Archived: true });
    expect(await productNames()).not.toContain('Short-lived Tour');
    await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${activityId}`, { Name: 'Cached Kayak' });
  });

  it('a write outside HTTP (a worker, a command) through the timeslot store: no request asked for the drop', async () => {
    const { date, slot } = await newSlot();
    expect(await timeslots(date)).toMatchObject([{ Capacity: 5 }]);
    expect(await t.db.write((tx) => setCapacityAboveBooked(tx, { operatorId: op.operatorId, timeslotId: slot.ID }, 6))).toBe(true);
    expect(await timeslots(date)).toMatchObject([{ Capacity: 6 }]);
  });

  it('a rolled-back write keeps the cache', async () => {
    const { date, slot } = await newSlot();
    // Time stands still: the answer can neither expire nor be refreshed in the background meanwhile.
    vi.spyOn(Date, 'now').mockReturnValue(Date.now());
    expect(await timeslots(date)).toMatchObject([{ Capacity: 5 }]);
    await setCapacityDirectly(slot, 4);
    const failed = t.db.write(async (tx) => {
      await setCapacityAboveBooked(tx, { operatorId: op.operatorId, timeslotId: slot.ID }, 7);
      throw new Error('rolled back');
    });
    await expect(failed).rejects.toThrow('rolled back');
    expect(await timeslots(date)).toMatchObject([{ Capacity: 5 }]);
  });
});

describe('what keeps the cache', () => {
  it("another operator's writes do not evict this operator's answers, and never show them", async () => {
    const { date, slot } = await newSlot();
    expect(await timeslots(date)).toMatchObject([{ Capacity: 5 }]);
    await setCapacityDirectly(slot, 7);
    await createActivity(t, other.adminKey, { Name: 'Another Tour' });
    expect(await timeslots(date)).toMatchObject([{ Capacity: 5 }]);
    // The other operator asking for the same path gets its own answer: not found, not ours.
    problemOf(await partner(other.otaKey, `/availability/${activityId}/timeslots?Date=${date}`), 404, 'not-found');
    expect(await productNames(other.otaKey)).not.toContain('Cached Kayak');
    expect(await productNames()).not.toContain('Another Tour');
    expect(await timeslots(date, other.otaKey, otherActivityId)).toEqual([]);
  });

  it('refused writes (4xx) and usage entries do not evict', async () => {
    const { date, slot } = await newSlot();
    expect(await timeslots(date)).toMatchObject([{ Capacity: 5 }]);
    await setCapacityDirectly(slot, 3);
    problemOf(await book(date, 6), 409, 'insufficient-capacity');
    problemOf(await book(date, 0), 422, 'validation');
    const usage = await call(t.app, op.usageKey, 'POST', '/api/v2/usage/meters', { Meter: 'api-calls', Usage: 1 });
    expect(usage.statusCode, usage.body).toBe(201);
    expect(await timeslots(date)).toMatchObject([{ Capacity: 5 }]);
  });

  it('errors are not kept: a 404 turns into the answer as soon as the product exists', async () => {
    problemOf(await partner(op.otaKey, '/resolve-product?Name=Direct%20Tour'), 404, 'not-found');
    await t.db.kysely
      .insertInto('activities')
      .values({
        operator_id: op.operatorId,
        public_id: 's_directTour01',
        name: 'Direct Tour',
        description: '',
        duration_minutes: 60,
        timezone: 'Europe/Berlin',
        currency: 'EUR',
        unit_price: 100,
        max_participants_per_booking: 4,
        updated_at: nowMillis(),
      })
      .execute();
    expect((await partner(op.otaKey, '/resolve-product?Name=Direct%20Tour')).json().data.ActivityID).toBe('s_directTour01');
  });

  it("keeps an answer for ANSWER_TTL_MS: another process's write shows up after that", async () => {
    const { date, slot } = await newSlot();
    const start = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(start);
    expect(await timeslots(date)).toMatchObject([{ Capacity: 5 }]);
    await setCapacityDirectly(slot, 3);
    // Before half its life, so no background refresh either: the new capacity can only come from expiry.
    vi.spyOn(Date, 'now').mockReturnValue(start + ANSWER_TTL_MS / 2 - 1);
    expect(await timeslots(date)).toMatchObject([{ Capacity: 5 }]);
    vi.spyOn(Date, 'now').mockReturnValue(start + ANSWER_TTL_MS);
    expect(await timeslots(date)).toMatchObject([{ Capacity: 3 }]);
  });

  it('sends an answer in the second half of its life and refreshes it in the background', async () => {
    const { date, slot } = await newSlot();
    const start = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(start);
    expect(await timeslots(date)).toMatchObject([{ Capacity: 5 }]);
    await setCapacityDirectly(slot, 3);
    vi.spyOn(Date, 'now').mockReturnValue(start + ANSWER_TTL_MS - 1);
    expect(await timeslots(date)).toMatchObject([{ Capacity: 5 }]);
    // Still before the first answer's expiry: only the refresh can have brought the new capacity.
    await vi.waitFor(async () => expect(await timeslots(date)).toMatchObject([{ Capacity: 3 }]));
  });
});
