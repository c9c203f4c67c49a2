// One inventory across every channel: Viator's reserve, the partner API, OCTo, GetYourGuide and the online
// shop selling the same last seats at once never overbook; what Viator's calendar shows is what every other
// channel shows; holds lapse (VIATOR_HOLD_MINUTES, shortened for this test only); a booking confirms its hold
// exactly once however often Viator retries, also when the retries arrive at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { openShop } from '../shop/fixtures.js';
import { berlin, reserveBody as gygReserveBody, connect as connectGyg } from '../getyourguide/fixtures.js';
import { loadConfig } from '../../src/config.js';
import { admin, bookingBody, connect, customer, day, mappedActivity, partnerSeats, reserveBody, SUPPLIER_ID, type Viator } from './fixtures.js';
import { addSeconds, unixNow } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;
let viator: Viator;

beforeAll(async () => {
  // Holds of one minute, as no production instance may have them (Viator asks for 15 at least).
  t = await createTestApp({ VIATOR_HOLD_MINUTES: '1' });
  op = await t.newOperator();
  viator = await connect(t, op);
  await openShop(t, op.adminKey);
});
afterAll(async () => t.close());

const remaining = async (optionId: string, date: string): Promise<number> => {
  const answer = await viator('calendar', { supplierId: SUPPLIER_ID, productOptionIds: [optionId], startDate: date, endDate: date });
  return answer.body.productOptions[0].dates[0].events[0].capacity.remaining;
};

async function seatsOf(activityId: string): Promise<{ booked: number; live: number }> {
  const slot = await t.db.kysely
    .selectFrom('timeslots')
    .innerJoin('activities', 'activities.id', 'timeslots.activity_id')
    .select(['timeslots.id', 'timeslots.booked'])
    .where('activities.public_id', '=', activityId)
    .executeTakeFirstOrThrow();
  const live = await t.db.kysely
    .selectFrom('bookings')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('seats'), eb.lit(0)).as('seats'))
    .where('timeslot_id', '=', slot.id)
    .where('status', 'in', ['confirmed', 'on_hold'])
    .executeTakeFirstOrThrow();
  return { booked: slot.booked, live: Number(live.seats) };
}

