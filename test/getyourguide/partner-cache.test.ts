// GetYourGuide's writes and the partner API's cached answers (src/http/answer-cache.ts): a reserve, a
// released reservation, a booking and its cancellation through /gyg are seen by the partner API's very
// next read, as every channel's writes are (the seat ledger drops the operator's answers at its commit).
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { berlin, bookBody, connect, day, mappedActivity, reserveBody, type Gyg, type Product } from './fixtures.js';

let t: TestApp;
let op: TestOperator;
let gyg: Gyg;
let product: Product;

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  gyg = await connect(t, op);
  product = await mappedActivity(t, op, 6);
});
afterAll(() => t.close());
afterEach(() => vi.restoreAllMocks());

const partnerSlot = async () =>
  (await call(t.app, op.otaKey, 'GET', `/api/v2/ota/viator/availability/${product.activityId}/timeslots?Date=${day(3)}`)).json().data[0] as {
    Booked: number;
    Available: number;
  };

describe("GetYourGuide's writes and the partner API's cached answers", () => {
  it('reserve, cancel-reservation, book and cancel-booking are each seen by the next partner read', async () => {
    // Time stands still: a cached answer can neither expire nor be refreshed, only dropped.
    vi.spyOn(Date, 'now').mockReturnValue(Date.now());
    const dateTime = berlin(day(3));
    expect(await partnerSlot()).toMatchObject({ Booked: 0, Available: 6 });

    const held = await gyg('POST', 'reserve', 'reserve/', reserveBody(product.productId, dateTime, 'GYG-CACHE-1'));
    expect(await partnerSlot()).toMatchObject({ Booked: 2, Available: 4 });
    const released = { data: { gygBookingReference: 'GYG-CACHE-1', reservationReference: held.data.reservationReference } };
    expect(await gyg('POST', 'cancel-reservation', 'cancel-reservation/', released)).toEqual({ data: {} });
    expect(await partnerSlot()).toMatchObject({ Booked: 0, Available: 6 });

    const reserved = await gyg(
      'POST',
      'reserve',
      'reserve/',
      reserveBody(product.productId, dateTime, 'GYG-CACHE-2', [{ category: 'ADULT', count: 3 }]),
    );
    expect(await partnerSlot()).toMatchObject({ Booked: 3 });
    const booked = await gyg(
      'POST',
      'book',
      'book/',
      bookBody(product.productId, dateTime, 'GYG-CACHE-2', reserved.data.reservationReference, [{ category: 'ADULT', count: 3 }]),
    );
    expect(await partnerSlot()).toMatchObject({ Booked: 3, Available: 3 });
    const cancel = { data: { bookingReference: booked.data.bookingReference, gygBookingReference: 'GYG-CACHE-2', productId: product.productId } };
    expect(await gyg('POST', 'cancel-booking', 'cancel-booking/', cancel)).toEqual({ data: {} });
    expect(await partnerSlot()).toMatchObject({ Booked: 0, Available: 6 });
  });

  it("a refused GetYourGuide write (no seats) keeps the partner API's answers", async () => {
    vi.spyOn(Date, 'now').mockReturnValue(Date.now());
    expect(await partnerSlot()).toMatchObject({ Booked: 0 });
    // Another process's write: this process hears nothing of it, so its cached answer stays as it was.
    await t.db.kysely
      .updateTable('timeslots')
      .set({ capacity: 7 })
      .where('activity_id', 'in', t.db.kysely.selectFrom('activities').select('id').where('public_id', '=', product.activityId))
      .execute();
    const refused = await gyg(
      'POST',
      'reserve',
      'reserve/',
      reserveBody(product.productId, berlin(day(3)), 'GYG-CACHE-3', [{ category: 'ADULT', count: 9 }]),
    );
    expect(refused.errorCode).toMatch(/NO_AVAILABILITY|INVALID_PARTICIPANTS_CONFIGURATION/);
    expect(await partnerSlot()).toMatchObject({ Booked: 0, Available: 6 });
  });
});
