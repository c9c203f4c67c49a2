// Booking events from every channel that places or changes bookings (partner API, OCTo, lapsing holds,
// the waitlist worker), delivered to real receivers that verify each signature with `standardwebhooks`;
// payloads are bookings as the API shows them; a marketplace's endpoint receives its own bookings' events
// and the public ones only.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { joinConfirmed } from '../waitlists/fixtures.js';
import { call } from '../helpers/app.js';
import { offerFreedSeats } from '../../src/waitlists/offers.js';
import { about, contact, customer, expectSigned, types, webhookWorld, type World } from './world.js';
import type { ReceivedEvent } from './receiver.js';
import { addSeconds, unixNow } from '../../src/lib/clock.js';

let t: World['t'];
let op: World['op'];
let gygKey: string;
let own: World['own'];
let viator: World['viator'];
let activityId: string;
let deliverAll: World['deliverAll'];
let newSlot: World['newSlot'];
let partnerBook: World['partnerBook'];
let world: World;

beforeAll(async () => {
  world = await webhookWorld();
  ({ t, op, gygKey, own, viator, activityId, deliverAll, newSlot, partnerBook } = world);
});
afterAll(() => world.close());
beforeEach(() => world.reset());

describe('bookings through the partner API', () => {
  it('created and confirmed at once; a hold created, confirmed, another cancelled: to the operator and to the marketplace', async () => {
    const slot = await newSlot();
    const booked = await partnerBook(slot, { PaymentReference: 'pay-1' });
    const held = await partnerBook(slot, { HoldMinutes: 30 });
    expect((await call(t.app, op.otaKey, 'POST', `/api/v2/ota/viator/booking/${held.BookingReference}/confirm`)).statusCode).toBe(200);
    const cancelled = await partnerBook(slot, { HoldMinutes: 30 });
    expect((await call(t.app, op.otaKey, 'POST', `/api/v2/ota/viator/booking/${cancelled.BookingReference}/cancel`)).statusCode).toBe(200);
    await deliverAll();

    for (const receiver of [own, viator]) {
      expectSigned(receiver);
      expect(about(receiver, booked.BookingReference).map((e) => [e.type, e.data.Status])).toEqual([
        ['booking.created', 'confirmed'],
        ['booking.confirmed', 'confirmed'],
      ]);
      expect(about(receiver, held.BookingReference).map((e) => [e.type, e.data.Status])).toEqual([
        ['booking.created', 'on_hold'],
        ['booking.confirmed', 'confirmed'],
      ]);
      expect(about(receiver, cancelled.BookingReference).map((e) => [e.type, e.data.Status])).toEqual([
        ['booking.created', 'on_hold'],
        ['booking.cancelled', 'cancelled'],
      ]);
      expect(receiver.eventsOf('availability.changed').map((e) => e.data.ID)).toEqual([slot.ID]);
    }
    // The resource as the API shows it.
    const shown = (await call(t.app, op.otaKey, 'GET', `/api/v2/ota/viator/booking/${booked.BookingReference}`)).json().data;
    const event = about(own, booked.BookingReference)[0]!;
    expect(event.data).toEqual(shown);
    expect(event).toMatchObject({ id: expect.stringMatching(/^evt_/), type: 'booking.created' });
    expect(Math.abs(Date.parse(event.timestamp) - Date.now())).toBeLessThan(60_000);
    expect(own.eventsOf('availability.changed')[0]).toMatchObject({
      data: { ID: slot.ID, ActivityID: activityId, Capacity: 10, Booked: 4, Available: 6 },
    });
  });

  it("another marketplace's bookings and the operator's own sales never reach a marketplace's endpoint", async () => {
    const slot = await newSlot();
    const gyg = await partnerBook(slot, {}, gygKey, 'getyourguide');
    const pos = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/bookings', {
      ActivityID: activityId,
      Date: slot.Date,
      Time: slot.Time,
      Participants: 1,
      Customer: customer,
    });
    expect(pos.statusCode).toBe(201);
    await deliverAll();
    expect(about(own, gyg.BookingReference).map((e) => e.type)).toEqual(['booking.created', 'booking.confirmed']);
    expect(about(own, pos.json().data.BookingReference).map((e) => [e.type, e.data.Source])).toEqual([
      ['booking.created', 'pos'],
      ['booking.confirmed', 'pos'],
    ]);
    // The marketplace sees the seats go (public), not who took them.
    expect(types(viator)).toEqual(['availability.changed']);
  });
});