describe('one inventory', () => {
  it('never overbooks with Viator, the partner API, OCTo, GetYourGuide and the shop selling the last seats at once', async () => {
    const product = await mappedActivity(t, op, 12, 4);
    const gyg = await connectGyg(t, op);
    await admin(t, op, 'PUT', `/api/v2/admin/getyourguide/products/${product.activityId}`, { ProductID: 'race-gyg' });
    const [slot] = await admin(t, op, 'GET', `/api/v2/admin/activities/${product.activityId}/timeslots?From=${day(4)}&To=${day(4)}`);
    const octoKey = op.otaKey;

    const viatorTries = Array.from({ length: 6 }, () => viator('reserve', reserveBody(product.optionId, day(4))));
    const partnerTries = Array.from({ length: 4 }, () =>
      call(t.app, op.otaKey, 'POST', `/api/v2/ota/${op.partner}/booking`, {
        ActivityID: product.activityId,
        Date: day(4),
        Time: '10:00',
        Participants: 1,
        Customer: customer,
      }),
    );
    const octoTries = Array.from({ length: 4 }, () =>
      call(t.app, octoKey, 'POST', '/octo/bookings', {
        productId: product.activityId,
        optionId: 'DEFAULT',
        availabilityId: slot.StartsAt,
        unitItems: [{ unitId: 'adult' }],
      }),
    );
    const gygTries = Array.from({ length: 4 }, (_, i) =>
      gyg('POST', 'reserve', 'reserve/', gygReserveBody('race-gyg', berlin(day(4)), `GYGRACE${i}`, [{ category: 'ADULT', count: 1 }])),
    );
    const shopTries = Array.from({ length: 4 }, async () => {
      const basket = await call(t.app, undefined, 'POST', `/api/v2/shop/${op.operatorId}/baskets`, { Customer: customer });
      return call(t.app, undefined, 'POST', `/api/v2/shop/${op.operatorId}/baskets/${basket.json().data.BasketToken}/items`, {
        ActivityID: product.activityId,
        Date: day(4),
        Time: '10:00',
        Participants: 1,
      });
    });
    const [viatorAnswers, partnerAnswers, octoAnswers, gygAnswers, shopAnswers] = await Promise.all([
      Promise.all(viatorTries),
      Promise.all(partnerTries),
      Promise.all(octoTries),
      Promise.all(gygTries),
      Promise.all(shopTries),
    ]);

    for (const answer of viatorAnswers) {
      if (answer.body.status === 'NOT_RESERVED') expect(['SOLD_OUT', 'LIMITED_AVAILABILITY']).toContain(answer.body.reason);
      else expect(answer.body.status).toBe('RESERVED');
    }
    for (const answer of gygAnswers) if ('errorCode' in answer) expect(answer.errorCode).toBe('NO_AVAILABILITY');
    for (const answer of [...partnerAnswers, ...shopAnswers]) expect([200, 201, 409], answer.body).toContain(answer.statusCode);
    // OCTo's "not enough seats" is its 400 UNPROCESSABLE_ENTITY.
    for (const answer of octoAnswers) {
      if (answer.statusCode >= 300)
        expect(answer.json(), answer.body).toMatchObject({ error: 'UNPROCESSABLE_ENTITY', errorMessage: expect.stringContaining('seats') });
    }
    const granted =
      2 * viatorAnswers.filter((a) => a.body.status === 'RESERVED').length +
      gygAnswers.filter((a) => 'data' in a).length +
      [...partnerAnswers, ...shopAnswers, ...octoAnswers].filter((a) => a.statusCode < 300).length;
    expect(granted).toBeLessThanOrEqual(12);
    expect(granted).toBeGreaterThanOrEqual(11);
    expect(await seatsOf(product.activityId)).toEqual({ booked: granted, live: granted });
    // Every channel shows the same seats left.
    expect(await remaining(product.optionId, day(4))).toBe(12 - granted);
    expect(await partnerSeats(t, op, product.activityId, day(4))).toBe(12 - granted);
  });

  it('shows a hold of another channel at once, and its release', async () => {
    const product = await mappedActivity(t, op, 5, 5);
    const partner = await call(t.app, op.otaKey, 'POST', `/api/v2/ota/${op.partner}/booking`, {
      ActivityID: product.activityId,
      Date: day(5),
      Time: '10:00',
      Participants: 2,
      Customer: customer,
    });
    expect(partner.statusCode, partner.body).toBe(201);
    expect(await remaining(product.optionId, day(5))).toBe(3);
    const reserved = await viator('reserve', reserveBody(product.optionId, day(5), [{ type: 'ADULT', quantity: 3 }]));
    expect(reserved.body.status).toBe('RESERVED');
    expect(await partnerSeats(t, op, product.activityId, day(5))).toBe(0);
    expect(
      (await call(t.app, op.otaKey, 'POST', `/api/v2/ota/${op.partner}/booking/${partner.json().data.BookingReference}/cancel`)).statusCode,
    ).toBe(200);
    expect(await remaining(product.optionId, day(5))).toBe(2);
  });
});

