// The reseller's flows on /octo: reserve, extend, confirm, update, cancel, get, list, sold out, expired
// hold; and that OCTo and the partner API sell the same seats and see the same bookings.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday, getTimeslot, type AdminTimeslot } from '../availability/fixtures.js';
import { contact, customer, octoClient, type OctoCall } from './fixtures.js';
import { octoBody, octoError } from './spec.js';
import { dropPartnerReadsAtCommit } from '../../src/http/answer-cache.js';
import { addMillis, addSeconds, nowMillis, unixNow } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;
let octo: OctoCall;
let activityId: string;
let slot: AdminTimeslot;
let availabilityId: string;
let day = 10;

const units = (n: number) => Array.from({ length: n }, () => ({ unitId: 'adult' }));
const reserve = (body: Record<string, unknown> = {}, client = octo) =>
  client('POST', '/bookings', { productId: activityId, optionId: 'DEFAULT', availabilityId, unitItems: units(2), ...body });
const reserved = async (body: Record<string, unknown> = {}) => octoBody(await reserve(body), 'Booking');
const confirmed = async (uuid: string, body: Record<string, unknown> = {}) =>
  octoBody(await octo('POST', `/bookings/${uuid}/confirm`, { contact, resellerReference: 'VOUCHER-1', ...body }), 'Booking');
const partnerAvailable = async () => {
  const slots = (await call(t.app, op.otaKey, 'GET', `/api/v2/ota/viator/availability/${activityId}/timeslots?Date=${slot.Date}`)).json().data;
  return slots[0].Available as number;
};
const octoVacancies = async () =>
  octoBody(
    await octo('POST', '/availability', { productId: activityId, optionId: 'DEFAULT', availabilityIds: [availabilityId] }),
    'Availability',
    true,
  )[0].vacancies as number;
// A hold whose time ran out, written straight to the database like another process's write, whose
// commit signals the operator's cached partner answers to drop (as a seat change does: http/answer-cache.ts).
const expireHold = async (reference: string) => {
  await t.db.write(async (tx) => {
    await tx
      .updateTable('bookings')
      .set({ hold_expires_at: addSeconds(unixNow(), -1) })
      .where('reference', '=', reference)
      .execute();
    dropPartnerReadsAtCommit(tx, op.operatorId);
  });
};
const countBookings = async () =>
  Number(
    (
      await t.db.kysely
        .selectFrom('bookings')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  octo = octoClient(t, op.otaKey);
  activityId = (await createActivity(t, op.adminKey, { MaxParticipantsPerBooking: 4 })).ActivityID;
});
afterAll(() => t.close());

// Each test sells a timeslot of its own: 5 seats at 10:00 on a date of its own.
beforeEach(async () => {
  slot = await createTimeslot(t, op.adminKey, activityId, { Date: dateFromToday(day++), Time: '10:00', Capacity: 5 });
  availabilityId = slot.StartsAt;
});

