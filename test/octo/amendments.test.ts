// OCTo amendments: another availability, product or unit mix through PATCH and confirm, in one
// transaction that takes the new seats and frees the old ones together; never overbooked (also when
// amendments and bookings race), repeatable, and on the same timeslot only the difference counts.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday, getTimeslot, type AdminTimeslot } from '../availability/fixtures.js';
import { addFamilyTypes } from '../catalog/tickets/fixtures.js';
import { contact, customer, octoClient, type OctoCall } from './fixtures.js';
import { pauseStarterWorkflows } from '../emails/fixtures.js';
import { octoBody, octoError } from './spec.js';

let t: TestApp;
let op: TestOperator;
let octo: OctoCall;
let cruise: string;
let kayak: string;
let a: AdminTimeslot;
let b: AdminTimeslot;
let day = 60;

const items = (...units: string[]) => units.map((unitId) => ({ unitId }));
const adults = (n: number) => items(...Array.from({ length: n }, () => 'adult'));
const reserve = async (slot: AdminTimeslot, unitItems = adults(2), productId = cruise) =>
  octoBody(
    await octo('POST', '/bookings', { uuid: randomUUID(), productId, optionId: 'DEFAULT', availabilityId: slot.StartsAt, unitItems }),
    'Booking',
  );
const booked = async (slot: AdminTimeslot) => (await getTimeslot(t, op.adminKey, slot.ID)).Booked;
const patch = (uuid: string, body: Record<string, unknown>) => octo('PATCH', `/bookings/${uuid}`, body, 'octo/pricing');

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  // The e-mails asserted are those of the workflows these tests make.
  await pauseStarterWorkflows(t, op.adminKey);
  octo = octoClient(t, op.otaKey);
  cruise = (await createActivity(t, op.adminKey, { Name: 'River Cruise', UnitPrice: 1900, MaxParticipantsPerBooking: 10 })).ActivityID;
  await addFamilyTypes(t, op.adminKey, cruise);
  kayak = (await createActivity(t, op.adminKey, { Name: 'Kayak', UnitPrice: 4900, MaxParticipantsPerBooking: 8 })).ActivityID;
});
afterAll(() => t.close());

// Two timeslots of 5 seats on a date of each test's own.
beforeEach(async () => {
  const date = dateFromToday(day++);
  a = await createTimeslot(t, op.adminKey, cruise, { Date: date, Time: '11:00', Capacity: 5 });
  b = await createTimeslot(t, op.adminKey, cruise, { Date: date, Time: '14:00', Capacity: 5 });
});

