// The one policy (bookings/lifecycle/policy.ts): who may cancel or move a booking, and until when, decided
// by the lifecycle in the command's transaction and answered by each channel in its own words. The table
// is checked as it is written, then through the partner API and the operator API over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLICY, refusalOf, type BookingFacts, type CallerKind } from '../../src/bookings/index.js';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { addSeconds, asUnixSeconds, unixNow, type UnixSeconds } from '../../src/lib/clock.js';

const NOW = asUnixSeconds(1_900_000_000);
const facts = (over: Partial<BookingFacts> = {}): BookingFacts => ({
  status: 'confirmed',
  startsAt: addSeconds(NOW, 3600),
  checkedIn: false,
  guestHours: 24,
  ...over,
});
const code = (kind: CallerKind, action: 'cancel' | 'move', over: Partial<BookingFacts> = {}) => refusalOf(kind, action, facts(over), NOW)?.code;
const MARKETPLACES: CallerKind[] = ['partner', 'octo', 'getyourguide', 'viator'];

describe('the policy table', () => {
  it('lets every marketplace cancel or move its booking until the timeslot starts, never once redeemed', () => {
    for (const kind of MARKETPLACES) {
      for (const action of ['cancel', 'move'] as const) {
        expect(code(kind, action), `${kind} ${action}`).toBeUndefined();
        expect(code(kind, action, { startsAt: NOW }), `${kind} ${action}`).toBe('booking.started');
        expect(code(kind, action, { checkedIn: true }), `${kind} ${action}`).toBe('booking.checked-in');
      }
    }
  });

  it('lets staff cancel at any time, even once redeemed, and move until the start', () => {
    expect(code('staff', 'cancel', { startsAt: addSeconds(NOW, -86_400), checkedIn: true })).toBeUndefined();
    expect(code('staff', 'move', { checkedIn: true })).toBeUndefined();
    expect(code('staff', 'move', { startsAt: addSeconds(NOW, -1) })).toBe('booking.started');
  });

  it("holds the guest to the activity's hours before the start, to confirmed bookings, and to none when the activity allows none", () => {
    expect(code('guest', 'cancel', { startsAt: addSeconds(NOW, 25 * 3600) })).toBeUndefined();
    expect(code('guest', 'cancel', { startsAt: addSeconds(NOW, 23 * 3600) })).toBe('booking.cut-off-passed');
    expect(code('guest', 'move', { guestHours: null })).toBe('booking.not-allowed');
    expect(code('guest', 'cancel', { status: 'on_hold', startsAt: addSeconds(NOW, 48 * 3600) })).toBe('booking.not-confirmed');
  });

  it('lets whoever may cancel let a hold go at any time, and answers an ended booking as such', () => {
    for (const kind of [...MARKETPLACES, 'staff'] as CallerKind[]) {
      expect(code(kind, 'cancel', { status: 'on_hold', startsAt: addSeconds(NOW, -60), checkedIn: true }), kind).toBeUndefined();
      expect(code(kind, 'cancel', { status: 'cancelled' }), kind).toBe('booking.cancelled');
      expect(code(kind, 'move', { status: 'expired' }), kind).toBe('booking.expired');
    }
  });

  it('has a rule for every caller kind and action', () => {
    expect(Object.keys(POLICY).sort()).toEqual(['getyourguide', 'guest', 'octo', 'partner', 'staff', 'viator']);
    for (const rules of Object.values(POLICY)) expect(Object.keys(rules).sort()).toEqual(['cancel', 'move']);
  });
});

describe('the policy over HTTP', () => {
  let t: TestApp;
  let op: TestOperator;
  let activityId: string;
  let day = 5;

  beforeAll(async () => {
    t = await createTestApp();
    op = await t.newOperator();
    activityId = (await createActivity(t, op.adminKey)).ActivityID;
  });
  afterAll(() => t.close());

  /** A partner booking (held when `hold`), its timeslot then moved to start at `startsAt` today. */
  async function bookingStartingAt(startsAt: UnixSeconds, hold = false) {
    const date = dateFromToday(day++);
    // Moved to today below: each at its own time of day, so that they never meet there.
    const time = `${String(day).padStart(2, '0')}:00`;
    await createTimeslot(t, op.adminKey, activityId, { Date: date, Time: time, Capacity: 6 });
    const body = {
      ActivityID: activityId,
      Date: date,
      Time: time,
      Participants: 2,
      Customer: { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: '+441234567890' },
    };
    const made = await call(t.app, op.otaKey, 'POST', `/api/v2/ota/${op.partner}/booking`, hold ? { ...body, HoldMinutes: 30 } : body);
    expect(made.statusCode, made.body).toBe(201);
    const reference = made.json().data.BookingReference as string;
    const row = await t.db.kysely.selectFrom('bookings').select('timeslot_id').where('reference', '=', reference).executeTakeFirstOrThrow();
    await t.db.kysely
      .updateTable('timeslots')
      .set({ date: new Date().toISOString().slice(0, 10), starts_at: startsAt, bookable_until: startsAt, ends_at: addSeconds(startsAt, 5400) })
      .where('id', '=', row.timeslot_id)
      .execute();
    return reference;
  }
  const now = () => unixNow();
  const partnerCancel = (reference: string) => call(t.app, op.otaKey, 'POST', `/api/v2/ota/${op.partner}/booking/${reference}/cancel`);

  it("refuses a partner's cancellation once the timeslot started (409) and changes nothing; staff may still cancel", async () => {
    const reference = await bookingStartingAt(addSeconds(now(), -60));
    const refused = problemOf(await partnerCancel(reference), 409, 'conflict');
    expect(refused.detail).toMatch(/started/);
    const kept = await call(t.app, op.otaKey, 'GET', `/api/v2/ota/${op.partner}/booking/${reference}`);
    expect(kept.json().data.Status).toBe('confirmed');
    const staff = await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${reference}/cancel`);
    expect(staff.statusCode, staff.body).toBe(200);
    expect(staff.json().data.Status).toBe('cancelled');
  });

  it("refuses a partner's cancellation and move of a redeemed booking (409), and lets the partner release a started hold", async () => {
    const reference = await bookingStartingAt(addSeconds(now(), 3600));
    const checkin = await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${reference}/check-in`);
    expect(checkin.statusCode, checkin.body).toBe(200);
    expect(problemOf(await partnerCancel(reference), 409, 'conflict').detail).toMatch(/checked in/);
    const date = dateFromToday(day++);
    await createTimeslot(t, op.adminKey, activityId, { Date: date, Time: '10:00', Capacity: 6 });
    const move = await call(t.app, op.otaKey, 'POST', `/api/v2/ota/${op.partner}/booking/${reference}/reschedule`, { Date: date, Time: '10:00' });
    expect(problemOf(move, 409, 'conflict').detail).toMatch(/checked in/);

    const hold = await bookingStartingAt(addSeconds(now(), -60), true);
    const released = await partnerCancel(hold);
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json().data.Status).toBe('cancelled');
  });
});
