// Manifests and check-in over HTTP on a real database: the day view and a timeslot's manifest (party,
// tickets, channel, waiver answers and files, notes), the guide's today-only rule, tenant isolation,
// check-in of a whole booking or some tickets, bounds (422 naming the field), undo, 409 for a booking that
// is not confirmed, double taps, the audit entries, OCTo's REDEEMED view and the no-show report.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { as, userSession, type Session } from '../staff/fixtures.js';
import { addTicketType, CHILD } from '../catalog/tickets/fixtures.js';
import { fileIdOf, PDF, uploadAs } from '../questions/files.js';
import { octoClient, contact } from '../octo/fixtures.js';
import { octoBody, octoError } from '../octo/spec.js';
import { todayIn } from '../../src/calendar/zoned-time.js';
import { addMillis, addSeconds, nowMillis, unixNow } from '../../src/lib/clock.js';

/** A zone where it is morning now, so that a timeslot this evening is still today and in the future. */
function morningZone(): string {
  const zones = [
    'Pacific/Kiritimati',
    'Pacific/Auckland',
    'Asia/Tokyo',
    'Asia/Kolkata',
    'Europe/Berlin',
    'America/New_York',
    'America/Denver',
    'Pacific/Honolulu',
    'Pacific/Pago_Pago',
  ];
  const hourIn = (zone: string) => Number(new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).format(new Date()));
  const zone = zones.find((candidate) => hourIn(candidate) >= 1 && hourIn(candidate) <= 14);
  if (!zone) throw new Error('no zone where it is morning');
  return zone;
}

const customer = (last: string) => ({ FirstName: 'Ada', LastName: last, Email: `${last.toLowerCase()}@example.com`, Phone: '+441234567890' });

let t: TestApp;
let op: TestOperator;
let other: TestOperator;
let zone: string;
let today: string;
let tomorrow: string;
let activityId: string;
let todaySlot: number;
let tomorrowSlot: number;
let questionId: number;
const sessions = {} as Record<'owner' | 'frontDesk' | 'guide', Session>;

async function ok(response: Awaited<ReturnType<typeof call>>, status = 200) {
  expect(response.statusCode, response.body).toBe(status);
  return response.json().data;
}

const admin = (method: 'GET' | 'POST' | 'DELETE' | 'PATCH', url: string, body?: unknown) => call(t.app, op.adminKey, method, url, body);

async function posBooking(
  date: string,
  last: string,
  tickets: { Type: string; Quantity: number }[] = [{ Type: 'adult', Quantity: 2 }],
): Promise<string> {
  const booking = await ok(
    await admin('POST', '/api/v2/admin/bookings', { ActivityID: activityId, Date: date, Time: '21:00', Tickets: tickets, Customer: customer(last) }),
    201,
  );
  return booking.BookingReference as string;
}

async function auditOf(reference: string): Promise<{ Action: string; Actor: { Type: string }; Before: unknown; After: unknown }[]> {
  return (await ok(await admin('GET', `/api/v2/admin/audit?ResourceType=booking&ResourceID=${reference}`))).filter((entry: { Action: string }) =>
    entry.Action.startsWith('booking.check-in'),
  );
}

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  other = await t.newOperator();
  zone = morningZone();
  today = todayIn(zone);
  tomorrow = todayIn(zone, addMillis(nowMillis(), 86_400_000));
  const activity = await ok(
    await admin('POST', '/api/v2/admin/activities', { Name: 'Harbour walk', DurationMinutes: 60, Timezone: zone, Currency: 'EUR', UnitPrice: 2000 }),
    201,
  );
  activityId = activity.ActivityID;
  await addTicketType(t, op.adminKey, activityId, CHILD);
  todaySlot = (await ok(await admin('POST', `/api/v2/admin/activities/${activityId}/timeslots`, { Date: today, Time: '21:00', Capacity: 40 }), 201))
    .ID;
  tomorrowSlot = (
    await ok(await admin('POST', `/api/v2/admin/activities/${activityId}/timeslots`, { Date: tomorrow, Time: '21:00', Capacity: 40 }), 201)
  ).ID;
  questionId = (
    await ok(
      await admin('POST', `/api/v2/admin/activities/${activityId}/questions`, { Question: 'Medical certificate', Type: 'file', Required: false }),
      201,
    )
  ).ID;
  sessions.owner = await userSession(t, op.operatorId, 'owner');
  sessions.frontDesk = await userSession(t, op.operatorId, 'front-desk');
  sessions.guide = await userSession(t, op.operatorId, 'guide');
});
afterAll(() => t.close());