describe('reserve (POST /octo/bookings)', () => {
  it('holds the seats ON_HOLD for 30 minutes, for OCTo and the partner API alike', async () => {
    const uuid = randomUUID();
    const before = Date.now();
    const booking = await reserved({ uuid, notes: 'Window seats', resellerReference: 'CART-7' });
    expect(booking).toMatchObject({
      uuid,
      status: 'ON_HOLD',
      productId: activityId,
      optionId: 'DEFAULT',
      availabilityId,
      resellerReference: 'CART-7',
      supplierReference: booking.id,
      notes: 'Window seats',
      cancellable: true,
      utcConfirmedAt: null,
      // VOUCHER is offered: a voucher object from the start, with nothing to show at the door until confirmed (issue 12).
      voucher: { redemptionMethod: 'MANIFEST', utcRedeemedAt: null, deliveryOptions: [] },
      availability: { id: availabilityId, vacancies: 3, capacity: 5 },
    });
    expect(booking.id).toMatch(/^BK-[A-HJ-NP-Z2-9]{8}$/);
    expect(booking.unitItems).toHaveLength(2);
    expect(booking.unitItems[0]).toMatchObject({ unitId: 'adult', status: 'ON_HOLD', uuid: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const expires = Date.parse(booking.utcExpiresAt);
    expect(expires).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 30 * 60_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 30 * 60_000 + 1000);
    expect(await partnerAvailable()).toBe(3);
    expect(await octoVacancies()).toBe(3);
  });

  it('generates a uuid when none is sent, holds expirationMinutes, and never longer than 60', async () => {
    const short = await reserved({ expirationMinutes: 5, unitItems: units(1) });
    expect(short.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Date.parse(short.utcExpiresAt) - Date.now()).toBeLessThanOrEqual(5 * 60_000 + 1000);
    const long = await reserved({ expirationMinutes: 500, unitItems: units(1) });
    expect(Date.parse(long.utcExpiresAt) - Date.now()).toBeLessThanOrEqual(60 * 60_000 + 1000);
    expect(Date.parse(long.utcExpiresAt) - Date.now()).toBeGreaterThan(59 * 60_000);
  });

  it('is idempotent by uuid: the same reservation again, even at once, answers the same booking and takes the seats once', async () => {
    const uuid = randomUUID();
    const [first, second] = await Promise.all([reserve({ uuid }), reserve({ uuid: uuid.toUpperCase() })]);
    const a = octoBody(first, 'Booking');
    const b = octoBody(second, 'Booking');
    expect(b.id).toBe(a.id);
    expect(b.uuid).toBe(uuid);
    expect(octoBody(await reserve({ uuid }), 'Booking').id).toBe(a.id);
    expect(await partnerAvailable()).toBe(3);
  });

  it('is INVALID_BOOKING_UUID when the reseller reuses a uuid for another reservation', async () => {
    const uuid = randomUUID();
    await reserved({ uuid });
    const before = await countBookings();
    expect(octoError(await reserve({ uuid, unitItems: units(3) }), 400, 'INVALID_BOOKING_UUID').uuid).toBe(uuid);
    expect(await countBookings()).toBe(before);
  });

  it("uuids are per reseller: another reseller's uuid is neither seen nor in the way", async () => {
    const uuid = randomUUID();
    const viator = await reserved({ uuid, unitItems: units(1) });
    const key = (await call(t.app, op.adminKey, 'POST', '/api/v2/admin/keys', { Name: 'GYG', Scopes: ['ota'], Partner: 'getyourguide' })).json().data
      .Key;
    const gyg = octoClient(t, key);
    // Probing: the other reseller's uuid is unknown here, exactly like a uuid nobody used.
    for (const probe of [uuid, randomUUID()]) {
      const answer = octoError(await gyg('GET', `/bookings/${probe}`), 400, 'INVALID_BOOKING_UUID');
      expect(answer.errorMessage).not.toMatch(/used/);
    }
    // Using it: a booking of its own, which changes nothing of the first reseller's.
    const own = octoBody(await reserve({ uuid, unitItems: units(2) }, gyg), 'Booking');
    expect(own.id).not.toBe(viator.id);
    expect(own.uuid).toBe(uuid);
    octoBody(await gyg('POST', `/bookings/${uuid}/cancel`, {}), 'Booking');
    expect(octoBody(await octo('GET', `/bookings/${uuid}`), 'Booking')).toMatchObject({ id: viator.id, status: 'ON_HOLD' });
    expect(octoBody(await gyg('GET', `/bookings/${uuid}`), 'Booking')).toMatchObject({ id: own.id, status: 'CANCELLED' });
  });

  it('is UNPROCESSABLE_ENTITY when sold out, and writes nothing', async () => {
    await reserved({ unitItems: units(4) });
    const before = await countBookings();
    const error = octoError(await reserve({ unitItems: units(2) }), 400, 'UNPROCESSABLE_ENTITY');
    expect(error.errorMessage).toMatch(/1 left/);
    expect(await countBookings()).toBe(before);
    octoBody(await reserve({ unitItems: units(1) }), 'Booking');
    octoError(await reserve({ unitItems: units(1) }), 400, 'UNPROCESSABLE_ENTITY');
  });

  it("refuses what it cannot sell in OCTo's words", async () => {
    const before = await countBookings();
    expect(octoError(await reserve({ productId: 's_Unknown12345' }), 400, 'INVALID_PRODUCT_ID').productId).toBe('s_Unknown12345');
    octoError(await reserve({ optionId: 'VIP' }), 400, 'INVALID_OPTION_ID');
    expect(octoError(await reserve({ unitItems: [{ unitId: 'adult' }, { unitId: 'senior' }] }), 400, 'INVALID_UNIT_ID').unitId).toBe('senior');
    octoError(await reserve({ availabilityId: undefined }), 400, 'INVALID_AVAILABILITY_ID');
    octoError(await reserve({ availabilityId: availabilityId.replace('10:00', '11:00') }), 400, 'INVALID_AVAILABILITY_ID');
    octoError(await reserve({ unitItems: [] }), 400, 'UNPROCESSABLE_ENTITY');
    octoError(await reserve({ unitItems: units(5) }), 400, 'UNPROCESSABLE_ENTITY');
    octoError(await reserve({ uuid: 'not-a-uuid' }), 400, 'INVALID_BOOKING_UUID');
    octoError(await reserve({ contact: { emailAddress: 'nope' } }), 400, 'BAD_REQUEST');
    expect(await countBookings()).toBe(before);
  });

  it('answers prices with octo/pricing', async () => {
    const booking = octoBody(
      await octo('POST', '/bookings', { productId: activityId, optionId: 'DEFAULT', availabilityId, unitItems: units(3) }, 'octo/pricing'),
      'Booking',
    );
    expect(booking.pricing).toEqual({ original: 13500, retail: 13500, net: null, currency: 'EUR', currencyPrecision: 2, includedTaxes: [] });
    expect(booking.unitItems[0].pricing.retail).toBe(4500);
    expect(booking.availability.unitPricing[0].retail).toBe(4500);
  });
});

describe('the partner API and OCTo sell the same seats', () => {
  it('an OCTo hold blocks the partner API, and a partner booking blocks OCTo', async () => {
    await reserved({ unitItems: units(4) });
    const partner = { ActivityID: activityId, Date: slot.Date, Time: '10:00', Customer: customer };
    problemOf(await call(t.app, op.otaKey, 'POST', '/api/v2/ota/viator/booking', { ...partner, Participants: 2 }), 409, 'insufficient-capacity');
    expect((await call(t.app, op.otaKey, 'POST', '/api/v2/ota/viator/booking', { ...partner, Participants: 1 })).statusCode).toBe(201);
    expect(await octoVacancies()).toBe(0);
    expect(await partnerAvailable()).toBe(0);
    octoError(await reserve({ unitItems: units(1) }), 400, 'UNPROCESSABLE_ENTITY');
  });
});

describe('extend, confirm, update, cancel', () => {
  it('extends a hold up to HOLD_MAX_LIFETIME_MINUTES (60) after it was made, not beyond: then UNPROCESSABLE_ENTITY', async () => {
    const uuid = randomUUID();
    const booking = await reserved({ uuid, expirationMinutes: 30 });
    const reference = booking.id as string;
    const madeAt = Date.now();
    const first = octoBody(await octo('POST', `/bookings/${uuid}/extend`, { expirationMinutes: 60 }), 'Booking');
    expect(Date.parse(first.utcExpiresAt)).toBeLessThanOrEqual(madeAt + 60 * 60_000 + 1000);
    // Drive time: it was made 55 minutes ago and runs out in 2 minutes; a renewal gets 5 minutes, the rest of its life.
    const now = unixNow();
    await t.db.kysely
      .updateTable('bookings')
      .set({ created_at: addMillis(nowMillis(), -55 * 60_000), hold_expires_at: addSeconds(now, 120) })
      .where('reference', '=', reference)
      .execute();
    const last = octoBody(await octo('POST', `/bookings/${uuid}/extend`, { expirationMinutes: 30 }), 'Booking');
    expect((Date.parse(last.utcExpiresAt) - Date.now()) / 60_000).toBeGreaterThan(4);
    expect((Date.parse(last.utcExpiresAt) - Date.now()) / 60_000).toBeLessThanOrEqual(5.1);
    const refused = octoError(await octo('POST', `/bookings/${uuid}/extend`, { expirationMinutes: 30 }), 400, 'UNPROCESSABLE_ENTITY');
    expect(refused.errorMessage).toMatch(/at most 60 minutes/);
    octoError(await octo('PATCH', `/bookings/${uuid}`, { expirationMinutes: 30 }), 400, 'UNPROCESSABLE_ENTITY');
    expect(octoBody(await octo('GET', `/bookings/${uuid}`), 'Booking').utcExpiresAt).toBe(last.utcExpiresAt);
    // Asking for no more than it has is no renewal, and answers the hold as it is.
    expect(octoBody(await octo('POST', `/bookings/${uuid}/extend`, { expirationMinutes: 1 }), 'Booking').utcExpiresAt).toBe(last.utcExpiresAt);
  });

  it("walks a reservation to a confirmed booking the dashboard shows as a partner booking with the reseller's reference", async () => {
    const uuid = randomUUID();
    const booking = await reserved({ uuid, expirationMinutes: 10 });

    const extended = octoBody(await octo('POST', `/bookings/${uuid}/extend`, { expirationMinutes: 45 }), 'Booking');
    expect(Date.parse(extended.utcExpiresAt)).toBeGreaterThan(Date.parse(booking.utcExpiresAt));
    expect(extended.status).toBe('ON_HOLD');

    octoError(await octo('POST', `/bookings/${uuid}/confirm`, { contact: { firstName: 'Grace' } }), 400, 'BAD_REQUEST');
    expect(octoBody(await octo('GET', `/bookings/${uuid}`), 'Booking').status).toBe('ON_HOLD');

    const done = await confirmed(uuid, {
      unitItems: [
        { unitId: 'adult', resellerReference: 'T-1' },
        { unitId: 'adult', resellerReference: 'T-2' },
      ],
    });
    expect(done).toMatchObject({
      status: 'CONFIRMED',
      utcExpiresAt: null,
      resellerReference: 'VOUCHER-1',
      contact: { fullName: 'Grace Hopper', firstName: 'Grace', lastName: 'Hopper', emailAddress: 'grace@example.com', phoneNumber: '+15551234567' },
      voucher: { redemptionMethod: 'MANIFEST', deliveryOptions: [{ deliveryFormat: 'QRCODE', deliveryValue: booking.id }] },
    });
    expect(done.utcConfirmedAt).not.toBeNull();
    expect(done.unitItems.map((item: { uuid: string; resellerReference: string }) => [item.uuid, item.resellerReference])).toEqual(
      booking.unitItems.map((item: { uuid: string }, i: number) => [item.uuid, `T-${i + 1}`]),
    );
    // Confirming again answers the same booking.
    expect((await confirmed(uuid)).status).toBe('CONFIRMED');
    octoError(await octo('POST', `/bookings/${uuid}/extend`, {}), 400, 'UNPROCESSABLE_ENTITY');

    const dashboard = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings?From=${slot.Date}&To=${slot.Date}`)).json().data;
    expect(dashboard).toEqual([
      expect.objectContaining({
        BookingReference: booking.id,
        Source: 'partner',
        Partner: 'viator',
        PaymentReference: 'VOUCHER-1',
        Status: 'confirmed',
        Participants: 2,
        Customer: { FirstName: 'Grace', LastName: 'Hopper', Email: 'grace@example.com', Phone: '+15551234567' },
      }),
    ]);
    // ... and the partner API reads it too.
    expect((await call(t.app, op.otaKey, 'GET', `/api/v2/ota/viator/booking/${booking.id}`)).json().data.Status).toBe('confirmed');
  });

  it('updates the contact, notes and references, and moves a booking or changes its units (issue 12: amendments)', async () => {
    const uuid = randomUUID();
    await reserved({ uuid, contact: { fullName: 'Ada King Lovelace', emailAddress: 'ada@example.com' } });
    const updated = octoBody(
      await octo('PATCH', `/bookings/${uuid}`, {
        notes: 'Vegetarian lunch',
        resellerReference: 'CART-9',
        contact: { phoneNumber: '+441234' },
        expirationMinutes: 50,
      }),
      'Booking',
    );
    expect(updated).toMatchObject({
      notes: 'Vegetarian lunch',
      resellerReference: 'CART-9',
      contact: { firstName: 'Ada King', lastName: 'Lovelace', emailAddress: 'ada@example.com', phoneNumber: '+441234' },
    });
    expect(Date.parse(updated.utcExpiresAt) - Date.now()).toBeGreaterThan(49 * 60_000);
    expect(octoBody(await octo('PATCH', `/bookings/${uuid}`, { unitItems: units(3) }), 'Booking').unitItems).toHaveLength(3);
    expect(await partnerAvailable()).toBe(2);
    const other = await createTimeslot(t, op.adminKey, activityId, { Date: slot.Date, Time: '14:00', Capacity: 5 });
    expect(octoBody(await octo('PATCH', `/bookings/${uuid}`, { availabilityId: other.StartsAt }), 'Booking').availabilityId).toBe(other.StartsAt);
    expect(await partnerAvailable()).toBe(5);
    octoBody(await octo('PATCH', `/bookings/${uuid}`, { availabilityId, productId: activityId, optionId: 'DEFAULT' }), 'Booking');
    expect(await partnerAvailable()).toBe(2);
    await confirmed(uuid);
    octoError(await octo('PATCH', `/bookings/${uuid}`, { contact: { firstName: '' } }), 400, 'BAD_REQUEST');
    expect(octoBody(await octo('PATCH', `/bookings/${uuid}`, { notes: null }), 'Booking').notes).toBeNull();
  });

  it('cancels a hold or a confirmed booking and frees the seats; cancelling again changes nothing', async () => {
    const hold = await reserved({ unitItems: units(1) });
    const booking = await reserved({ unitItems: units(2) });
    await confirmed(booking.uuid);
    expect(await partnerAvailable()).toBe(2);

    const cancelled = octoBody(await octo('POST', `/bookings/${booking.uuid}/cancel`, { reason: 'Customer is ill' }), 'Booking');
    expect(cancelled).toMatchObject({
      status: 'CANCELLED',
      cancellable: false,
      voucher: { redemptionMethod: 'MANIFEST', deliveryOptions: [] },
      cancellation: { refund: 'FULL', reason: 'Customer is ill' },
    });
    const bare = await call(t.app, op.otaKey, 'POST', `/octo/bookings/${hold.uuid}/cancel`, undefined, { 'content-type': 'application/json' });
    expect(octoBody(bare, 'Booking')).toMatchObject({ status: 'CANCELLED', cancellation: { reason: null } });
    expect(await partnerAvailable()).toBe(5);
    expect(await octoVacancies()).toBe(5);

    const again = octoBody(await octo('POST', `/bookings/${booking.uuid}/cancel`, { reason: 'Changed mind' }), 'Booking');
    expect(again.cancellation).toEqual(cancelled.cancellation);
    expect(await partnerAvailable()).toBe(5);
    octoError(await octo('POST', `/bookings/${booking.uuid}/confirm`, { contact }), 400, 'UNPROCESSABLE_ENTITY');
    octoError(await octo('PATCH', `/bookings/${booking.uuid}`, { notes: 'x' }), 400, 'UNPROCESSABLE_ENTITY');
  });

  it('shows a booking the operator cancelled in the dashboard as CANCELLED', async () => {
    const booking = await reserved();
    await confirmed(booking.uuid);
    expect((await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${booking.id}/cancel`)).statusCode).toBe(200);
    const read = octoBody(await octo('GET', `/bookings/${booking.uuid}`), 'Booking');
    expect(read).toMatchObject({ status: 'CANCELLED', cancellation: { refund: 'FULL', reason: null } });
  });
});