describe('holds and retries', () => {
  it('lets a hold lapse after VIATOR_HOLD_MINUTES: its seats come back, and its booking is rejected', async () => {
    const product = await mappedActivity(t, op, 3, 6);
    const reserved = await viator('reserve', reserveBody(product.optionId, day(6), [{ type: 'ADULT', quantity: 3 }]));
    const holdMs = Date.parse(reserved.body.expiration) - Date.now();
    expect(holdMs).toBeLessThanOrEqual(60_000);
    expect(holdMs).toBeGreaterThan(50_000);
    expect(await remaining(product.optionId, day(6))).toBe(0);
    // The minute passes.
    await sql`UPDATE bookings SET hold_expires_at = ${addSeconds(unixNow(), -1)} WHERE reference = ${reserved.body.reference}`.execute(t.db.kysely);
    expect(await remaining(product.optionId, day(6))).toBe(3);
    expect(await partnerSeats(t, op, product.activityId, day(6))).toBe(3);
    const late = await viator('booking', bookingBody(product.optionId, day(6), 'VTR-LATE', reserved.body.reference, ['Adult', 'Adult', 'Adult']));
    expect(late.body.data.TransactionStatus).toMatchObject({ Status: 'REJECTED', RejectionReasonDetails: expect.stringContaining('expired') });
    expect((await viator('reserve', reserveBody(product.optionId, day(6), [{ type: 'ADULT', quantity: 3 }]))).body.status).toBe('RESERVED');
  });

  it('confirms a hold exactly once when the booking and its retries arrive at once', async () => {
    const product = await mappedActivity(t, op, 6, 7);
    const reserved = await viator('reserve', reserveBody(product.optionId, day(7)));
    const tries = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        viator('booking', bookingBody(product.optionId, day(7), 'VTR-TWIN', reserved.body.reference, ['Adult', 'Adult'], { Retry: i > 0 })),
      ),
    );
    for (const answer of tries) {
      expect(answer.body.data.TransactionStatus).toEqual({ Status: 'CONFIRMED' });
      expect(answer.body.data.SupplierConfirmationNumber).toBe(reserved.body.reference);
    }
    expect(await seatsOf(product.activityId)).toEqual({ booked: 2, live: 2 });
    const confirmations = await t.db.kysely.selectFrom('webhook_outbox').select('events').where('operator_id', '=', op.operatorId).execute();
    // One confirmation event: the workflows' e-mails and webhooks fire once.
    const confirmed = confirmations
      .map((row) => row.events)
      .filter((events) => events.includes(reserved.body.reference) && events.includes('booking.confirmed'));
    expect(confirmed.length).toBeLessThanOrEqual(1);
    const rows = await t.db.kysely.selectFrom('viator_bookings').select('booking_id').where('viator_reference', '=', 'VTR-TWIN').execute();
    expect(rows).toHaveLength(1);
    // Another booking reference cannot take the same hold.
    const other = await viator('booking', bookingBody(product.optionId, day(7), 'VTR-THIEF', reserved.body.reference));
    expect(other.body.data.RequestStatus.Error.ErrorCode).toBe('TGDS0026');
  });

  it('books once when twin bookings without a hold arrive at once', async () => {
    const product = await mappedActivity(t, op, 6, 8);
    const tries = await Promise.all(
      Array.from({ length: 4 }, () => viator('booking', bookingBody(product.optionId, day(8), 'VTR-DIRECT-TWIN', undefined, ['Adult', 'Adult']))),
    );
    const confirmations = new Set(tries.map((answer) => answer.body.data.SupplierConfirmationNumber));
    expect(confirmations.size).toBe(1);
    expect(await seatsOf(product.activityId)).toEqual({ booked: 2, live: 2 });
  });

  it('refuses a hold shorter than Viator asks for in production', () => {
    const production = { NODE_ENV: 'production', SECRET_KEY: 'x'.repeat(64), PUBLIC_URL: 'https://slotbook.example' };
    expect(() => loadConfig({ ...production, VIATOR_HOLD_MINUTES: '5' })).toThrow(/VIATOR_HOLD_MINUTES/);
    expect(loadConfig(production).viatorHoldMinutes).toBeGreaterThanOrEqual(15);
    expect(() => loadConfig({ VIATOR_API_URL: 'ftp://viator' })).toThrow(/VIATOR_API_URL/);
  });
});

describe('a year of availability', () => {
  it("answers 365 days of one product's calendar fast", async () => {
    const product = await mappedActivity(t, op, 20, 1);
    await admin(t, op, 'POST', `/api/v2/admin/activities/${product.activityId}/timeslots`, {
      From: day(2),
      To: day(365),
      Weekdays: [1, 2, 3, 4, 5, 6, 7],
      Times: ['09:00', '12:00', '15:00'],
      Capacity: 20,
    });
    const body = { supplierId: SUPPLIER_ID, productOptionIds: [product.optionId], startDate: day(0), endDate: day(365) };
    // Checked against Viator's schema once; the timed request is the bare HTTP call.
    const answer = await viator('calendar', body);
    expect(answer.body.productOptions[0].dates.length).toBeGreaterThanOrEqual(364);
    const started = performance.now();
    const timed = await call(t.app, undefined, 'POST', '/viator/v2/availability/calendar', body, { 'x-api-key': viator.key });
    const elapsed = performance.now() - started;
    expect(timed.statusCode).toBe(200);
    // The bench measures it (docs/benchmarks.md); here only a bound no busy test machine should break.
    expect(elapsed).toBeLessThan(1000);
  });
});
