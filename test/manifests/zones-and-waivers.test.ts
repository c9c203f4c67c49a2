// Manifests across time zones and the door's missing waiver, over HTTP on a real database (issue 26,
// items 4 and 7): without a date, the day lists each activity's own today (Los Angeles and Kiritimati are
// a day apart), each timeslot naming its zone, for a guide too; a booking without the answers its activity
// requires reads "waiver missing" and is let in only when staff confirm (409 naming WaiverConfirmed
// otherwise, nothing written), and the audit entry says they did.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { as, userSession, type Session } from '../staff/fixtures.js';
import { todayIn } from '../../src/calendar/zoned-time.js';
import { addMillis, nowMillis } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;
let guide: Session;
const LA = 'America/Los_Angeles';
const KIRITIMATI = 'Pacific/Kiritimati';

async function ok(response: Awaited<ReturnType<typeof call>>, status = 200) {
  expect(response.statusCode, response.body).toBe(status);
  return response.json().data;
}
const admin = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) => call(t.app, op.adminKey, method, url, body);

async function activityIn(zone: string, name: string): Promise<string> {
  const activity = await ok(
    await admin('POST', '/api/v2/admin/activities', { Name: name, DurationMinutes: 60, Timezone: zone, Currency: 'USD', UnitPrice: 5000 }),
    201,
  );
  return activity.ActivityID as string;
}
const slotOn = async (activityId: string, date: string, time = '09:00') =>
  (await ok(await admin('POST', `/api/v2/admin/activities/${activityId}/timeslots`, { Date: date, Time: time, Capacity: 20 }), 201)).ID as number;

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  guide = await userSession(t, op.operatorId, 'guide');
});
afterAll(() => t.close());

describe("the day's manifests in every activity's own zone", () => {
  let laToday: string;
  let kiriToday: string;
  let laSlot: number;
  let kiriSlot: number;
  let laTomorrowSlot: number;

  beforeAll(async () => {
    laToday = todayIn(LA);
    kiriToday = todayIn(KIRITIMATI);
    const la = await activityIn(LA, 'Venice Beach paddle');
    const kiri = await activityIn(KIRITIMATI, 'Lagoon snorkel');
    laSlot = await slotOn(la, laToday);
    kiriSlot = await slotOn(kiri, kiriToday, '10:00');
    laTomorrowSlot = await slotOn(la, todayIn(LA, addMillis(nowMillis(), 86_400_000)));
  });

  it("lists each activity's today without a date, each timeslot with its zone, for the front desk and a guide", async () => {
    for (const who of [(url: string) => admin('GET', url), (url: string) => as(t, guide, 'GET', url)]) {
      const day = await ok(await who('/api/v2/admin/manifests'));
      expect(day.Today).toBe(true);
      const slots = day.Timeslots.map((slot: { TimeslotID: number; TimeZone: string; Date: string }) => [slot.TimeslotID, slot.TimeZone, slot.Date]);
      expect(slots).toEqual(
        expect.arrayContaining([
          [laSlot, LA, laToday],
          [kiriSlot, KIRITIMATI, kiriToday],
        ]),
      );
      expect(slots.map(([id]: [number]) => id)).not.toContain(laTomorrowSlot);
    }
  });

  it("lists one date's timeslots when asked, each date read in its activity's zone; a guide only today's", async () => {
    const asked = await ok(await admin('GET', `/api/v2/admin/manifests?Date=${laToday}`));
    expect(asked.Today).toBe(false);
    expect(asked.Timeslots.map((slot: { TimeslotID: number }) => slot.TimeslotID)).toContain(laSlot);
    // Los Angeles' today is a date a guide may ask for; Kiritimati's timeslot of that date (if any) is not today there.
    const guides = await ok(await as(t, guide, 'GET', `/api/v2/admin/manifests?Date=${laToday}`));
    expect(guides.Timeslots.every((slot: { TimeZone: string; Date: string }) => todayIn(slot.TimeZone) === slot.Date)).toBe(true);
    const later = todayIn(LA, addMillis(nowMillis(), 3 * 86_400_000));
    problemOf(await as(t, guide, 'GET', `/api/v2/admin/manifests?Date=${later}`), 403, 'forbidden');
  });
});