describe('PATCH amends a booking', () => {
  it('moves it to another availability: the seats move with it', async () => {
    const booking = await reserve(a, adults(3));
    const moved = octoBody(await patch(booking.uuid, { availabilityId: b.StartsAt }), 'Booking');
    expect(moved).toMatchObject({
      id: booking.id,
      uuid: booking.uuid,
      status: 'ON_HOLD',
      availabilityId: b.StartsAt,
      utcExpiresAt: booking.utcExpiresAt,
    });
    expect([await booked(a), await booked(b)]).toEqual([0, 3]);
    // The same amendment again changes nothing.
    octoBody(await patch(booking.uuid, { availabilityId: b.StartsAt }), 'Booking');
    expect([await booked(a), await booked(b)]).toEqual([0, 3]);
  });

  it('changes the unit mix: the items are all the tickets, the first ones keep their uuids, prices are per unit', async () => {
    const booking = await reserve(a, items('adult', 'adult'));
    const changed = octoBody(await patch(booking.uuid, { unitItems: items('adult', 'adult', 'child', 'infant') }), 'Booking');
    expect(changed.unitItems.map((item: { unitId: string }) => item.unitId)).toEqual(['adult', 'adult', 'child', 'infant']);
    expect(changed.unitItems.slice(0, 2).map((item: { uuid: string }) => item.uuid)).toEqual(
      booking.unitItems.map((item: { uuid: string }) => item.uuid),
    );
    expect(new Set(changed.unitItems.map((item: { uuid: string }) => item.uuid)).size).toBe(4);
    expect(changed.pricing.retail).toBe(2 * 1900 + 1100);
    expect(await booked(a)).toBe(3);
    const read = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${booking.id}`)).json().data;
    expect(read).toMatchObject({ Participants: 4, Seats: 3, Total: 4900 });
    // Fewer tickets give seats back.
    octoBody(await patch(booking.uuid, { unitItems: items('adult') }), 'Booking');
    expect(await booked(a)).toBe(1);
  });

  it('counts only the difference on the same timeslot: growing into the last seats never fails spuriously', async () => {
    const booking = await reserve(a, adults(4));
    const grown = octoBody(await patch(booking.uuid, { unitItems: adults(5) }), 'Booking');
    expect(grown.unitItems).toHaveLength(5);
    expect(await booked(a)).toBe(5);
    // Moving 5 seats onto a timeslot with 5 free, freeing the 5 here, in one go.
    octoBody(await patch(booking.uuid, { availabilityId: b.StartsAt }), 'Booking');
    expect([await booked(a), await booked(b)]).toEqual([0, 5]);
  });

  it("refuses what does not fit, in OCTo's words, and changes nothing", async () => {
    const booking = await reserve(a, adults(2));
    await reserve(b, adults(4));
    const full = octoError(await patch(booking.uuid, { availabilityId: b.StartsAt }), 400, 'UNPROCESSABLE_ENTITY');
    expect(full.errorMessage).toMatch(/Not enough seats/);
    octoError(await patch(booking.uuid, { unitItems: adults(6) }), 400, 'UNPROCESSABLE_ENTITY');
    octoError(await patch(booking.uuid, { unitItems: items('child') }), 400, 'UNPROCESSABLE_ENTITY');
    octoError(await patch(booking.uuid, { unitItems: items('adult', 'pirate') }), 400, 'INVALID_UNIT_ID');
    octoError(await patch(booking.uuid, { availabilityId: '2031-01-01T09:00:00+01:00' }), 400, 'INVALID_AVAILABILITY_ID');
    const past = await createTimeslot(t, op.adminKey, cruise, { Date: dateFromToday(-1), Time: '11:00', Capacity: 5 });
    octoError(await patch(booking.uuid, { availabilityId: past.StartsAt }), 400, 'UNPROCESSABLE_ENTITY');
    const read = octoBody(await octo('GET', `/bookings/${booking.uuid}`), 'Booking');
    expect(read).toMatchObject({ availabilityId: a.StartsAt, unitItems: [{ unitId: 'adult' }, { unitId: 'adult' }] });
    expect([await booked(a), await booked(b)]).toEqual([2, 4]);
    await octo('POST', `/bookings/${booking.uuid}/cancel`);
    octoError(await patch(booking.uuid, { availabilityId: b.StartsAt }), 400, 'UNPROCESSABLE_ENTITY');
  });

  it('moves a confirmed booking to another product with its availability and units', async () => {
    const kayakSlot = await createTimeslot(t, op.adminKey, kayak, { Date: a.Date, Time: '10:00', Capacity: 8 });
    const booking = await reserve(a, items('adult', 'child'));
    await octo('POST', `/bookings/${booking.uuid}/confirm`, { contact });
    // The kayak sells no child tickets: the units must come with the move.
    octoError(await patch(booking.uuid, { productId: kayak, optionId: 'DEFAULT', availabilityId: kayakSlot.StartsAt }), 400, 'INVALID_UNIT_ID');
    octoError(await patch(booking.uuid, { productId: kayak, unitItems: adults(2) }), 400, 'INVALID_AVAILABILITY_ID');
    const moved = octoBody(
      await patch(booking.uuid, { productId: kayak, optionId: 'DEFAULT', availabilityId: kayakSlot.StartsAt, unitItems: adults(2) }),
      'Booking',
    );
    expect(moved).toMatchObject({ status: 'CONFIRMED', productId: kayak, availabilityId: kayakSlot.StartsAt, pricing: { retail: 9800 } });
    expect([await booked(a), await booked(kayakSlot)]).toEqual([0, 2]);
    const read = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${booking.id}`)).json().data;
    expect(read).toMatchObject({ ActivityID: kayak, Time: '10:00', Tickets: [{ Type: 'adult', Quantity: 2, UnitPrice: 4900 }] });
  });
});

