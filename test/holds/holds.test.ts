// The operator sees and releases held seats (issue 11, finding 2): the live holds of a timeslot, an
// activity, a day or a shop client, with who holds them (shop client, waitlist offer, partner, OCTo) and
// until when; releasing one or all ends them as a lapse does: seats back at once, nobody e-mailed.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday, getTimeslot } from '../availability/fixtures.js';
import { customer, nowSeconds, posBooking } from '../emails/fixtures.js';
import { offerFreedSeats } from '../../src/waitlists/offers.js';
import { fromAddress, GOOD_CARD, openShop } from '../shop/fixtures.js';
import { joinConfirmed } from '../waitlists/fixtures.js';
import { addSeconds } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;
let activityId: string;
let secondActivity: string;
const date = dateFromToday(11);
const shop = () => `/api/v2/shop/${op.operatorId}`;

interface Hold {
  BookingReference: string;
  TimeslotID: number;
  Participants: number;
  Channel: string;
  Partner: string | null;
  Client: string | null;
  CheckoutStarted: boolean;
  HoldExpiresAt: string;
  Customer: { Email: string };
}

const holds = async (query: string, key = op.adminKey): Promise<Hold[]> => {
  const response = await call(t.app, key, 'GET', `/api/v2/admin/holds${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
};

async function shopHold(ip: string, Time: string, Participants: number, ActivityID = activityId) {
  const basket = (
    await fromAddress(t.app, ip, 'POST', `${shop()}/baskets`, { Customer: customer('Shopper', `s${ip.replace(/\D/g, '')}@example.com`) })
  ).json().data.BasketToken as string;
  const added = await fromAddress(t.app, ip, 'POST', `${shop()}/baskets/${basket}/items`, { ActivityID, Date: date, Time, Participants });
  expect(added.statusCode, added.body).toBe(201);
  return { basket, reference: added.json().data.Items.at(-1).BookingReference as string };
}

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  other = await t.newOperator();
  await openShop(t, op.adminKey);
  activityId = (await createActivity(t, op.adminKey, { Name: 'Canyon Hike' })).ActivityID;
  secondActivity = (await createActivity(t, op.adminKey, { Name: 'River Raft' })).ActivityID;
});
afterAll(() => t.close());

describe('listing live holds', () => {
  it("names every channel's holds of a timeslot with their holder and expiry, soonest first", async () => {
    const slot = await createTimeslot(t, op.adminKey, activityId, { Date: date, Time: '09:00', Capacity: 10 });
    const waitSlot = await createTimeslot(t, op.adminKey, activityId, { Date: date, Time: '10:00', Capacity: 1 });
    const fromShop = await shopHold('198.51.100.20', '09:00', 2);
    const partner = await call(t.app, op.otaKey, 'POST', `/api/v2/ota/${op.partner}/booking`, {
      ActivityID: activityId,
      Date: date,
      Time: '09:00',
      Participants: 1,
      Customer: customer(),
      HoldMinutes: 5,
    });
    const octo = await call(t.app, op.otaKey, 'POST', '/octo/bookings', {
      uuid: randomUUID(),
      productId: activityId,
      optionId: 'DEFAULT',
      availabilityId: slot.StartsAt,
      unitItems: [{ unitId: 'adult' }],
    });
    expect(octo.statusCode, octo.body).toBe(200);
    await posBooking(t, op.adminKey, { ActivityID: activityId, Date: date, Time: '09:00' }, 1); // confirmed: not a hold

    const listed = await holds(`?TimeslotID=${slot.ID}`);
    expect(listed.map((h) => [h.Channel, h.Participants])).toEqual([
      ['partner-api', 1],
      ['shop', 2],
      ['octo', 1],
    ]);
    const [partnerHold, shopHeld, octoHold] = listed;
    expect(partnerHold).toMatchObject({
      BookingReference: partner.json().data.BookingReference,
      Partner: op.partner,
      Client: null,
      TimeslotID: slot.ID,
    });
    expect(shopHeld).toMatchObject({
      BookingReference: fromShop.reference,
      Partner: null,
      CheckoutStarted: false,
      Client: expect.stringMatching(/^[0-9a-f]{12}$/),
    });
    expect(octoHold).toMatchObject({ BookingReference: octo.json().id, Partner: op.partner, Client: null });
    expect(Date.parse(shopHeld!.HoldExpiresAt)).toBeGreaterThan(Date.now());

    // A waitlist offer holds seats too.
    const pos = await posBooking(t, op.adminKey, { ActivityID: activityId, Date: date, Time: '10:00' }, 1);
    const join = () =>
      call(t.app, undefined, 'POST', `${shop()}/waitlists`, {
        ActivityID: activityId,
        Date: date,
        Time: '10:00',
        Participants: 1,
        Customer: customer('Wes', 'wes@example.com'),
      });
    await joinConfirmed(t, op.adminKey, join, 'wes@example.com');
    await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${pos.BookingReference}/cancel`);
    expect(await offerFreedSeats(t.db, t.app.config, nowSeconds())).toBe(1);
    expect((await holds(`?TimeslotID=${waitSlot.ID}`)).map((h) => [h.Channel, h.Customer.Email])).toEqual([['waitlist-offer', 'wes@example.com']]);
  });

  it('filters by activity, date and client; leaves out lapsed holds; shows nothing of another operator', async () => {
    await createTimeslot(t, op.adminKey, secondActivity, { Date: date, Time: '09:00', Capacity: 10 });
    const raft = await shopHold('198.51.100.21', '09:00', 3, secondActivity);
    const mine = await holds(`?ActivityID=${secondActivity}`);
    expect(mine.map((h) => h.BookingReference)).toEqual([raft.reference]);
    expect((await holds(`?Date=${date}`)).length).toBeGreaterThanOrEqual(5);
    expect((await holds(`?Client=${mine[0]!.Client}`)).map((h) => h.BookingReference)).toEqual([raft.reference]);
    expect(await holds(`?ActivityID=${secondActivity}`, other.adminKey)).toEqual([]);

    await t.db.kysely
      .updateTable('bookings')
      .set({ hold_expires_at: addSeconds(nowSeconds(), -1) })
      .where('reference', '=', raft.reference)
      .execute();
    expect(await holds(`?ActivityID=${secondActivity}`)).toEqual([]);
    problemOf(await call(t.app, op.adminKey, 'GET', '/api/v2/admin/holds?Client=XYZ'), 422, 'validation');
    problemOf(await call(t.app, op.otaKey, 'GET', '/api/v2/admin/holds'), 403, 'forbidden');
  });
});

