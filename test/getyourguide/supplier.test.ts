// GetYourGuide's supplier endpoints at the HTTP level: every endpoint and error code, every answer HTTP
// 200 and valid against the schemas written from GYG's published files.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { admin, berlin, bookBody, connect, day, mappedActivity, reserveBody, type Gyg, type Product } from './fixtures.js';
import { addSeconds, unixNow } from '../../src/lib/clock.js';

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
    expect(booking).toMatchObject({ Status: 'confirmed', Source: 'partner', Partner: 'GetYourGuide', PaymentReference: 'GYGAAA111' });
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

const reserveAt = (
  when: string,
  reference: string,
  items?: { category: string; count: number; groupSize?: number }[],
  productId = product.productId,
) => gyg('POST', 'reserve', 'reserve/', reserveBody(productId, when, reference, items));

describe('reserve errors', () => {
  it('answers INVALID_TICKET_CATEGORY for a category the product does not sell or GYG does not know', async () => {
    const when = berlin(day(3));
    const senior = await reserveAt(when, 'GYGCAT1', [{ category: 'SENIOR', count: 1 }]);
    expect(senior).toEqual({ errorCode: 'INVALID_TICKET_CATEGORY', errorMessage: expect.stringContaining('ADULT, CHILD') });
    expect((await reserveAt(when, 'GYGCAT2', [{ category: 'ALIEN', count: 1 }])).errorCode).toBe('INVALID_TICKET_CATEGORY');
  });

  it('answers INVALID_PARTICIPANTS_CONFIGURATION with the limits', async () => {
    await admin(t, op, 'PATCH', `/api/v2/admin/activities/${product.activityId}`, { MaxParticipantsPerBooking: 4 });
    const many = await reserveAt(berlin(day(3)), 'GYGMANY1', [{ category: 'ADULT', count: 5 }]);
    expect(many).toEqual({
      errorCode: 'INVALID_PARTICIPANTS_CONFIGURATION',
      errorMessage: expect.stringContaining('more than 4'),
      participantsConfiguration: { min: 1, max: 4 },
    });
    await admin(t, op, 'PATCH', `/api/v2/admin/activities/${product.activityId}`, { MaxParticipantsPerBooking: 20 });
  });

  it('answers NO_AVAILABILITY for a time without a departure, VALIDATION_FAILURE for a child without an adult or a malformed body', async () => {
    expect((await reserveAt(berlin(day(3), '11:00'), 'GYGNONE1')).errorCode).toBe('NO_AVAILABILITY');
    expect((await reserveAt(berlin(day(4)), 'GYGNONE2')).errorCode).toBe('NO_AVAILABILITY');
    const alone = await reserveAt(berlin(day(3)), 'GYGKID1', [{ category: 'CHILD', count: 1 }]);
    expect(alone.errorCode).toBe('VALIDATION_FAILURE');
    const malformed = await gyg('POST', 'reserve', 'reserve/', { data: { productId: product.productId } });
    expect(malformed).toEqual({ errorCode: 'VALIDATION_FAILURE', errorMessage: expect.stringContaining('dateTime') });
    const notJson = await call(t.app, undefined, 'POST', '/gyg/1/reserve/', '{"data":', {
      authorization: `Basic ${Buffer.from(`${gyg.username}:${gyg.password}`).toString('base64')}`,
      'content-type': 'application/json',
    });
    expect(notJson.statusCode).toBe(200);
    expect(notJson.json().errorCode).toBe('VALIDATION_FAILURE');
    expect((await reserveAt(berlin(day(3)), 'GYGPROD1', undefined, 'unknown-product')).errorCode).toBe('INVALID_PRODUCT');
  });

  it('releases a reservation with cancel-reservation; an unknown one is INVALID_RESERVATION', async () => {
    const when = berlin(day(3));
    const reserved = await reserveAt(when, 'GYGREL1');
    const release = { data: { reservationReference: reserved.data.reservationReference, gygBookingReference: 'GYGREL1' } };
    expect(await gyg('POST', 'cancel-reservation', 'cancel-reservation/', release)).toEqual({ data: {} });
    // A retry of the release is a success too.
    expect(await gyg('POST', 'cancel-reservation', 'cancel-reservation/', release)).toEqual({ data: {} });
    const unknown = await gyg('POST', 'cancel-reservation', 'cancel-reservation/', {
      data: { reservationReference: 'BKNOPE', gygBookingReference: 'GYGREL1' },
    });
    expect(unknown.errorCode).toBe('INVALID_RESERVATION');
    // Booking a released reservation is refused.
    const late = await gyg('POST', 'book', 'book/', bookBody(product.productId, when, 'GYGREL1', reserved.data.reservationReference));
    expect(late.errorCode).toBe('INVALID_RESERVATION');
  });
});

