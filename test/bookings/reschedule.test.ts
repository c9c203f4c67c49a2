// Rescheduling (issue 26, item 1): POST /api/v2/admin/bookings/{ref}/reschedule, the partner's
// POST /api/v2/ota/{partner}/booking/{ref}/reschedule and the guest's POST .../shop/{op}/bookings/{token}/reschedule
// move a live booking to another timeslot through the one amendment: the seats move in one transaction
// (never overbooked, also when two moves race for the last seat), the booking keeps its reference, tickets,
// answers and check-in, webhooks and the audit log hear of it, and the workflows' booking-rescheduled e-mail
// is queued for each move.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday, getTimeslot, type AdminTimeslot } from '../availability/fixtures.js';
import { addEndpoint } from '../webhooks/fixtures.js';
import { dispatchEvents } from '../../src/webhooks/deliveries/dispatch.js';
import { manageToken } from '../../src/storefront/manage.js';
import { openShop } from '../shop/fixtures.js';
import { addSeconds, unixNow } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;
let kayak: string;
let canoe: string;
let pottery: string;
let day = 20;
const customer = { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: '+441234567890' };

const reschedule = (reference: string, body: unknown, key = op.adminKey) =>
  call(t.app, key, 'POST', `/api/v2/admin/bookings/${reference}/reschedule`, body);
const partnerReschedule = (reference: string, body: unknown, key = op.otaKey, partner = 'viator') =>
  call(t.app, key, 'POST', `/api/v2/ota/${partner}/booking/${reference}/reschedule`, body);

async function slots(activityId: string, times: string[], capacity = 10, operator = op): Promise<AdminTimeslot[]> {
  const date = dateFromToday(day++);
  const made: AdminTimeslot[] = [];
  for (const Time of times) made.push(await createTimeslot(t, operator.adminKey, activityId, { Date: date, Time, Capacity: capacity }));
  return made;
}