describe('an expired hold', () => {
  it('reads EXPIRED, frees its seats at once, and can be neither confirmed, extended nor changed', async () => {
    const booking = await reserved({ unitItems: units(3) });
    expect(await partnerAvailable()).toBe(2);
    await expireHold(booking.id);
    expect(await partnerAvailable()).toBe(5);
    expect(await octoVacancies()).toBe(5);
    const read = octoBody(await octo('GET', `/bookings/${booking.uuid}`), 'Booking');
    expect(read).toMatchObject({ status: 'EXPIRED', utcExpiresAt: null, cancellable: false });
    octoError(await octo('POST', `/bookings/${booking.uuid}/confirm`, { contact }), 400, 'UNPROCESSABLE_ENTITY');
    octoError(await octo('POST', `/bookings/${booking.uuid}/extend`, { expirationMinutes: 10 }), 400, 'UNPROCESSABLE_ENTITY');
    octoError(await octo('PATCH', `/bookings/${booking.uuid}`, { notes: 'late' }), 400, 'UNPROCESSABLE_ENTITY');
    expect(octoBody(await octo('POST', `/bookings/${booking.uuid}/cancel`), 'Booking').status).toBe('EXPIRED');
    // Its seats are sold to the next reseller.
    octoBody(await reserve({ unitItems: units(4) }), 'Booking');
    expect((await getTimeslot(t, op.adminKey, slot.ID)).Booked).toBe(4);
  });
});