describe('confirm with unitItems amends the booking first', () => {
  it('confirms another number of units, seats permitting', async () => {
    const booking = await reserve(a, adults(2));
    const done = octoBody(await octo('POST', `/bookings/${booking.uuid}/confirm`, { contact, unitItems: adults(3) }), 'Booking');
    expect(done).toMatchObject({ status: 'CONFIRMED' });
    expect(done.unitItems).toHaveLength(3);
    expect(await booked(a)).toBe(3);
    const other = await reserve(a, adults(2));
    octoError(await octo('POST', `/bookings/${other.uuid}/confirm`, { contact, unitItems: adults(3) }), 400, 'UNPROCESSABLE_ENTITY');
    expect(octoBody(await octo('GET', `/bookings/${other.uuid}`), 'Booking')).toMatchObject({ status: 'ON_HOLD', unitItems: [{}, {}] });
    expect(await booked(a)).toBe(5);
  });
});

describe('amendments under concurrency', () => {
  it('two bookings swapping timeslots at once both move: the seats of both timeslots are taken in one order, no deadlock', async () => {
    const first = await reserve(a, adults(3));
    const second = await reserve(b, adults(2));
    const [x, y] = await Promise.all([patch(first.uuid, { availabilityId: b.StartsAt }), patch(second.uuid, { availabilityId: a.StartsAt })]);
    expect([x.statusCode, y.statusCode], `${x.body} ${y.body}`).toEqual([200, 200]);
    expect([await booked(a), await booked(b)]).toEqual([2, 3]);
    // Full both ways, a swap by two separate amendments cannot happen: each alone would overbook.
    const third = await reserve(a, adults(3));
    const fourth = await reserve(b, adults(2));
    const refused = await Promise.all([patch(third.uuid, { availabilityId: b.StartsAt }), patch(fourth.uuid, { availabilityId: a.StartsAt })]);
    expect(refused.map((r) => r.statusCode)).toEqual([400, 400]);
    expect([await booked(a), await booked(b)]).toEqual([5, 5]);
  });

  it('never overbooks while amendments and new bookings race for the same seats', async () => {
    const holds = await Promise.all([reserve(a, adults(1)), reserve(a, adults(1)), reserve(b, adults(1))]);
    const partner = () =>
      call(t.app, op.otaKey, 'POST', '/api/v2/ota/viator/booking', {
        ActivityID: cruise,
        Date: b.Date,
        Time: '14:00',
        Participants: 1,
        Customer: customer,
      });
    const results = await Promise.all([
      ...holds.map((hold) => patch(hold.uuid, { availabilityId: b.StartsAt, unitItems: adults(2) })),
      partner(),
      partner(),
      partner(),
      ...holds.map((hold) => patch(hold.uuid, { unitItems: adults(3) })),
    ]);
    expect(results.filter((r) => ![200, 201, 400, 409].includes(r.statusCode)).map((r) => `${r.statusCode} ${r.body}`)).toEqual([]);
    for (const slot of [a, b]) {
      const live = await getTimeslot(t, op.adminKey, slot.ID);
      expect(live.Booked).toBeLessThanOrEqual(live.Capacity);
      const rows = await t.db.kysely
        .selectFrom('bookings')
        .select('seats')
        .where('timeslot_id', '=', slot.ID)
        .where('status', 'in', ['on_hold', 'confirmed'])
        .execute();
      expect(live.Booked).toBe(rows.reduce((sum, row) => sum + Number(row.seats), 0));
    }
  });
});

describe('a confirmed booking that moves', () => {
  it('gets its reminder queued anew for the new time', async () => {
    await call(t.app, op.adminKey, 'POST', '/api/v2/admin/workflows', {
      Name: 'Reminder',
      Event: 'reminder',
      OffsetHours: 24,
      Subject: 'See you at {{Time}}',
      Body: 'On {{Date}} at {{Time}}.',
      PartnerBookings: true,
    });
    const booking = await reserve(a, adults(1));
    await octo('POST', `/bookings/${booking.uuid}/confirm`, { contact });
    const reminders = () =>
      t.db.kysely
        .selectFrom('emails')
        .select(['subject', 'status', 'scheduled_for'])
        .where('booking_id', '=', (q) => q.selectFrom('bookings').select('id').where('reference', '=', booking.id))
        .execute();
    expect((await reminders()).map((e) => [e.subject, e.status])).toEqual([['See you at 11:00', 'queued']]);
    octoBody(await patch(booking.uuid, { availabilityId: b.StartsAt }), 'Booking');
    const after = await reminders();
    expect(after.map((e) => [e.subject, e.status])).toEqual([['See you at 14:00', 'queued']]);
    expect(Number(after[0]!.scheduled_for)).toBe(Date.parse(b.StartsAt) / 1000 - 24 * 3600);
  });
});
