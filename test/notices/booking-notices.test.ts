// Staff e-mails about bookings (issue 26, item 6): each user chooses none, one per booking, or a daily
// digest (PUT /api/v2/staff/me/booking-notices). "each" queues an e-mail per booking confirmed, moved or
// cancelled, of every channel, in the booking's transaction; "digest" one a day with the last 24 hours.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer, posBooking } from '../emails/fixtures.js';
import { addUser, as, signIn, type Session } from '../staff/fixtures.js';
import { queueDigests } from '../../src/notices/digest.js';
import { addMillis, asUnixMillis } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;
let activityId: string;
let each: Session & { email: string };
let quiet: Session & { email: string };
const date = dateFromToday(6);

const notices = (to: string) =>
  t.db.kysely
    .selectFrom('emails')
    .select(['subject', 'body', 'booking_id', 'operator_id'])
    .where('kind', '=', 'booking-notice')
    .where('to_address', '=', to)
    .orderBy('id')
    .execute();
const choose = (session: Session, BookingNotices: unknown) => as(t, session, 'PUT', '/api/v2/staff/me/booking-notices', { BookingNotices });

async function staff(role: 'manager' | 'front-desk', operator = op) {
  const user = await addUser(t, operator.operatorId, role);
  return { ...(await signIn(t, user.email)), email: user.email };
}

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  other = await t.newOperator();
  activityId = (await createActivity(t, op.adminKey, { Name: 'Harbour walk', Timezone: 'Europe/Lisbon' })).ActivityID;
  await createTimeslot(t, op.adminKey, activityId, { Date: date, Time: '10:00', Capacity: 50 });
  each = await staff('front-desk');
  quiet = await staff('manager');
});
afterAll(() => t.close());

describe('choosing booking e-mails', () => {
  it('is each user’s own choice, shown on their account; a bad value is 422 and an API key has no "me" (403)', async () => {
    const chosen = await choose(each, 'each');
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json().data).toMatchObject({ Email: each.email, BookingNotices: 'each' });
    expect((await as(t, each, 'GET', '/api/v2/staff/me')).json().data.User.BookingNotices).toBe('each');
    expect((await as(t, quiet, 'GET', '/api/v2/staff/me')).json().data.User.BookingNotices).toBe('none');
    expect(problemOf(await choose(quiet, 'hourly'), 422, 'validation').errors?.[0]?.field).toBe('BookingNotices');
    expect((await call(t.app, op.adminKey, 'PUT', '/api/v2/staff/me/booking-notices', { BookingNotices: 'each' })).statusCode).toBe(403);
  });
});

describe('an e-mail per booking', () => {
  it('tells who asked of a new desk or marketplace booking and of a cancellation, with what and when; nobody else', async () => {
    const desk = await posBooking(t, op.adminKey, { ActivityID: activityId, Date: date, Time: '10:00' }, 2, customer('Rui', 'rui@example.com'));
    const partner = await call(t.app, op.otaKey, 'POST', '/api/v2/ota/viator/booking', {
      ActivityID: activityId,
      Date: date,
      Time: '10:00',
      Participants: 1,
      Customer: customer('Ana', 'ana@example.com'),
    });
    expect(partner.statusCode, partner.body).toBe(201);
    const partnerReference = partner.json().data.BookingReference;
    expect((await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${desk.BookingReference}/cancel`)).statusCode).toBe(200);

    const sent = await notices(each.email);
    expect(sent.map((email) => email.subject)).toEqual([
      `New booking ${desk.BookingReference}: Harbour walk, ${date} 10:00`,
      `New booking ${partnerReference}: Harbour walk, ${date} 10:00`,
      `Booking cancelled ${desk.BookingReference}: Harbour walk, ${date} 10:00`,
    ]);
    expect(sent[0]!.body).toContain(`When: ${date} 10:00 (Europe/Lisbon)`);
    expect(sent[0]!.body).toContain('Guest: Rui Lovelace');
    expect(sent[0]!.body).toContain('Channel: Point of sale');
    expect(sent[1]!.body).toContain('Channel: viator');
    expect(await notices(quiet.email)).toEqual([]);
  });

  it("stops when the user chooses none, and never tells another operator's staff", async () => {
    const stranger = await staff('manager', other);
    expect((await choose(stranger, 'each')).statusCode).toBe(200);
    expect((await choose(each, 'none')).statusCode).toBe(200);
    const before = (await notices(each.email)).length;
    await posBooking(t, op.adminKey, { ActivityID: activityId, Date: date, Time: '10:00' });
    expect(await notices(each.email)).toHaveLength(before);
    expect(await notices(stranger.email)).toEqual([]);
  });
});

describe('the daily digest', () => {
  it('lists the last 24 hours once a day, from 06:00 UTC', async () => {
    expect((await choose(quiet, 'digest')).statusCode).toBe(200);
    const made = await posBooking(t, op.adminKey, { ActivityID: activityId, Date: date, Time: '10:00' }, 3);
    const now = new Date();
    const early = asUnixMillis(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 5, 59));
    const morning = asUnixMillis(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 23, 59));
    expect(await queueDigests(t.db, early)).toBe(0);
    expect(await queueDigests(t.db, morning)).toBe(1);
    expect(await queueDigests(t.db, addMillis(morning, 1000))).toBe(0);
    const [digest] = await notices(quiet.email);
    expect(digest!.subject).toMatch(/^Bookings of the last 24 hours: \d+ new, 1 cancelled$/);
    expect(digest!.body).toContain(`- ${made.BookingReference}: Harbour walk, ${date} 10:00, 3 people (Point of sale)`);
    expect(digest!.booking_id).toBeNull();
    // The next day's digest goes the next day.
    expect(await queueDigests(t.db, addMillis(morning, 7 * 3_600_000))).toBe(1);
  });
});
