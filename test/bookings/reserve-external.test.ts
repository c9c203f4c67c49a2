// Reserving under a marketplace's reference is one recipe (bookings' reserveUnderReference) for
// GetYourGuide, Viator and OCTo: a retry and a twin racing it answer the first booking and take its
// seats once, and what the catalogue refuses comes back in each channel's own words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import * as gygFixtures from '../getyourguide/fixtures.js';
import * as viatorFixtures from '../viator/fixtures.js';

let t: TestApp;
let op: TestOperator;
let gyg: gygFixtures.Gyg;
let viator: viatorFixtures.Viator;

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator('Harbour Tours');
  gyg = await gygFixtures.connect(t, op);
  viator = await viatorFixtures.connect(t, op);
});
afterAll(async () => t.close());

const seatsLeft = (activityId: string, date: string) => viatorFixtures.partnerSeats(t, op, activityId, date);

describe('GetYourGuide', () => {
  it('answers a retry and a twin racing it with the first reservation, its seats taken once', async () => {
    const product = await gygFixtures.mappedActivity(t, op, 6, 5);
    const body = gygFixtures.reserveBody(product.productId, gygFixtures.berlin(gygFixtures.day(5)), 'GYG-TWIN-1');
    const [first, twin] = await Promise.all([gyg('POST', 'reserve', 'reserve/', body), gyg('POST', 'reserve', 'reserve/', body)]);
    expect(first.data.reservationReference).toMatch(/^BK[A-Z0-9]{8}$/);
    expect(twin.data).toEqual(first.data);
    const retry = await gyg('POST', 'reserve', 'reserve/', body);
    expect(retry.data).toEqual(first.data);
    expect(await seatsLeft(product.activityId, gygFixtures.day(5))).toBe(4);
  });

  it("says a ticket type's limits as INVALID_PARTICIPANTS_CONFIGURATION, from the catalogue's refusal", async () => {
    const product = await gygFixtures.mappedActivity(t, op, 6, 6);
    const types = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/activities/${product.activityId}/ticket-types`)).json().data;
    const adult = types.find((type: { Default: boolean }) => type.Default);
    const changed = await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/ticket-types/${adult.ID}`, { MinPerBooking: 3, MaxPerBooking: 5 });
    expect(changed.statusCode, changed.body).toBe(200);
    const when = gygFixtures.berlin(gygFixtures.day(6));
    const few = await gyg(
      'POST',
      'reserve',
      'reserve/',
      gygFixtures.reserveBody(product.productId, when, 'GYG-MIN-1', [{ category: 'ADULT', count: 2 }]),
    );
    expect(few).toEqual({
      errorCode: 'INVALID_PARTICIPANTS_CONFIGURATION',
      errorMessage: 'This activity sells 3 to 5 ADULT tickets per booking',
      participantsConfiguration: { min: 3, max: 5 },
    });
    const many = await gyg(
      'POST',
      'reserve',
      'reserve/',
      gygFixtures.reserveBody(product.productId, when, 'GYG-MAX-1', [{ category: 'ADULT', count: 7 }]),
    );
    expect(many).toMatchObject({ errorCode: 'INVALID_PARTICIPANTS_CONFIGURATION', participantsConfiguration: { min: 3, max: 5 } });
    // Nothing was placed, and the seats gone are NO_AVAILABILITY.
    expect(await seatsLeft(product.activityId, gygFixtures.day(6))).toBe(6);
    await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/ticket-types/${adult.ID}`, { MinPerBooking: 0, MaxPerBooking: null });
    const full = await gyg(
      'POST',
      'reserve',
      'reserve/',
      gygFixtures.reserveBody(product.productId, when, 'GYG-FULL-1', [{ category: 'ADULT', count: 7 }]),
    );
    expect(full.errorCode).toBe('NO_AVAILABILITY');
  });
});

describe('Viator', () => {
  it('answers a booking without a hold, retried and raced by its twin, with the first booking, its seats taken once', async () => {
    const product = await viatorFixtures.mappedActivity(t, op, 6, 7);
    const body = viatorFixtures.bookingBody(product.optionId, viatorFixtures.day(7), 'VTR-TWIN-1', undefined, ['Adult', 'Adult']);
    const [first, twin] = await Promise.all([viator('booking', body), viator('booking', body)]);
    expect(first.body.data.TransactionStatus).toEqual({ Status: 'CONFIRMED' });
    expect(twin.body.data.TransactionStatus).toEqual({ Status: 'CONFIRMED' });
    expect(twin.body.data.SupplierConfirmationNumber).toBe(first.body.data.SupplierConfirmationNumber);
    const retry = await viator('booking', body);
    expect(retry.body.data.SupplierConfirmationNumber).toBe(first.body.data.SupplierConfirmationNumber);
    expect(await seatsLeft(product.activityId, viatorFixtures.day(7))).toBe(4);
  });

  it('rejects a booking the seats do not fit, in its own words, and places nothing', async () => {
    const product = await viatorFixtures.mappedActivity(t, op, 2, 8);
    const body = viatorFixtures.bookingBody(product.optionId, viatorFixtures.day(8), 'VTR-FULL-1', undefined, ['Adult', 'Adult', 'Adult']);
    const refused = await viator('booking', body);
    expect(refused.body.data.TransactionStatus).toMatchObject({ Status: 'REJECTED', RejectionReason: 'OTHER' });
    expect(await seatsLeft(product.activityId, viatorFixtures.day(8))).toBe(2);
  });
});
