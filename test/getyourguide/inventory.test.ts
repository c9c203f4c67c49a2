// One inventory across every channel: GetYourGuide's reserve, the partner API and the online shop selling
// the same timeslot at once never overbook; vacancies are what reserve grants; retries of reserve and book
// answer the first result; a lapsed hold answers INVALID_RESERVATION; a GYG booking fires the same events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { openShop } from '../shop/fixtures.js';
import { admin, berlin, bookBody, connect, customer, day, mappedActivity, reserveBody, type Gyg } from './fixtures.js';
import { addSeconds, unixNow } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;
let gyg: Gyg;

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  gyg = await connect(t, op);
  await openShop(t, op.adminKey);
});
afterAll(async () => t.close());

const availability = async (productId: string, date: string) => {
  const range = `fromDateTime=${encodeURIComponent(berlin(date, '00:00'))}&toDateTime=${encodeURIComponent(berlin(date, '23:59'))}`;
  return (await gyg('GET', 'get-availabilities', `get-availabilities/?productId=${productId}&${range}`)).data.availabilities;
};

async function timeslotOf(activityId: string) {
  return t.db.kysely
    .selectFrom('timeslots')
    .innerJoin('activities', 'activities.id', 'timeslots.activity_id')
    .select(['timeslots.id', 'timeslots.capacity', 'timeslots.booked'])
    .where('activities.public_id', '=', activityId)
    .executeTakeFirstOrThrow();
}

async function liveSeats(timeslotId: number): Promise<number> {
  const row = await t.db.kysely
    .selectFrom('bookings')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('seats'), eb.lit(0)).as('seats'))
    .where('timeslot_id', '=', timeslotId)
    .where('status', 'in', ['confirmed', 'on_hold'])
    .executeTakeFirstOrThrow();
  return Number(row.seats);
}

describe('one inventory', () => {
  it('never overbooks with GetYourGuide, the partner API and the shop selling the last seats at once', async () => {
    const product = await mappedActivity(t, op, 10, 4);
    const when = berlin(day(4));
    const gygTries = Array.from({ length: 6 }, (_, i) => gyg('POST', 'reserve', 'reserve/', reserveBody(product.productId, when, `GYGRACE${i}`)));
    const partnerTries = Array.from({ length: 6 }, () =>
      call(t.app, op.otaKey, 'POST', `/api/v2/ota/${op.partner}/booking`, {
        ActivityID: product.activityId,
        Date: day(4),
        Time: '10:00',
        Participants: 1,
        Customer: customer,
      }),
    );
    const shopTries = Array.from({ length: 6 }, async () => {
      const basket = await call(t.app, undefined, 'POST', `/api/v2/shop/${op.operatorId}/baskets`, { Customer: customer });
      return call(t.app, undefined, 'POST', `/api/v2/shop/${op.operatorId}/baskets/${basket.json().data.BasketToken}/items`, {
        ActivityID: product.activityId,
        Date: day(4),
        Time: '10:00',
        Participants: 1,
      });
    });
    const [gygAnswers, partnerAnswers, shopAnswers] = await Promise.all([Promise.all(gygTries), Promise.all(partnerTries), Promise.all(shopTries)]);

    for (const answer of gygAnswers) if ('errorCode' in answer) expect(answer.errorCode).toBe('NO_AVAILABILITY');
    for (const answer of [...partnerAnswers, ...shopAnswers]) expect([200, 201, 409]).toContain(answer.statusCode);
    const granted =
      2 * gygAnswers.filter((a) => 'data' in a).length +
      partnerAnswers.filter((a) => a.statusCode < 300).length +
      shopAnswers.filter((a) => a.statusCode < 300).length;
    const slot = await timeslotOf(product.activityId);
    expect(granted).toBeLessThanOrEqual(10);
    expect(granted).toBeGreaterThanOrEqual(9);
    expect(slot.booked).toBe(granted);
    expect(await liveSeats(slot.id)).toBe(granted);

    // Sold out (or one seat left): what GYG sees, and what reserve then grants, agree.
    const [left] = await availability(product.productId, day(4));
    expect(left.vacancies).toBe(10 - granted);
    const more = await gyg('POST', 'reserve', 'reserve/', reserveBody(product.productId, when, 'GYGRACEMORE'));
    expect(more).toEqual({ errorCode: 'NO_AVAILABILITY', errorMessage: expect.stringContaining('left') });
  });

  it('grants exactly the vacancies availability shows, and a seat freed on another channel at once', async () => {
    const product = await mappedActivity(t, op, 5, 5);
    const when = berlin(day(5));
    expect((await availability(product.productId, day(5)))[0].vacancies).toBe(5);
    const partner = await call(t.app, op.otaKey, 'POST', `/api/v2/ota/${op.partner}/booking`, {
      ActivityID: product.activityId,
      Date: day(5),
      Time: '10:00',
      Participants: 2,
      Customer: customer,
    });
    expect(partner.statusCode, partner.body).toBe(201);
    expect((await availability(product.productId, day(5)))[0].vacancies).toBe(3);
    const refused = await gyg('POST', 'reserve', 'reserve/', reserveBody(product.productId, when, 'GYGVAC1', [{ category: 'ADULT', count: 4 }]));
    expect(refused.errorCode).toBe('NO_AVAILABILITY');
    const granted = await gyg('POST', 'reserve', 'reserve/', reserveBody(product.productId, when, 'GYGVAC2', [{ category: 'ADULT', count: 3 }]));
    expect(granted.data.reservationReference).toBeTruthy();
    expect((await availability(product.productId, day(5)))[0].vacancies).toBe(0);
    // The partner cancels: GYG sees its seats at once.
    const reference = partner.json().data.BookingReference;
    expect((await call(t.app, op.otaKey, 'POST', `/api/v2/ota/${op.partner}/booking/${reference}/cancel`)).statusCode).toBe(200);
    expect((await availability(product.productId, day(5)))[0].vacancies).toBe(2);
  });
});

