// The two parts of the bookings module that OCTo uses, tested on their own through partner bookings: the
// lifecycle's extendHold command and changeBookingDetails (store).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { extendHold } from '../../src/bookings/index.js';
import { changeBookingDetails, findBooking } from '../../src/bookings/store.js';
import { customer } from './fixtures.js';
import { addSeconds, unixNow } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;
let activityId: string;
let date: string;
let day = 20;

const hold = async (HoldMinutes?: number) => {
  const response = await call(t.app, op.otaKey, 'POST', '/api/v2/ota/viator/booking', {
    ActivityID: activityId,
    Date: date,
    Time: '10:00',
    Participants: 2,
    Customer: customer,
    ...(HoldMinutes !== undefined && { HoldMinutes }),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { BookingReference: string; HoldExpiresAt: string | null };
};
const seconds = (iso: string | null) => Date.parse(iso!) / 1000;
const minutes = (n: number) => ({ minutes: n, maxLifetimeMinutes: 60 });
const nowSeconds = () => unixNow();
/** Runs the command in its own transaction, as a channel does, and answers its outcome with the booking as it is then. */
const extend = async (reference: string, hold: { minutes: number; maxLifetimeMinutes: number }) => {
  const row = await findBooking(t.db.kysely, op.operatorId, reference);
  const outcome = await t.db.write((tx) => extendHold(tx, row!, hold, nowSeconds()));
  const booking = (await call(t.app, op.otaKey, 'GET', `/api/v2/ota/viator/booking/${reference}`)).json().data as {
    Status: string;
    HoldExpiresAt: string | null;
  };
  return { outcome, booking };
};

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  activityId = (await createActivity(t, op.adminKey)).ActivityID;
});
afterAll(() => t.close());
beforeEach(async () => {
  date = dateFromToday(day++);
  await createTimeslot(t, op.adminKey, activityId, { Date: date, Time: '10:00', Capacity: 4 });
});

describe('extendHold', () => {
  it('keeps a live hold for the minutes asked from now, and never shortens it', async () => {
    const booking = await hold(5);
    const extended = await extend(booking.BookingReference, minutes(30));
    expect(extended.outcome.ok).toBe(true);
    expect(extended.booking.Status).toBe('on_hold');
    expect(seconds(extended.booking.HoldExpiresAt)).toBeGreaterThanOrEqual(addSeconds(nowSeconds(), 30 * 60 - 2));
    const again = await extend(booking.BookingReference, minutes(1));
    expect(again.outcome.ok).toBe(true);
    expect(again.booking.HoldExpiresAt).toBe(extended.booking.HoldExpiresAt);
  });

  it('refuses a confirmed booking and a cancelled one, each with its reason', async () => {
    const confirmed = await hold();
    expect((await extend(confirmed.BookingReference, minutes(10))).outcome).toMatchObject({ ok: false, refusal: { code: 'booking.not-on-hold' } });
    const cancelled = await hold(10);
    await call(t.app, op.otaKey, 'POST', `/api/v2/ota/viator/booking/${cancelled.BookingReference}/cancel`);
    const refused = await extend(cancelled.BookingReference, minutes(10));
    expect(refused.outcome).toMatchObject({ ok: false, refusal: { code: 'booking.cancelled', message: expect.stringMatching(/cancelled/) } });
    expect(refused.booking.Status).toBe('cancelled');
  });

  it('does not revive a lapsed hold: it is released as expired and its seats stay free', async () => {
    const booking = await hold(10);
    await t.db.kysely
      .updateTable('bookings')
      .set({ hold_expires_at: addSeconds(nowSeconds(), -1) })
      .where('reference', '=', booking.BookingReference)
      .execute();
    expect((await extend(booking.BookingReference, minutes(10))).outcome).toMatchObject({ ok: false, refusal: { code: 'booking.expired' } });
    const row = await t.db.kysely.selectFrom('bookings').select('status').where('reference', '=', booking.BookingReference).executeTakeFirstOrThrow();
    expect(row.status).toBe('expired');
    const slot = await t.db.kysely.selectFrom('timeslots').select('booked').where('date', '=', date).executeTakeFirstOrThrow();
    expect(Number(slot.booked)).toBe(0);
  });
});

describe('changeBookingDetails', () => {
  it('changes the customer and payment reference only, and nothing when given nothing', async () => {
    const booking = await hold(10);
    const row = await t.db.kysely.selectFrom('bookings').selectAll().where('reference', '=', booking.BookingReference).executeTakeFirstOrThrow();
    await t.db.write((tx) =>
      changeBookingDetails(tx, row.id, { customer_first_name: 'Grace', customer_email: 'grace@example.com', payment_reference: 'V-9' }),
    );
    await t.db.write((tx) => changeBookingDetails(tx, row.id, {}));
    const read = (await call(t.app, op.otaKey, 'GET', `/api/v2/ota/viator/booking/${booking.BookingReference}`)).json().data;
    expect(read).toMatchObject({
      Status: 'on_hold',
      Participants: 2,
      PaymentReference: 'V-9',
      Customer: { ...customer, FirstName: 'Grace', Email: 'grace@example.com' },
    });
  });
});