describe('releasing', () => {
  it('one hold: its seats are back at once, it reads expired, it cannot be paid, and nobody is e-mailed', async () => {
    const workflow = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/workflows', {
      Name: 'Sorry',
      Event: 'booking-cancelled',
      Subject: 'Cancelled',
      Body: 'Your booking {{BookingReference}} is cancelled.',
    });
    expect(workflow.statusCode, workflow.body).toBe(201);
    const slot = await createTimeslot(t, op.adminKey, activityId, { Date: date, Time: '12:00', Capacity: 4 });
    const held = await shopHold('198.51.100.22', '12:00', 4);
    expect((await getTimeslot(t, op.adminKey, slot.ID)).Booked).toBe(4);
    const emailsBefore = (await t.db.kysely.selectFrom('emails').select('id').execute()).length;

    const released = await call(t.app, op.adminKey, 'POST', `/api/v2/admin/holds/${held.reference}/release`);
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json().data).toMatchObject({ BookingReference: held.reference, Status: 'expired' });
    expect((await getTimeslot(t, op.adminKey, slot.ID)).Booked).toBe(0);
    problemOf(
      await fromAddress(t.app, '198.51.100.22', 'POST', `${shop()}/baskets/${held.basket}/checkout`, { Payment: GOOD_CARD }),
      409,
      'conflict',
    );
    expect((await t.db.kysely.selectFrom('emails').select('id').execute()).length).toBe(emailsBefore);
    // The partner API sees the seats at once.
    const seats = (await call(t.app, op.otaKey, 'GET', `/api/v2/ota/${op.partner}/availability/${activityId}/timeslots?Date=${date}`)).json().data;
    expect(seats.find((s: { Time: string }) => s.Time === '12:00').Available).toBe(4);

    problemOf(await call(t.app, op.adminKey, 'POST', `/api/v2/admin/holds/${held.reference}/release`), 409, 'conflict');
    problemOf(await call(t.app, other.adminKey, 'POST', `/api/v2/admin/holds/${held.reference}/release`), 404, 'not-found');
    problemOf(await call(t.app, op.adminKey, 'POST', '/api/v2/admin/holds/BK-AAAAAAAA/release'), 404, 'not-found');
    problemOf(await call(t.app, op.adminKey, 'POST', '/api/v2/admin/holds/nope/release'), 400, 'bad-request');
  });

  it('all holds of a client, or of a timeslot, in one call; never everything by accident', async () => {
    const slot = await createTimeslot(t, op.adminKey, activityId, { Date: date, Time: '14:00', Capacity: 20 });
    const hoarder = [await shopHold('203.0.113.50', '14:00', 3), await shopHold('203.0.113.50', '14:00', 3)];
    const guest = await shopHold('203.0.113.51', '14:00', 2);
    const partner = await call(t.app, op.otaKey, 'POST', `/api/v2/ota/${op.partner}/booking`, {
      ActivityID: activityId,
      Date: date,
      Time: '14:00',
      Participants: 1,
      Customer: customer(),
      HoldMinutes: 30,
    });
    const client = (await holds(`?TimeslotID=${slot.ID}`)).find((h) => h.BookingReference === hoarder[0]!.reference)!.Client;

    const byClient = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/holds/release', { Client: client });
    expect(byClient.statusCode, byClient.body).toBe(200);
    expect(byClient.json().data).toEqual({ Released: 2, Seats: 6, BookingReferences: expect.arrayContaining(hoarder.map((h) => h.reference)) });
    expect((await getTimeslot(t, op.adminKey, slot.ID)).Booked).toBe(3);

    const bySlot = (await call(t.app, op.adminKey, 'POST', '/api/v2/admin/holds/release', { TimeslotID: slot.ID })).json().data;
    expect(bySlot).toEqual({
      Released: 2,
      Seats: 3,
      BookingReferences: expect.arrayContaining([guest.reference, partner.json().data.BookingReference]),
    });
    expect((await getTimeslot(t, op.adminKey, slot.ID)).Booked).toBe(0);
    expect(
      (await call(t.app, op.otaKey, 'GET', `/api/v2/ota/${op.partner}/booking/${partner.json().data.BookingReference}`)).json().data.Status,
    ).toBe('expired');

    const nothing = problemOf(await call(t.app, op.adminKey, 'POST', '/api/v2/admin/holds/release', {}), 422, 'validation');
    expect(nothing.errors?.[0]?.field).toBe('Body');
    expect((await call(t.app, other.adminKey, 'POST', '/api/v2/admin/holds/release', { Date: date })).json().data).toEqual({
      Released: 0,
      Seats: 0,
      BookingReferences: [],
    });
  });
});