describe('book errors and cancel-booking refusals', () => {
  it('answers INVALID_RESERVATION, INVALID_ADDONS_CONFIGURATION; accepts any retailPrice', async () => {
    const when = berlin(day(3));
    expect((await gyg('POST', 'book', 'book/', bookBody(product.productId, when, 'GYGNOPE', 'BKAAAAAAAA'))).errorCode).toBe('INVALID_RESERVATION');
    const reserved = await reserveAt(when, 'GYGADD1');
    const withAddons = bookBody(product.productId, when, 'GYGADD1', reserved.data.reservationReference);
    const addons = { ...withAddons, data: { ...withAddons.data, addonItems: [{ addonType: 'FOOD', count: 1, retailPrice: 1050 }] } };
    expect((await gyg('POST', 'book', 'book/', addons)).errorCode).toBe('INVALID_ADDONS_CONFIGURATION');
    // A retail price far from slotbook's never fails the booking.
    const cheap = bookBody(product.productId, when, 'GYGADD1', reserved.data.reservationReference, [{ category: 'ADULT', count: 2, retailPrice: 1 }]);
    expect((await gyg('POST', 'book', 'book/', cheap)).data.tickets).toHaveLength(2);
  });

  it('answers INVALID_BOOKING, BOOKING_REDEEMED and BOOKING_IN_PAST', async () => {
    const when = berlin(day(3));
    const unknown = await gyg('POST', 'cancel-booking', 'cancel-booking/', {
      data: { bookingReference: 'BKAAAAAAAA', gygBookingReference: 'GYGX', productId: product.productId },
    });
    expect(unknown.errorCode).toBe('INVALID_BOOKING');

    const reserved = await reserveAt(when, 'GYGREDEEM1', [{ category: 'ADULT', count: 1 }]);
    const booked = await gyg(
      'POST',
      'book',
      'book/',
      bookBody(product.productId, when, 'GYGREDEEM1', reserved.data.reservationReference, [{ category: 'ADULT', count: 1 }]),
    );
    const code = booked.data.tickets[0].ticketCode;
    // Held but never booked: not a booking.
    const held = await reserveAt(when, 'GYGHELD1', [{ category: 'ADULT', count: 1 }]);
    const notBooked = await gyg('POST', 'cancel-booking', 'cancel-booking/', {
      data: { bookingReference: held.data.reservationReference, gygBookingReference: 'GYGHELD1' },
    });
    expect(notBooked.errorCode).toBe('INVALID_BOOKING');

    // The door checks the guest in (the check-in of today's timeslots only: move it to today first).
    const soon = addSeconds(unixNow(), 3600);
    const timeslot = await t.db.kysely.selectFrom('bookings').select('timeslot_id').where('reference', '=', code).executeTakeFirstOrThrow();
    const original = await t.db.kysely.selectFrom('timeslots').selectAll().where('id', '=', timeslot.timeslot_id).executeTakeFirstOrThrow();
    const today = new Date().toISOString().slice(0, 10);
    await t.db.kysely
      .updateTable('timeslots')
      .set({ date: today, starts_at: soon, bookable_until: soon, ends_at: addSeconds(soon, 5400) })
      .where('id', '=', timeslot.timeslot_id)
      .execute();
    const checkin = await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${code}/check-in`);
    expect(checkin.statusCode, checkin.body).toBe(200);
    const redeemed = await gyg('POST', 'cancel-booking', 'cancel-booking/', {
      data: { bookingReference: booked.data.bookingReference, gygBookingReference: 'GYGREDEEM1' },
    });
    expect(redeemed.errorCode).toBe('BOOKING_REDEEMED');
    await call(t.app, op.adminKey, 'DELETE', `/api/v2/admin/bookings/${code}/check-in`);

    // The timeslot starts: too late to cancel.
    const past = addSeconds(unixNow(), -60);
    await t.db.kysely.updateTable('timeslots').set({ starts_at: past, bookable_until: past }).where('id', '=', timeslot.timeslot_id).execute();
    const inPast = await gyg('POST', 'cancel-booking', 'cancel-booking/', {
      data: { bookingReference: booked.data.bookingReference, gygBookingReference: 'GYGREDEEM1' },
    });
    expect(inPast.errorCode).toBe('BOOKING_IN_PAST');
    await t.db.kysely
      .updateTable('timeslots')
      .set({ date: original.date, starts_at: original.starts_at, bookable_until: original.bookable_until, ends_at: original.ends_at })
      .where('id', '=', timeslot.timeslot_id)
      .execute();
  });

  it('answers INTERNAL_SYSTEM_FAILURE, with a message, when something unexpected fails', async () => {
    const failing = await buildTestApp(t.db);
    failing.addHook('preHandler', async () => {
      throw new Error('boom');
    });
    await failing.ready();
    const answer = await failing.inject({
      method: 'POST',
      url: '/gyg/1/reserve/',
      headers: { authorization: `Basic ${Buffer.from(`${gyg.username}:${gyg.password}`).toString('base64')}` },
      payload: reserveBody(product.productId, berlin(day(3)), 'GYGBOOM'),
    });
    await failing.close();
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ errorCode: 'INTERNAL_SYSTEM_FAILURE', errorMessage: expect.stringContaining('retry') });
  });
});

describe('collective tickets, time periods, groups and categories by seat', () => {
  it('answers one COLLECTIVE ticket when the operator chose so', async () => {
    await admin(t, op, 'PATCH', '/api/v2/admin/getyourguide', { TicketStyle: 'COLLECTIVE' });
    const when = berlin(day(3));
    const reserved = await reserveAt(when, 'GYGCOLL1', [
      { category: 'ADULT', count: 1 },
      { category: 'CHILD', count: 1 },
    ]);
    const booked = await gyg(
      'POST',
      'book',
      'book/',
      bookBody(product.productId, when, 'GYGCOLL1', reserved.data.reservationReference, [
        { category: 'ADULT', count: 1, retailPrice: 2500 },
        { category: 'CHILD', count: 1, retailPrice: 1500 },
      ]),
    );
    expect(booked.data.tickets).toEqual([{ category: 'COLLECTIVE', ticketCode: expect.stringMatching(/^BK-/), ticketCodeType: 'QR_CODE' }]);
    await admin(t, op, 'PATCH', '/api/v2/admin/getyourguide', { TicketStyle: 'INDIVIDUAL' });
  });

  it('answers a day of opening hours as a time period, and categories that take no seat by category', async () => {
    const museum = await admin(t, op, 'POST', '/api/v2/admin/activities', {
      Name: 'Harbour museum',
      DurationMinutes: 480,
      Timezone: 'Europe/Berlin',
      Currency: 'EUR',
      UnitPrice: 1200,
      AvailabilityType: 'opening_hours',
    });
    await admin(t, op, 'POST', `/api/v2/admin/activities/${museum.ActivityID}/ticket-types`, {
      Type: 'infant',
      Name: 'Infant',
      Price: 0,
      Category: 'infant',
      TakesSeat: false,
      Requires: 'adult',
    });
    await admin(t, op, 'POST', `/api/v2/admin/activities/${museum.ActivityID}/timeslots`, { Date: day(6), Time: '09:00', Capacity: 40 });
    await admin(t, op, 'PUT', `/api/v2/admin/getyourguide/products/${museum.ActivityID}`, { ProductID: 'museum' });
    const range = `fromDateTime=${encodeURIComponent(berlin(day(6), '00:00'))}&toDateTime=${encodeURIComponent(berlin(day(6), '23:59'))}`;
    const answer = await gyg('GET', 'get-availabilities', `get-availabilities/?productId=museum&${range}`);
    expect(answer.data.availabilities).toEqual([
      expect.objectContaining({
        dateTime: berlin(day(6), '00:00'),
        openingTimes: [{ fromTime: '09:00', toTime: '17:00' }],
        vacanciesByCategory: [
          { category: 'ADULT', vacancies: 40 },
          { category: 'INFANT', vacancies: 40 },
        ],
      }),
    ]);
    const reserved = await reserveAt(
      berlin(day(6), '00:00'),
      'GYGMUSEUM1',
      [
        { category: 'ADULT', count: 2 },
        { category: 'INFANT', count: 1 },
      ],
      'museum',
    );
    expect(reserved.data.reservationReference).toBeTruthy();
    const after = await gyg('GET', 'get-availabilities', `get-availabilities/?productId=museum&${range}`);
    expect(after.data.availabilities[0].vacanciesByCategory[0]).toEqual({ category: 'ADULT', vacancies: 38 });
  });

  it('sells a family ticket as GROUP, counting groups', async () => {
    const boat = await admin(t, op, 'POST', '/api/v2/admin/activities', {
      Name: 'Private boat',
      DurationMinutes: 60,
      Timezone: 'Europe/Berlin',
      Currency: 'EUR',
      UnitPrice: 9000,
    });
    await admin(t, op, 'POST', `/api/v2/admin/activities/${boat.ActivityID}/ticket-types`, {
      Type: 'family',
      Name: 'Family',
      Price: 8000,
      Category: 'family',
      People: 4,
    });
    await admin(t, op, 'POST', `/api/v2/admin/activities/${boat.ActivityID}/timeslots`, { Date: day(3), Time: '10:00', Capacity: 9 });
    const mapping = await admin(t, op, 'PUT', `/api/v2/admin/getyourguide/products/${boat.ActivityID}`, {
      ProductID: 'boat',
      Categories: [{ Type: 'family', Category: 'GROUP' }],
    });
    expect(mapping.TicketTypes).toEqual([
      expect.objectContaining({ Type: 'adult', Category: 'ADULT', Offered: false, Reason: expect.stringContaining('GROUP') }),
      expect.objectContaining({ Type: 'family', Category: 'GROUP', Chosen: true, Offered: true, Reason: null }),
    ]);
    const range = `fromDateTime=${encodeURIComponent(berlin(day(3), '00:00'))}&toDateTime=${encodeURIComponent(berlin(day(3), '23:59'))}`;
    const answer = await gyg('GET', 'get-availabilities', `get-availabilities/?productId=boat&${range}`);
    expect(answer.data.availabilities[0].vacancies).toBe(2);
    const tooBig = await reserveAt(berlin(day(3)), 'GYGBOAT0', [{ category: 'GROUP', count: 1, groupSize: 6 }], 'boat');
    expect(tooBig).toMatchObject({
      errorCode: 'INVALID_PARTICIPANTS_CONFIGURATION',
      participantsConfiguration: { min: 1, max: 4 },
      groupConfiguration: { max: expect.any(Number) },
    });
    const two = await reserveAt(
      berlin(day(3)),
      'GYGBOAT1',
      [
        { category: 'GROUP', count: 1, groupSize: 4 },
        { category: 'GROUP', count: 1, groupSize: 3 },
      ],
      'boat',
    );
    expect(two.data.reservationReference).toBeTruthy();
    expect((await gyg('GET', 'get-availabilities', `get-availabilities/?productId=boat&${range}`)).data.availabilities[0].vacancies).toBe(0);
  });
});

describe('products and notify', () => {
  it("lists the supplier's products; another supplier ID is INVALID_SUPPLIER", async () => {
    const list = await gyg('GET', 'products', 'suppliers/sup-1/products/');
    expect(list.data).toMatchObject({ supplierId: 'sup-1', supplierName: 'Harbour Tours' });
    expect(list.data.products).toContainEqual({ productId: product.productId, productTitle: 'Harbour kayak tour' });
    expect((await gyg('GET', 'products', 'suppliers/someone-else/products/')).errorCode).toBe('INVALID_SUPPLIER');
  });

  it("answers a product's details, pricing categories and (no) add-ons", async () => {
    const details = await gyg('GET', 'product-details', `products/${product.productId}`);
    expect(details.data).toMatchObject({ supplierId: 'sup-1', productTitle: 'Harbour kayak tour', destinationLocation: { city: 'Berlin' } });
    const categories = await gyg('GET', 'pricing-categories', `products/${product.productId}/pricing-categories/`);
    expect(categories.data.pricingCategories.map((c: { category: string }) => c.category)).toEqual(['ADULT', 'CHILD']);
    expect(categories.data.pricingCategories[0].price).toEqual([{ priceType: 'RETAIL_PRICE', price: 2500, currency: 'EUR' }]);
    expect(await gyg('GET', 'addons', `products/${product.productId}/addons/`)).toEqual({ data: { addons: [] } });
    expect((await gyg('GET', 'addons', 'products/unknown/addons/')).errorCode).toBe('INVALID_PRODUCT');
    expect((await gyg('GET', 'product-details', 'products/unknown')).errorCode).toBe('INVALID_PRODUCT');
  });

  it("records GYG's notification for the connection page, and lists GYG's requests without personal data", async () => {
    const notification = {
      data: {
        notificationType: 'PRODUCT_DEACTIVATION',
        description: `GetYourGuide - Product ID - ${product.productId} is deactivated due to API Error`,
        supplierName: 'Harbour Tours',
        integrationName: 'slotbook',
        productDetails: { productId: product.productId, gygTourOptionId: '123456', tourOptionTitle: 'Kayak' },
        notificationDetails: { failedRequestType: 'reserve', errorType: 'no_availability', travellers: '2x adult, ' },
        dateTime: '2030-09-28T16:34:33+02:00',
      },
    };
    expect(await gyg('POST', 'notify', 'notify/', notification)).toEqual({ data: {} });
    // The request log is written after the answer has gone: wait for it.
    const connection = await vi.waitFor(async () => {
      const read = await admin(t, op, 'GET', '/api/v2/admin/getyourguide');
      expect(read.Requests[0].Endpoint).toBe('notify');
      return read;
    });
    expect(connection.Notifications[0]).toMatchObject({
      Type: 'PRODUCT_DEACTIVATION',
      ProductID: product.productId,
      Details: { notificationDetails: { errorType: 'no_availability' } },
    });
    expect(connection.Requests[0]).toMatchObject({ Endpoint: 'notify', ProductID: product.productId, ErrorCode: null });
    expect(connection.Requests.some((r: { ErrorCode: string | null }) => r.ErrorCode === 'INVALID_SUPPLIER')).toBe(true);
    expect(JSON.stringify(connection.Requests)).not.toContain('Smith');
    expect(connection).not.toHaveProperty('Password');
  });

  it('takes the paths without their trailing slash too', async () => {
    expect((await gyg('GET', 'products', 'suppliers/sup-1/products')).data.supplierId).toBe('sup-1');
    const unknown = await call(t.app, undefined, 'GET', '/gyg/1/nothing-here', undefined, {
      authorization: `Basic ${Buffer.from(`${gyg.username}:${gyg.password}`).toString('base64')}`,
    });
    expect(unknown.json().errorCode).toBe('VALIDATION_FAILURE');
  });
});