describe('retries and lapsed holds', () => {
  it('answers a repeated reserve and book with the first result, also when the twins arrive at once', async () => {
    const product = await mappedActivity(t, op, 8, 6);
    const when = berlin(day(6));
    const twins = await Promise.all([1, 2, 3].map(() => gyg('POST', 'reserve', 'reserve/', reserveBody(product.productId, when, 'GYGTWIN1'))));
    const references = new Set(twins.map((answer) => answer.data.reservationReference));
    expect(references.size).toBe(1);
    const slot = await timeslotOf(product.activityId);
    expect(slot.booked).toBe(2);

    const reservation = twins[0]!.data.reservationReference;
    const first = await gyg('POST', 'book', 'book/', bookBody(product.productId, when, 'GYGTWIN1', reservation));
    const again = await gyg('POST', 'book', 'book/', bookBody(product.productId, when, 'GYGTWIN1', reservation));
    expect(again).toEqual(first);
    const reserveAgain = await gyg('POST', 'reserve', 'reserve/', reserveBody(product.productId, when, 'GYGTWIN1'));
    expect(reserveAgain.data.reservationReference).toBe(reservation);
    expect((await timeslotOf(product.activityId)).booked).toBe(2);

    // The same reference for another reservation is refused, not answered with the first.
    const other = await gyg('POST', 'reserve', 'reserve/', reserveBody(product.productId, when, 'GYGTWIN1', [{ category: 'ADULT', count: 3 }]));
    expect(other.errorCode).toBe('VALIDATION_FAILURE');
  });

  it('answers INVALID_RESERVATION to book once the hold lapsed, and reserves anew under the same reference', async () => {
    const product = await mappedActivity(t, op, 3, 7);
    const when = berlin(day(7));
    await admin(t, op, 'PATCH', '/api/v2/admin/getyourguide', { HoldMinutes: 1 });
    const reserved = await gyg('POST', 'reserve', 'reserve/', reserveBody(product.productId, when, 'GYGLAPSE1', [{ category: 'ADULT', count: 3 }]));
    const expiresIn = Date.parse(reserved.data.reservationExpiration) - Date.now();
    expect(expiresIn).toBeLessThanOrEqual(60_000);
    await admin(t, op, 'PATCH', '/api/v2/admin/getyourguide', { HoldMinutes: null });
    expect((await availability(product.productId, day(7)))[0].vacancies).toBe(0);

    // The minute passes.
    await sql`UPDATE bookings SET hold_expires_at = ${addSeconds(unixNow(), -1)} WHERE payment_reference = 'GYGLAPSE1'`.execute(t.db.kysely);
    expect((await availability(product.productId, day(7)))[0].vacancies).toBe(3);
    const late = await gyg(
      'POST',
      'book',
      'book/',
      bookBody(product.productId, when, 'GYGLAPSE1', reserved.data.reservationReference, [{ category: 'ADULT', count: 3 }]),
    );
    expect(late).toEqual({ errorCode: 'INVALID_RESERVATION', errorMessage: expect.stringContaining('expired') });

    const anew = await gyg('POST', 'reserve', 'reserve/', reserveBody(product.productId, when, 'GYGLAPSE1', [{ category: 'ADULT', count: 3 }]));
    expect(anew.data.reservationReference).not.toBe(reserved.data.reservationReference);
    const booked = await gyg(
      'POST',
      'book',
      'book/',
      bookBody(product.productId, when, 'GYGLAPSE1', anew.data.reservationReference, [{ category: 'ADULT', count: 3 }]),
    );
    expect(booked.data.bookingReference).toBe(anew.data.reservationReference);
  });
});