describe('get and list', () => {
  it("reads only the reseller's own bookings", async () => {
    const booking = await reserved();
    octoBody(await octo('GET', `/bookings/${booking.uuid}`), 'Booking');
    expect(octoError(await octo('GET', `/bookings/${randomUUID()}`), 400, 'INVALID_BOOKING_UUID').uuid).toMatch(/^[0-9a-f-]{36}$/);
    const key = (await call(t.app, op.adminKey, 'POST', '/api/v2/admin/keys', { Name: 'Other', Scopes: ['ota'], Partner: 'expedia' })).json().data
      .Key;
    const stranger = octoClient(t, key);
    octoError(await stranger('GET', `/bookings/${booking.uuid}`), 400, 'INVALID_BOOKING_UUID');
    octoError(await stranger('POST', `/bookings/${booking.uuid}/cancel`, {}), 400, 'INVALID_BOOKING_UUID');
    const other = await t.newOperator();
    octoError(await octoClient(t, other.otaKey)('GET', `/bookings/${booking.uuid}`), 400, 'INVALID_BOOKING_UUID');
  });

  it('finds bookings by resellerReference or supplierReference', async () => {
    const a = await reserved({ resellerReference: 'ORDER-55', unitItems: units(1) });
    const b = await reserved({ resellerReference: 'ORDER-55', unitItems: units(1) });
    const c = await reserved({ resellerReference: 'ORDER-56', unitItems: units(1) });
    const byReseller = octoBody(await octo('GET', '/bookings?resellerReference=ORDER-55'), 'Booking', true);
    expect(byReseller.map((x: { id: string }) => x.id)).toEqual([a.id, b.id]);
    const bySupplier = octoBody(await octo('GET', `/bookings?supplierReference=${c.id}`), 'Booking', true);
    expect(bySupplier.map((x: { uuid: string }) => x.uuid)).toEqual([c.uuid]);
    expect(octoBody(await octo('GET', `/bookings?resellerReference=ORDER-55&supplierReference=${c.id}`), 'Booking', true)).toEqual([]);
    octoError(await octo('GET', '/bookings'), 400, 'BAD_REQUEST');
  });
});