describe('a missing waiver at the door', () => {
  let activityId: string;
  let date: string;
  let consentId: number;

  const desk = async (last: string, WaiverAnswers?: { QuestionID: number; Answer: string }[], ActivityID = activityId) =>
    (
      await ok(
        await admin('POST', '/api/v2/admin/bookings', {
          ActivityID,
          Date: date,
          Time: '09:00',
          Tickets: [{ Type: 'adult', Quantity: 2 }],
          Customer: { FirstName: 'Grace', LastName: last, Email: `${last.toLowerCase()}@example.com`, Phone: '+15550100' },
          ...(WaiverAnswers && { WaiverAnswers }),
        }),
        201,
      )
    ).BookingReference as string;

  const entryOf = async (reference: string) => (await ok(await admin('GET', `/api/v2/admin/check-in/${reference}`))).Booking;
  const auditAfter = async (reference: string) =>
    (await ok(await admin('GET', `/api/v2/admin/audit?ResourceType=booking&ResourceID=${reference}`)))
      .filter((entry: { Action: string }) => entry.Action === 'booking.check-in')
      .map((entry: { After: unknown }) => entry.After);

  beforeAll(async () => {
    activityId = await activityIn('UTC', 'Cliff jump');
    date = todayIn('UTC', addMillis(nowMillis(), 86_400_000));
    await slotOn(activityId, date);
    consentId = (
      await ok(
        await admin('POST', `/api/v2/admin/activities/${activityId}/questions`, {
          Question: 'I can swim and take part at my own risk',
          Type: 'consent',
          Required: true,
        }),
        201,
      )
    ).ID;
  });

  it('reads "missing" without the required answers, and refuses to let anyone in until staff confirm (409, nothing written)', async () => {
    const reference = await desk('Hopper');
    expect(await entryOf(reference)).toMatchObject({ WaiverStatus: 'pending', WaiverMissing: true, CheckedIn: 0 });
    const refused = problemOf(await admin('POST', `/api/v2/admin/bookings/${reference}/check-in`, {}), 409, 'conflict');
    expect(refused.errors).toEqual([expect.objectContaining({ field: 'WaiverConfirmed' })]);
    problemOf(
      await admin('POST', `/api/v2/admin/bookings/${reference}/check-in`, { Tickets: [{ Type: 'adult', CheckedIn: 1 }], WaiverConfirmed: false }),
      409,
      'conflict',
    );
    expect((await entryOf(reference)).CheckedIn).toBe(0);
    expect(await auditAfter(reference)).toEqual([]);

    const confirmed = await ok(await admin('POST', `/api/v2/admin/bookings/${reference}/check-in`, { WaiverConfirmed: true }));
    expect(confirmed.Booking).toMatchObject({ CheckedIn: 2, Attendance: 'checked-in' });
    expect(await auditAfter(reference)).toEqual([expect.objectContaining({ WaiverConfirmed: true })]);
    // Fewer guests in, or undo, needs no confirmation: nobody more is let in.
    await ok(await admin('POST', `/api/v2/admin/bookings/${reference}/check-in`, { Tickets: [{ Type: 'adult', CheckedIn: 1 }] }));
    await ok(await admin('DELETE', `/api/v2/admin/bookings/${reference}/check-in`));
  });

  it('lets a guest with the answers in at once, and a pending booking of an activity asking nothing required', async () => {
    const answered = await desk('Lovelace', [{ QuestionID: consentId, Answer: 'true' }]);
    expect(await entryOf(answered)).toMatchObject({ WaiverStatus: 'complete', WaiverMissing: false });
    await ok(await admin('POST', `/api/v2/admin/bookings/${answered}/check-in`, {}));

    const relaxed = await activityIn('UTC', 'Beach walk');
    await slotOn(relaxed, date);
    const reference = await desk('Turing', undefined, relaxed);
    expect(await entryOf(reference)).toMatchObject({ WaiverStatus: 'pending', WaiverMissing: false });
    await ok(await admin('POST', `/api/v2/admin/bookings/${reference}/check-in`, {}));
  });
});