describe('events', () => {
  it("publishes a GetYourGuide booking's confirmation like any channel's (webhooks' outbox)", async () => {
    const created = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/webhooks', { URL: 'http://localhost:4000/hooks', EventTypes: ['*'] });
    expect(created.statusCode, created.body).toBe(201);
    const product = await mappedActivity(t, op, 4, 8);
    const when = berlin(day(8));
    const reserved = await gyg('POST', 'reserve', 'reserve/', reserveBody(product.productId, when, 'GYGEVENT1'));
    const booked = await gyg('POST', 'book', 'book/', bookBody(product.productId, when, 'GYGEVENT1', reserved.data.reservationReference));
    const code = booked.data.tickets[0].ticketCode as string;
    const entries = await t.db.kysely.selectFrom('webhook_outbox').select('events').where('operator_id', '=', op.operatorId).execute();
    const mentions = entries.map((e) => e.events).filter((events) => events.includes(code));
    expect(mentions.some((events) => events.includes('booking.confirmed'))).toBe(true);
    const booking = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${code}`)).json().data;
    expect(booking).toMatchObject({ Partner: 'GetYourGuide', PaymentReference: 'GYGEVENT1', Status: 'confirmed' });
    expect(JSON.stringify(booking)).toContain('Smith');
  });
});

describe('a year of availability', () => {
  it('answers 365 days of one product well under a second', async () => {
    const product = await mappedActivity(t, op, 20, 1);
    await admin(t, op, 'POST', `/api/v2/admin/activities/${product.activityId}/timeslots`, {
      From: day(2),
      To: day(365),
      Weekdays: [1, 2, 3, 4, 5, 6, 7],
      Times: ['09:00', '12:00', '15:00'],
      Capacity: 20,
    });
    const range = `fromDateTime=${encodeURIComponent(berlin(day(0), '00:00'))}&toDateTime=${encodeURIComponent(berlin(day(365), '23:59'))}`;
    await gyg('GET', 'get-availabilities', `get-availabilities/?productId=${product.productId}&${range}`);
    const started = performance.now();
    const answer = await gyg('GET', 'get-availabilities', `get-availabilities/?productId=${product.productId}&${range}`);
    const elapsed = performance.now() - started;
    expect(answer.data.availabilities.length).toBeGreaterThanOrEqual(364 * 3);
    expect(elapsed).toBeLessThan(1000);
  });
});