describe('manifests', () => {
  it("lists the day's timeslots with counts, and a timeslot's guests with tickets, channel, waiver answers and files", async () => {
    const pos = await posBooking(today, 'Zeller', [
      { Type: 'adult', Quantity: 1 },
      { Type: 'child', Quantity: 2 },
    ]);
    const fileId = fileIdOf(await uploadAs(t, op.otaKey, PDF));
    const partner = await ok(
      await call(t.app, op.otaKey, 'POST', `/api/v2/ota/viator/booking`, {
        ActivityID: activityId,
        Date: today,
        Time: '21:00',
        Participants: 3,
        Customer: customer('Abbot'),
        WaiverAnswers: [{ QuestionID: questionId, Answer: fileId }],
      }),
      201,
    );
    const day = await ok(await as(t, sessions.guide, 'GET', `/api/v2/admin/manifests?Date=${today}`));
    const slot = day.Timeslots.find((entry: { TimeslotID: number }) => entry.TimeslotID === todaySlot);
    expect(slot).toMatchObject({
      ActivityID: activityId,
      ActivityName: 'Harbour walk',
      Date: today,
      Time: '21:00',
      Bookings: 2,
      Guests: 6,
      CheckedIn: 0,
      NoShows: 0,
      Ended: false,
    });
    expect(day.Timeslots.map((entry: { Date: string }) => entry.Date)).toEqual(day.Timeslots.map(() => today));

    const manifest = await ok(await as(t, sessions.guide, 'GET', `/api/v2/admin/manifests/${todaySlot}`));
    expect(manifest.Entries.map((entry: { BookingReference: string }) => entry.BookingReference)).toEqual([partner.BookingReference, pos]);
    const [viaPartner, atDesk] = manifest.Entries;
    expect(atDesk).toMatchObject({
      Participants: 3,
      Tickets: [
        { Type: 'adult', Quantity: 1, CheckedIn: 0 },
        { Type: 'child', Quantity: 2, CheckedIn: 0 },
      ],
      Channel: 'Point of sale',
      Attendance: 'not-arrived',
      WaiverStatus: 'pending',
      Notes: null,
    });
    expect(viaPartner).toMatchObject({ Channel: 'Partner API: viator', Partner: 'viator', WaiverStatus: 'complete' });
    const download = viaPartner.WaiverAnswers[0].File.Download as string;
    expect(download).toBe(`/api/v2/admin/manifests/bookings/${partner.BookingReference}/files/${fileId}`);
    // A guide (no bookings:read) opens the file through the manifest, the same safe way.
    const file = await as(t, sessions.guide, 'GET', download);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toMatch(/^attachment;/);
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-security-policy']).toContain('sandbox');
    expect(file.rawPayload.equals(PDF)).toBe(true);
    problemOf(await as(t, sessions.guide, 'GET', `/api/v2/admin/manifests/bookings/${pos}/files/${fileId}`), 404, 'not-found');
  });

  it("shows an OCTo booking's channel and notes", async () => {
    const octo = octoClient(t, op.otaKey);
    const availabilityId = (await ok(await admin('GET', `/api/v2/admin/manifests/${todaySlot}`))).Timeslot.StartsAt;
    const reserved = octoBody(
      await octo('POST', '/bookings', {
        productId: activityId,
        optionId: 'DEFAULT',
        availabilityId,
        unitItems: [{ unitId: 'adult' }],
        notes: 'Arrives by boat',
      }),
      'Booking',
    );
    const confirmed = octoBody(await octo('POST', `/bookings/${reserved.uuid}/confirm`, { contact: { ...contact, lastName: 'Octavia' } }), 'Booking');
    const manifest = await ok(await admin('GET', `/api/v2/admin/manifests/${todaySlot}`));
    const entry = manifest.Entries.find((candidate: { BookingReference: string }) => candidate.BookingReference === confirmed.supplierReference);
    expect(entry).toMatchObject({ Channel: 'OCTo: viator', Notes: 'Arrives by boat' });
  });

  it('gives a guide today only (403 naming manifests:read), the front desk any day', async () => {
    problemOf(await as(t, sessions.guide, 'GET', `/api/v2/admin/manifests?Date=${tomorrow}`), 403, 'forbidden');
    const refused = problemOf(await as(t, sessions.guide, 'GET', `/api/v2/admin/manifests/${tomorrowSlot}`), 403, 'forbidden');
    expect(refused.detail).toContain('manifests:read');
    const reference = await posBooking(tomorrow, 'Later');
    problemOf(await as(t, sessions.guide, 'POST', `/api/v2/admin/bookings/${reference}/check-in`, {}), 403, 'forbidden');
    problemOf(await as(t, sessions.guide, 'GET', `/api/v2/admin/check-in/${reference}`), 403, 'forbidden');
    problemOf(await as(t, sessions.guide, 'DELETE', `/api/v2/admin/bookings/${reference}/check-in`), 403, 'forbidden');
    // Nothing was written by the refusals.
    expect((await ok(await admin('GET', `/api/v2/admin/check-in/${reference}`))).Booking.CheckedIn).toBe(0);
    expect(
      (await ok(await as(t, sessions.frontDesk, 'GET', `/api/v2/admin/manifests?Date=${tomorrow}`))).Timeslots.map(
        (s: { TimeslotID: number }) => s.TimeslotID,
      ),
    ).toEqual([tomorrowSlot]);
    expect((await ok(await as(t, sessions.frontDesk, 'GET', `/api/v2/admin/manifests/${tomorrowSlot}`))).Entries.length).toBeGreaterThan(0);
    // No date: today.
    expect((await ok(await as(t, sessions.guide, 'GET', '/api/v2/admin/manifests'))).Date).toBe(today);
    // The no-show report is for manifests:read.
    problemOf(await as(t, sessions.guide, 'GET', `/api/v2/admin/no-shows?From=${today}&To=${today}`), 403, 'forbidden');
  });

  it("keeps operators apart: another operator's timeslot, booking and day are not found or empty", async () => {
    const reference = await posBooking(today, 'Private');
    problemOf(await call(t.app, other.adminKey, 'GET', `/api/v2/admin/manifests/${todaySlot}`), 404, 'not-found');
    problemOf(await call(t.app, other.adminKey, 'POST', `/api/v2/admin/bookings/${reference}/check-in`, {}), 404, 'not-found');
    problemOf(await call(t.app, other.adminKey, 'DELETE', `/api/v2/admin/bookings/${reference}/check-in`), 404, 'not-found');
    problemOf(await call(t.app, other.adminKey, 'GET', `/api/v2/admin/check-in/${reference}`), 404, 'not-found');
    problemOf(await call(t.app, other.adminKey, 'GET', `/api/v2/admin/bookings/${reference}/qr.svg`), 404, 'not-found');
    expect((await ok(await call(t.app, other.adminKey, 'GET', `/api/v2/admin/manifests?Date=${today}`))).Timeslots).toEqual([]);
  });

  it('validates its parameters (422, 400)', async () => {
    problemOf(await admin('GET', '/api/v2/admin/manifests?Date=tomorrow'), 422, 'validation');
    problemOf(await admin('GET', '/api/v2/admin/manifests/0'), 400, 'bad-request');
    problemOf(await admin('GET', '/api/v2/admin/check-in/nonsense'), 400, 'bad-request');
    const reversed = problemOf(await admin('GET', `/api/v2/admin/no-shows?From=${tomorrow}&To=${today}`), 422, 'validation');
    expect(reversed.errors?.[0]?.field).toBe('To');
    problemOf(await admin('GET', `/api/v2/admin/no-shows?From=2030-01-01&To=2030-06-01`), 422, 'validation');
    problemOf(await admin('GET', '/api/v2/admin/no-shows'), 422, 'validation');
    problemOf(await admin('GET', `/api/v2/admin/manifests/999999`), 404, 'not-found');
    const reference = await posBooking(today, 'Formats');
    const plain = await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${reference}/check-in`, 'everyone', {
      'content-type': 'text/plain',
    });
    problemOf(plain, 415, 'unsupported-media-type');
    problemOf(await call(t.app, undefined, 'POST', `/api/v2/admin/bookings/${reference}/check-in`, {}), 401, 'unauthenticated');
    problemOf(await call(t.app, undefined, 'GET', `/api/v2/admin/manifests`), 401, 'unauthenticated');
  });
});

describe('check-in', () => {
  it('checks in a whole booking, idempotently, with one audit entry naming the user', async () => {
    const reference = await posBooking(today, 'Whole');
    const first = await ok(await as(t, sessions.guide, 'POST', `/api/v2/admin/bookings/${reference}/check-in`, {}));
    expect(first.Changed).toBe(true);
    expect(first.Booking).toMatchObject({
      BookingReference: reference,
      Attendance: 'checked-in',
      CheckedIn: 2,
      Tickets: [{ Type: 'adult', Quantity: 2, CheckedIn: 2 }],
    });
    expect(Date.parse(first.Booking.CheckedInAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(first.Timeslot.TimeslotID).toBe(todaySlot);
    // The double tap (and a body-less request): nothing changes, nothing more in the log.
    const again = await as(t, sessions.guide, 'POST', `/api/v2/admin/bookings/${reference}/check-in`);
    expect((await ok(again)).Changed).toBe(false);
    const entries = await auditOf(reference);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      Action: 'booking.check-in',
      Actor: { Type: 'user' },
      Before: { CheckedIn: { adult: 0 } },
      After: { CheckedIn: { adult: 2 } },
    });
  });

  it('is safe when the same check-in arrives many times at once: one change, one audit entry', async () => {
    const reference = await posBooking(today, 'Racing');
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => as(t, sessions.frontDesk, 'POST', `/api/v2/admin/bookings/${reference}/check-in`, {})),
    );
    const changed = answers.map((response) => {
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data.Changed as boolean;
    });
    expect(changed.filter(Boolean)).toHaveLength(1);
    expect(await auditOf(reference)).toHaveLength(1);
  });

  it('checks in some of the guests per ticket type, within bounds (422 naming the field), and undoes', async () => {
    const reference = await posBooking(today, 'Partial', [
      { Type: 'adult', Quantity: 2 },
      { Type: 'child', Quantity: 1 },
    ]);
    const url = `/api/v2/admin/bookings/${reference}/check-in`;
    const partial = await ok(await as(t, sessions.guide, 'POST', url, { Tickets: [{ Type: 'adult', CheckedIn: 1 }] }));
    expect(partial.Booking).toMatchObject({
      Attendance: 'partial',
      CheckedIn: 1,
      Tickets: [
        { Type: 'adult', CheckedIn: 1 },
        { Type: 'child', CheckedIn: 0 },
      ],
    });

    const tooMany = problemOf(await as(t, sessions.guide, 'POST', url, { Tickets: [{ Type: 'child', CheckedIn: 2 }] }), 422, 'validation');
    expect(tooMany.errors).toEqual([{ field: 'Tickets[0].CheckedIn', message: expect.stringContaining('At most 1') }]);
    const unknown = problemOf(
      await as(t, sessions.guide, 'POST', url, {
        Tickets: [
          { Type: 'adult', CheckedIn: 2 },
          { Type: 'senior', CheckedIn: 1 },
        ],
      }),
      422,
      'validation',
    );
    expect(unknown.errors?.map((error) => error.field)).toEqual(['Tickets[1].Type']);
    problemOf(await as(t, sessions.guide, 'POST', url, { Tickets: [{ Type: 'adult', CheckedIn: -1 }] }), 422, 'validation');
    problemOf(await as(t, sessions.guide, 'POST', url, { Tickets: [] }), 422, 'validation');
    problemOf(await as(t, sessions.guide, 'POST', url, { People: 2 }), 422, 'validation');
    // A refused request wrote nothing.
    expect((await ok(await as(t, sessions.guide, 'GET', `/api/v2/admin/check-in/${reference}`))).Booking.CheckedIn).toBe(1);

    const rest = await ok(
      await as(t, sessions.guide, 'POST', url, {
        Tickets: [
          { Type: 'adult', CheckedIn: 2 },
          { Type: 'child', CheckedIn: 1 },
        ],
      }),
    );
    expect(rest.Booking).toMatchObject({ Attendance: 'checked-in', CheckedIn: 3 });

    const undone = await ok(await as(t, sessions.guide, 'DELETE', url));
    expect(undone).toMatchObject({ Changed: true, Booking: { Attendance: 'not-arrived', CheckedIn: 0, CheckedInAt: null } });
    expect((await ok(await as(t, sessions.guide, 'DELETE', url))).Changed).toBe(false);
    const actions = (await auditOf(reference)).map((entry) => entry.Action);
    expect(actions).toEqual(['booking.check-in-undo', 'booking.check-in', 'booking.check-in']);
  });

  it('refuses a cancelled booking (409) and writes nothing', async () => {
    const reference = await posBooking(today, 'Cancelled');
    await ok(await admin('POST', `/api/v2/admin/bookings/${reference}/cancel`));
    const refused = problemOf(await as(t, sessions.guide, 'POST', `/api/v2/admin/bookings/${reference}/check-in`, {}), 409, 'conflict');
    expect(refused.detail).toContain('cancelled');
    problemOf(await as(t, sessions.guide, 'DELETE', `/api/v2/admin/bookings/${reference}/check-in`), 409, 'conflict');
    expect(await auditOf(reference)).toEqual([]);
    // The door's look-up still finds it, and says so.
    expect((await ok(await as(t, sessions.guide, 'GET', `/api/v2/admin/check-in/${reference}`))).Booking.Status).toBe('cancelled');
    problemOf(await as(t, sessions.guide, 'POST', '/api/v2/admin/bookings/BK-ZZZZZZZZ/check-in', {}), 404, 'not-found');
  });

  it('shows a checked-in OCTo booking as REDEEMED with utcRedeemedAt, unit items as far as checked in', async () => {
    const octo = octoClient(t, op.otaKey);
    const availabilityId = (await ok(await admin('GET', `/api/v2/admin/manifests/${todaySlot}`))).Timeslot.StartsAt;
    const reserved = octoBody(
      await octo('POST', '/bookings', {
        productId: activityId,
        optionId: 'DEFAULT',
        availabilityId,
        unitItems: [{ unitId: 'adult' }, { unitId: 'adult' }],
      }),
      'Booking',
    );
    const confirmed = octoBody(await octo('POST', `/bookings/${reserved.uuid}/confirm`, { contact }), 'Booking');
    expect(confirmed).toMatchObject({ status: 'CONFIRMED', utcRedeemedAt: null, voucher: { utcRedeemedAt: null } });

    await ok(await admin('POST', `/api/v2/admin/bookings/${confirmed.supplierReference}/check-in`, { Tickets: [{ Type: 'adult', CheckedIn: 1 }] }));
    const redeemed = octoBody(await octo('GET', `/bookings/${reserved.uuid}`), 'Booking');
    expect(redeemed.status).toBe('REDEEMED');
    expect(redeemed.utcRedeemedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(redeemed.voucher.utcRedeemedAt).toBe(redeemed.utcRedeemedAt);
    expect(redeemed.cancellable).toBe(false);
    expect(redeemed.unitItems.map((item: { status: string }) => item.status)).toEqual(['REDEEMED', 'CONFIRMED']);
    expect(redeemed.unitItems[1].utcRedeemedAt).toBeNull();
    // The reseller cannot cancel a booking whose guests came.
    octoError(await octo('POST', `/bookings/${reserved.uuid}/cancel`, {}), 400, 'UNPROCESSABLE_ENTITY');

    await ok(await admin('DELETE', `/api/v2/admin/bookings/${confirmed.supplierReference}/check-in`));
    const undone = octoBody(await octo('GET', `/bookings/${reserved.uuid}`), 'Booking');
    expect(undone).toMatchObject({ status: 'CONFIRMED', utcRedeemedAt: null });
  });

  it("answers the booking's QR code as SVG for staff with bookings:read", async () => {
    const reference = await posBooking(today, 'Coded');
    const qr = await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${reference}/qr.svg`);
    expect(qr.statusCode).toBe(200);
    expect(qr.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(qr.body).toMatch(/^<svg[^>]*viewBox/);
    problemOf(await as(t, sessions.guide, 'GET', `/api/v2/admin/bookings/${reference}/qr.svg`), 403, 'forbidden');
  });
});