async function posBook(slot: AdminTimeslot, body: Record<string, unknown> = { Participants: 2 }, operator = op) {
  const response = await call(t.app, operator.adminKey, 'POST', '/api/v2/admin/bookings', {
    ActivityID: slot.ActivityID,
    Date: slot.Date,
    Time: slot.Time,
    Customer: customer,
    ...body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { BookingReference: string; Total: number; Tickets: unknown[] };
}

async function partnerBook(slot: AdminTimeslot, body: Record<string, unknown> = {}, key = op.otaKey, partner = 'viator') {
  const response = await call(t.app, key, 'POST', `/api/v2/ota/${partner}/booking`, {
    ActivityID: slot.ActivityID,
    Date: slot.Date,
    Time: slot.Time,
    Participants: 1,
    Customer: customer,
    ...body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { BookingReference: string };
}

const booked = async (slot: AdminTimeslot) => (await getTimeslot(t, op.adminKey, slot.ID)).Booked;

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  other = await t.newOperator();
  kayak = (await createActivity(t, op.adminKey, { Name: 'Kayak', UnitPrice: 4500 })).ActivityID;
  canoe = (await createActivity(t, op.adminKey, { Name: 'Canoe', UnitPrice: 3000 })).ActivityID;
  pottery = (await createActivity(t, op.adminKey, { Name: 'Pottery', UnitPrice: 2000 })).ActivityID;
  // Pottery sells a student ticket too: a booking with one cannot move to the kayak, which does not.
  const student = await call(t.app, op.adminKey, 'POST', `/api/v2/admin/activities/${pottery}/ticket-types`, {
    Type: 'student',
    Name: 'Student',
    Price: 1500,
  });
  expect(student.statusCode, student.body).toBe(201);
});
afterAll(() => t.close());

describe('POST /api/v2/admin/bookings/{ref}/reschedule', () => {
  it('moves the booking (200): same reference, tickets and price; the seats move; audit, webhooks', async () => {
    await addEndpoint(t, op.adminKey, { URL: 'http://127.0.0.1:9/hook', EventTypes: ['booking.updated', 'availability.changed'] });
    const [ten, two] = await slots(kayak, ['10:00', '14:00']);
    const booking = await posBook(ten!);
    const moved = await reschedule(booking.BookingReference, { Date: two!.Date, Time: '14:00' });
    expect(moved.statusCode, moved.body).toBe(200);
    const data = moved.json().data;
    expect(data).toMatchObject({ BookingReference: booking.BookingReference, Date: two!.Date, Time: '14:00', Status: 'confirmed', Total: 9000 });
    expect(data.Tickets).toEqual(booking.Tickets);
    expect(await booked(ten!)).toBe(0);
    expect(await booked(two!)).toBe(2);
    // Read back through the API.
    const read = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${booking.BookingReference}`)).json().data;
    expect(read).toMatchObject({ Time: '14:00', Participants: 2 });

    const entries = await t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'booking.reschedule')
      .where('resource_id', '=', booking.BookingReference)
      .execute();
    expect(entries).toHaveLength(1);
    expect(JSON.parse(entries[0]!.before_json!)).toMatchObject({ Time: '10:00' });
    expect(JSON.parse(entries[0]!.after_json!)).toMatchObject({ Time: '14:00', ActivityID: kayak });
    expect(entries[0]!.actor_type).toBe('key');

    await dispatchEvents(t.db, addSeconds(unixNow(), 60));
    const events = await t.db.kysely.selectFrom('webhook_events').select(['type', 'resource']).where('operator_id', '=', op.operatorId).execute();
    expect(events).toContainEqual({ type: 'booking.updated', resource: `booking:${booking.BookingReference}` });
    const changed = events.filter((event) => event.type === 'availability.changed').map((event) => event.resource);
    expect(changed).toEqual(expect.arrayContaining([`timeslot:${ten!.ID}`, `timeslot:${two!.ID}`]));
  });

  it('moving a booking to where it is changes nothing (200, no audit entry)', async () => {
    const [ten] = await slots(kayak, ['10:00']);
    const booking = await posBook(ten!);
    const again = await reschedule(booking.BookingReference, { Date: ten!.Date, Time: '10:00' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.Time).toBe('10:00');
    expect(await booked(ten!)).toBe(2);
    const entries = await t.db.kysely
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'booking.reschedule')
      .where('resource_id', '=', booking.BookingReference)
      .execute();
    expect(entries).toHaveLength(0);
  });

  it('is 409 (booking unchanged) when the new timeslot lacks room', async () => {
    const [ten, two] = await slots(kayak, ['10:00', '14:00'], 3);
    const booking = await posBook(ten!, { Participants: 2 });
    await posBook(two!, { Participants: 2 });
    const refused = problemOf(await reschedule(booking.BookingReference, { Date: two!.Date, Time: '14:00' }), 409, 'insufficient-capacity');
    expect(refused.detail).toMatch(/1 left/);
    const read = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${booking.BookingReference}`)).json().data;
    expect(read.Time).toBe('10:00');
    expect(await booked(ten!)).toBe(2);
    expect(await booked(two!)).toBe(2);
  });

  it('two moves racing into the last seat: one 200, one 409, never overbooked', async () => {
    const [ten, two] = await slots(kayak, ['10:00', '14:00'], 3);
    const a = await posBook(ten!, { Participants: 1 });
    const b = await posBook(ten!, { Participants: 1 });
    await posBook(two!, { Participants: 2 });
    const answers = await Promise.all([
      reschedule(a.BookingReference, { Date: two!.Date, Time: '14:00' }),
      reschedule(b.BookingReference, { Date: two!.Date, Time: '14:00' }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect(await booked(two!)).toBe(3);
    expect(await booked(ten!)).toBe(1);
    const times = await Promise.all(
      [a, b].map(async (x) => (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${x.BookingReference}`)).json().data.Time),
    );
    expect(times.sort()).toEqual(['10:00', '14:00']);
  });

  it('moves to another activity with the same ticket types, priced by it; 422 on ActivityID otherwise', async () => {
    const [ten] = await slots(kayak, ['10:00']);
    const [canoeSlot] = await slots(canoe, ['11:00']);
    const booking = await posBook(ten!);
    const moved = await reschedule(booking.BookingReference, { ActivityID: canoe, Date: canoeSlot!.Date, Time: '11:00' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data).toMatchObject({ ActivityID: canoe, Total: 6000, BookingReference: booking.BookingReference });
    expect(await booked(canoeSlot!)).toBe(2);
    expect(await booked(ten!)).toBe(0);

    const [potterySlot] = await slots(pottery, ['09:00']);
    const students = await posBook(potterySlot!, { Tickets: [{ Type: 'student', Quantity: 1 }] });
    const [kayakSlot] = await slots(kayak, ['09:00']);
    const refused = problemOf(
      await reschedule(students.BookingReference, { ActivityID: kayak, Date: kayakSlot!.Date, Time: '09:00' }),
      422,
      'validation',
    );
    expect(refused.errors?.[0]?.field).toBe('ActivityID');
    expect(refused.detail).toMatch(/student/);
    const unknown = problemOf(
      await reschedule(students.BookingReference, { ActivityID: 's_doesnotexist1', Date: kayakSlot!.Date, Time: '09:00' }),
      422,
      'validation',
    );
    expect(unknown.errors?.[0]?.field).toBe('ActivityID');
  });

  it('is 422 naming the field otherwise, 404 for an unknown booking, 409 for a cancelled one', async () => {
    const [ten] = await slots(kayak, ['10:00']);
    const booking = await posBook(ten!);
    const noSlot = problemOf(await reschedule(booking.BookingReference, { Date: ten!.Date, Time: '23:00' }), 422, 'validation');
    expect(noSlot.errors?.[0]?.field).toBe('Time');
    const bad = problemOf(await reschedule(booking.BookingReference, { Date: '2026-13-01', Time: '25:00' }), 422, 'validation');
    expect(bad.errors!.map((e) => e.field).sort()).toEqual(['Date', 'Time']);
    const missing = problemOf(await reschedule(booking.BookingReference, {}), 422, 'validation');
    expect(missing.errors!.map((e) => e.field).sort()).toEqual(['Date', 'Time']);
    const past = await createTimeslot(t, op.adminKey, kayak, { Date: dateFromToday(-2), Time: '10:00', Capacity: 5 });
    const started = problemOf(await reschedule(booking.BookingReference, { Date: past.Date, Time: '10:00' }), 422, 'validation');
    expect(started.errors?.[0]?.field).toBe('Time');
    problemOf(await reschedule('BK-ZZZZZZZZ', { Date: ten!.Date, Time: '10:00' }), 404, 'not-found');
    // Another operator's booking is not found either.
    problemOf(await reschedule(booking.BookingReference, { Date: ten!.Date, Time: '10:00' }, other.adminKey), 404, 'not-found');
    expect((await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${booking.BookingReference}/cancel`)).statusCode).toBe(200);
    problemOf(await reschedule(booking.BookingReference, { Date: ten!.Date, Time: '10:00' }), 409, 'conflict');
  });
});

describe('POST /api/v2/ota/{partner}/booking/{ref}/reschedule', () => {
  it("moves the marketplace's own booking; another marketplace's or the operator's own sale is 404", async () => {
    const gyg = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/keys', { Name: 'GYG', Scopes: ['ota'], Partner: 'getyourguide' });
    expect(gyg.statusCode, gyg.body).toBe(201);
    const gygKey: string = gyg.json().data.Key;
    const [ten, two] = await slots(kayak, ['10:00', '14:00']);
    const mine = await partnerBook(ten!);
    const theirs = await partnerBook(ten!, {}, gygKey, 'getyourguide');
    const pos = await posBook(ten!);
    const moved = await partnerReschedule(mine.BookingReference, { Date: two!.Date, Time: '14:00' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data).toMatchObject({ BookingReference: mine.BookingReference, Time: '14:00', Source: 'partner' });
    problemOf(await partnerReschedule(theirs.BookingReference, { Date: two!.Date, Time: '14:00' }), 404, 'not-found');
    problemOf(await partnerReschedule(pos.BookingReference, { Date: two!.Date, Time: '14:00' }), 404, 'not-found');
    expect(await booked(two!)).toBe(1);
    // A hold moves too, and stays a hold.
    const hold = await partnerBook(ten!, { HoldMinutes: 30 });
    const movedHold = await partnerReschedule(hold.BookingReference, { Date: two!.Date, Time: '14:00' });
    expect(movedHold.json().data).toMatchObject({ Status: 'on_hold', Time: '14:00' });
  });
});

describe("the guest's own move (manage page)", () => {
  it('follows the activity rule GuestRescheduleHours: not allowed (null), allowed, too late', async () => {
    await openShop(t, op.adminKey);
    const [ten, two] = await slots(kayak, ['10:00', '14:00']);
    const booking = await posBook(ten!);
    const token = manageToken(t.app.instanceKeys, op.operatorId, booking.BookingReference);
    const manage = `/api/v2/shop/${op.operatorId}/bookings/${token}`;
    const view = (await call(t.app, undefined, 'GET', manage)).json().data;
    expect(view.Reschedule).toEqual({ Allowed: false, Until: null, Refusal: 'not-allowed' });
    problemOf(await call(t.app, undefined, 'POST', `${manage}/reschedule`, { Date: two!.Date, Time: '14:00' }), 409, 'conflict');

    const set = await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${kayak}`, { GuestRescheduleHours: 24 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data.GuestRescheduleHours).toBe(24);
    const allowed = (await call(t.app, undefined, 'GET', manage)).json().data;
    expect(allowed.Reschedule).toMatchObject({ Allowed: true, Refusal: null });
    const moved = await call(t.app, undefined, 'POST', `${manage}/reschedule`, { Date: two!.Date, Time: '14:00' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data).toMatchObject({ Time: '14:00', Total: 9000 });
    expect(await booked(two!)).toBe(2);
    const entry = await t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'booking.reschedule')
      .where('resource_id', '=', booking.BookingReference)
      .executeTakeFirstOrThrow();
    expect(entry.actor_label).toBe('guest (manage link)');
    const noSlot = problemOf(await call(t.app, undefined, 'POST', `${manage}/reschedule`, { Date: two!.Date, Time: '03:00' }), 422, 'validation');
    expect(noSlot.errors?.[0]?.field).toBe('Time');

    // Too late: the rule's hours before the start have passed (a year before it, here).
    expect((await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${kayak}`, { GuestRescheduleHours: 8760 })).statusCode).toBe(200);
    const late = (await call(t.app, undefined, 'GET', manage)).json().data;
    expect(late.Reschedule).toMatchObject({ Allowed: false, Refusal: 'too-late' });
    const refused = problemOf(await call(t.app, undefined, 'POST', `${manage}/reschedule`, { Date: ten!.Date, Time: '10:00' }), 409, 'conflict');
    expect(refused.detail).toMatch(/closed/);
    expect(await booked(two!)).toBe(2);
    await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${kayak}`, { GuestRescheduleHours: null });
  });
});

describe("the guest's e-mail", () => {
  it('a booking-rescheduled workflow e-mails the guest at each move, with the new time', async () => {
    const workflow = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/workflows', {
      Name: 'Moved',
      Event: 'booking-rescheduled',
      Subject: 'Your booking {{BookingReference}} moved',
      Body: 'Hello {{FirstName}}, see you on {{Date}} at {{Time}}.',
    });
    expect(workflow.statusCode, workflow.body).toBe(201);
    const [ten, two, four] = await slots(canoe, ['10:00', '14:00', '16:00']);
    const booking = await posBook(ten!);
    expect((await reschedule(booking.BookingReference, { Date: two!.Date, Time: '14:00' })).statusCode).toBe(200);
    const emails = () =>
      t.db.kysely
        .selectFrom('emails')
        .innerJoin('bookings', 'bookings.id', 'emails.booking_id')
        .select(['emails.subject', 'emails.body', 'emails.to_address', 'emails.status'])
        .where('bookings.reference', '=', booking.BookingReference)
        .where('emails.workflow_id', '=', workflow.json().data.ID)
        .execute();
    expect(await emails()).toEqual([
      {
        subject: `Your booking ${booking.BookingReference} moved`,
        body: `Hello Ada, see you on ${two!.Date} at 14:00.`,
        to_address: 'ada@example.com',
        status: 'queued',
      },
    ]);
    expect((await reschedule(booking.BookingReference, { Date: four!.Date, Time: '16:00' })).statusCode).toBe(200);
    expect((await emails()).map((email) => email.body)).toEqual([`Hello Ada, see you on ${four!.Date} at 16:00.`]);
  });
});