describe('bookings through OCTo', () => {
  it('reserve, update, extend, confirm (with the guest), cancel', async () => {
    const slot = await newSlot();
    const uuid = randomUUID();
    const octo = (method: 'POST' | 'PATCH', url: string, body: unknown) => call(t.app, op.otaKey, method, `/octo${url}`, body);
    const reserved = await octo('POST', '/bookings', {
      uuid,
      productId: activityId,
      optionId: 'DEFAULT',
      availabilityId: slot.StartsAt,
      unitItems: [{ unitId: 'adult' }],
    });
    expect(reserved.statusCode, reserved.body).toBe(200);
    const reference = reserved.json().id as string;
    expect((await octo('PATCH', `/bookings/${uuid}`, { contact: { ...contact, firstName: 'Greta' } })).statusCode).toBe(200);
    expect((await octo('POST', `/bookings/${uuid}/extend`, { expirationMinutes: 60 })).statusCode).toBe(200);
    expect((await octo('POST', `/bookings/${uuid}/confirm`, { contact, resellerReference: 'VOUCHER-9' })).statusCode).toBe(200);
    // A retried confirmation writes the same details: nothing changed, no event.
    expect((await octo('POST', `/bookings/${uuid}/confirm`, { contact, resellerReference: 'VOUCHER-9' })).statusCode).toBe(200);
    expect((await octo('POST', `/bookings/${uuid}/cancel`, { reason: 'Guest ill' })).statusCode).toBe(200);
    await deliverAll();

    for (const receiver of [own, viator]) {
      const events = about(receiver, reference);
      expect(events.map((e) => [e.type, e.data.Status])).toEqual([
        ['booking.created', 'on_hold'],
        ['booking.updated', 'on_hold'],
        ['booking.updated', 'on_hold'],
        ['booking.updated', 'on_hold'],
        ['booking.confirmed', 'confirmed'],
        ['booking.cancelled', 'cancelled'],
      ]);
      expect(events[1]!.data.Customer.FirstName).toBe('Greta');
      expect(Date.parse(events[2]!.data.HoldExpiresAt)).toBeGreaterThan(Date.parse(events[1]!.data.HoldExpiresAt));
      expect(events[4]!.data).toMatchObject({
        Customer: { FirstName: 'Grace', Email: 'grace@example.com' },
        PaymentReference: 'VOUCHER-9',
        Source: 'partner',
        Partner: 'viator',
      });
    }
  });
});

describe('lapsing holds', () => {
  const lapse = (reference: string) =>
    t.db.kysely
      .updateTable('bookings')
      .set({ hold_expires_at: addSeconds(unixNow(), -1) })
      .where('reference', '=', reference)
      .execute();

  it('booking.expired once per hold, whoever releases it: a booking of the same timeslot, a cancellation, the sweep', async () => {
    const [byBooking, byCancel, bySweep] = [await newSlot(), await newSlot(), await newSlot()];
    const holds = [
      await partnerBook(byBooking, { HoldMinutes: 30 }),
      await partnerBook(byCancel, { HoldMinutes: 30 }),
      await partnerBook(bySweep, { HoldMinutes: 30 }),
    ];
    await deliverAll();
    own.clear();
    viator.clear();
    for (const hold of holds) await lapse(hold.BookingReference);
    // A booking of the timeslot releases its lapsed holds in its own transaction (the seat statement).
    await partnerBook(byBooking, { Participants: 1 });
    // Cancelling a lapsed hold releases it as expired, and answers it so.
    expect((await call(t.app, op.otaKey, 'POST', `/api/v2/ota/viator/booking/${holds[1]!.BookingReference}/cancel`)).json().data.Status).toBe(
      'expired',
    );
    // The third is left to the sweep; then everyone tries again and finds nothing left to release.
    await deliverAll();
    await partnerBook(byBooking, { Participants: 1 });
    await call(t.app, op.otaKey, 'POST', `/api/v2/ota/viator/booking/${holds[2]!.BookingReference}/cancel`);
    await deliverAll();
    for (const hold of holds) {
      expect(about(own, hold.BookingReference).map((e) => [e.type, e.data.Status])).toEqual([['booking.expired', 'expired']]);
      expect(about(viator, hold.BookingReference).map((e) => e.type)).toEqual(['booking.expired']);
    }
    const seats = Object.fromEntries(own.eventsOf('availability.changed').map((e) => [e.data.ID, e.data.Booked]));
    expect(seats).toEqual({ [byBooking.ID]: 2, [byCancel.ID]: 0, [bySweep.ID]: 0 });
  });

  it('the sweep alone expires a hold nobody touches again, and the seats show free', async () => {
    const slot = await newSlot(4);
    const hold = await partnerBook(slot, { HoldMinutes: 30, Participants: 4 });
    await deliverAll();
    own.clear();
    await lapse(hold.BookingReference);
    await deliverAll();
    expect(about(own, hold.BookingReference).map((e) => e.type)).toEqual(['booking.expired']);
    expect(own.eventsOf('availability.changed').map((e) => e.data)).toEqual([expect.objectContaining({ ID: slot.ID, Booked: 0, Available: 4 })]);
  });
});

describe('the waitlist worker', () => {
  it('an offer holds the seats (booking.created, online) and sends waitlist.offered', async () => {
    const slot = await newSlot(2);
    const pos = (
      await call(t.app, op.adminKey, 'POST', '/api/v2/admin/bookings', {
        ActivityID: activityId,
        Date: slot.Date,
        Time: slot.Time,
        Participants: 2,
        Customer: customer,
      })
    ).json().data;
    const join = () =>
      call(t.app, undefined, 'POST', `/api/v2/shop/${op.operatorId}/waitlists`, {
        ActivityID: activityId,
        Date: slot.Date,
        Time: slot.Time,
        Participants: 2,
        Customer: { ...customer, Email: 'wait@example.com' },
      });
    await joinConfirmed(t, op.adminKey, join, 'wait@example.com');
    await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${pos.BookingReference}/cancel`);
    expect(await offerFreedSeats(t.db, t.app.config, unixNow())).toBe(1);
    await deliverAll();

    const [offered] = own.eventsOf('waitlist.offered');
    const listed = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/waitlists?TimeslotID=${slot.ID}`)).json().data[0];
    expect(offered!.data).toEqual({ ...listed, NotifiedAt: null });
    expect(offered!.data).toMatchObject({ Status: 'offered', Customer: { Email: 'wait@example.com' } });
    const hold = own.received
      .map((r) => r.event)
      .find((e: ReceivedEvent) => e.type === 'booking.created' && e.data.Customer.Email === 'wait@example.com');
    expect(hold!.data).toMatchObject({ Source: 'online', Status: 'on_hold', Participants: 2 });
    expect(viator.received.map((r) => r.event.type)).not.toContain('waitlist.offered');
  });
});