describe('no-shows', () => {
  it('counts the bookings nobody came to once the timeslot has ended, per timeslot and day', async () => {
    const date = todayIn(zone, addMillis(nowMillis(), 2 * 86_400_000));
    const slot = (await ok(await admin('POST', `/api/v2/admin/activities/${activityId}/timeslots`, { Date: date, Time: '21:00', Capacity: 10 }), 201))
      .ID as number;
    const came = await posBooking(date, 'Came');
    const missing = await posBooking(date, 'Missing');
    const some = await posBooking(date, 'Some', [{ Type: 'adult', Quantity: 2 }]);
    await ok(await admin('POST', `/api/v2/admin/bookings/${came}/check-in`, {}));
    await ok(await admin('POST', `/api/v2/admin/bookings/${some}/check-in`, { Tickets: [{ Type: 'adult', CheckedIn: 1 }] }));

    // Before it ends nobody is a no-show.
    expect((await ok(await admin('GET', `/api/v2/admin/no-shows?From=${date}&To=${date}`))).Timeslots).toEqual([]);
    expect((await ok(await admin('GET', `/api/v2/admin/manifests?Date=${date}`))).Timeslots[0].NoShows).toBe(0);

    // The timeslot ends (moved into the past: bookings cannot be made there).
    const past = addSeconds(unixNow(), -3600);
    await t.db.write((tx) =>
      tx
        .updateTable('timeslots')
        .set({ starts_at: addSeconds(past, -3600), ends_at: past })
        .where('id', '=', slot)
        .execute(),
    );
    const report = await ok(await as(t, sessions.frontDesk, 'GET', `/api/v2/admin/no-shows?From=${date}&To=${date}`));
    expect(report).toMatchObject({ From: date, To: date, Bookings: 1, Guests: 3 });
    expect(report.Timeslots).toHaveLength(1);
    expect(report.Timeslots[0].Timeslot).toMatchObject({ TimeslotID: slot, Ended: true, NoShows: 1, Bookings: 3, CheckedIn: 3 });
    expect(
      report.Timeslots[0].Entries.map((entry: { BookingReference: string; Attendance: string }) => [entry.BookingReference, entry.Attendance]),
    ).toEqual([
      [missing, 'no-show'],
      [some, 'partial'],
    ]);
    const manifest = await ok(await admin('GET', `/api/v2/admin/manifests/${slot}`));
    expect(manifest.Entries.map((entry: { Attendance: string }) => entry.Attendance)).toEqual(['checked-in', 'no-show', 'partial']);
  });
});
