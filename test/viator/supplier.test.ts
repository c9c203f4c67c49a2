// Viator's reservation-system endpoints at the HTTP level: every endpoint and every error of Viator's
// document, each answer valid against the schemas written from it (fixtures.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import {
  admin,
  amendmentBody,
  bookingBody,
  cancellationBody,
  connect,
  day,
  mappedActivity,
  partnerSeats,
  redemptionBody,
  reserveBody,
  SUPPLIER_ID,
  tourListBody,
  type Product,
  type Viator,
} from './fixtures.js';
import { addSeconds, unixNow } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;
let viator: Viator;
let product: Product;

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator('Harbour Tours');
  viator = await connect(t, op);
  product = await mappedActivity(t, op, 6);
});
afterAll(async () => t.close());

const calendarOf = (optionIds: string[], from = day(0), to = day(10)) => ({
  supplierId: SUPPLIER_ID,
  productOptionIds: optionIds,
  startDate: from,
  endDate: to,
});
const checkOf = (optionId: string, travelDate: string, tickets: { type: string; quantity: number }[], startTimes?: string[]) => ({
  supplierId: SUPPLIER_ID,
  productOptions: [{ productOptionId: optionId, ...(startTimes && { startTimes }) }],
  travelDate,
  tickets,
  totalTravelers: tickets.reduce((sum, ticket) => sum + ticket.quantity, 0),
});

describe('authentication and the supplier', () => {
  it('answers 401 without a key or with a wrong one (v2), before reading the body', async () => {
    const missing = await viator('calendar', calendarOf([product.optionId]), { key: null });
    expect(missing).toEqual({ status: 401, body: { error: 'UNAUTHORIZED', message: expect.stringContaining('X-Api-Key') } });
    expect((await viator('reserve', 'not json at all', { key: 'vtr_wrong' })).status).toBe(401);
  });

  it('answers TGDS0002 at HTTP 200 to a v1 request without a valid key, and takes the key from the body too', async () => {
    const missing = await viator('tourlist', tourListBody(), { key: null });
    expect(missing.body.data.RequestStatus).toEqual({ Status: 'ERROR', Error: expect.objectContaining({ ErrorCode: 'TGDS0002' }) });
    const wrong = await viator('tourlist', { ...tourListBody(), data: { ...tourListBody().data, ApiKey: 'vtr_wrong' } }, { key: null });
    expect(wrong.body.data.RequestStatus.Error.ErrorCode).toBe('TGDS0002');
    const inBody = await viator('tourlist', { ...tourListBody(), data: { ...tourListBody().data, ApiKey: viator.key } }, { key: null });
    expect(inBody.body.data.RequestStatus).toEqual({ Status: 'SUCCESS' });
    // The key is never echoed.
    expect(JSON.stringify(inBody.body)).not.toContain(viator.key);
  });

  it("answers INVALID_SUPPLIER (TGDS0011) for another supplier ID, API_DISABLED (TGDS0016) when switched off, never another operator's data", async () => {
    const wrongSupplier = await viator('calendar', { ...calendarOf([product.optionId]), supplierId: 9999 });
    expect(wrongSupplier).toEqual({ status: 422, body: { error: 'INVALID_SUPPLIER', message: expect.stringContaining('9999') } });
    const v1 = await viator('tourlist', { ...tourListBody(), data: { ...tourListBody().data, SupplierId: 9999 } });
    expect(v1.body.data.RequestStatus.Error.ErrorCode).toBe('TGDS0011');

    const other = await t.newOperator();
    const otherViator = await connect(t, other);
    // The other operator's key sees nothing of this operator's: its calendar is empty, its reserve an unknown option.
    expect((await otherViator('calendar', calendarOf([product.optionId]))).body).toEqual({ productOptions: [] });
    expect((await otherViator('reserve', reserveBody(product.optionId, day(3)))).body.error).toBe('INVALID_PRODUCT_OPTION');
    await admin(t, other, 'PATCH', '/api/v2/admin/viator', { Enabled: false });
    expect((await otherViator('calendar', calendarOf([product.optionId]))).body.error).toBe('API_DISABLED');
    const off = await otherViator('tourlist', tourListBody());
    expect(off.body.data.RequestStatus.Error.ErrorCode).toBe('TGDS0016');
  });

  it('answers 400 naming the field for a malformed v2 body, and TGDS0001/TGDS0020 for v1', async () => {
    const bad = await viator('check', { supplierId: SUPPLIER_ID, productOptions: [], travelDate: 'tomorrow', tickets: [] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/travelDate|productOptions|tickets/);
    const notJson = await call(t.app, undefined, 'POST', '/viator/v2/reserve', '{"supplierId":', {
      'x-api-key': viator.key,
      'content-type': 'application/json',
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toEqual({ error: 'BAD_REQUEST', message: expect.stringContaining('JSON') });
    const v1 = await viator('booking', { requestType: 'BookingRequest', data: { SupplierId: SUPPLIER_ID, BookingReference: 'X' } });
    expect(v1.body.data.RequestStatus.Error).toMatchObject({ ErrorCode: 'TGDS0020', ErrorDetails: expect.stringMatching(/TravelDate|Traveller/) });
    const v1Json = await call(t.app, undefined, 'POST', '/viator/booking', '{"data":', {
      'x-api-key': viator.key,
      'content-type': 'application/json',
    });
    expect(v1Json.statusCode).toBe(200);
    expect(v1Json.json().data.RequestStatus.Error.ErrorCode).toBe('TGDS0001');
    const nowhere = await call(t.app, undefined, 'POST', '/viator/v2/nothing', {}, { 'x-api-key': viator.key });
    expect(nowhere.statusCode).toBe(404);
  });
});

describe('calendar', () => {
  it('answers each departure with capacity of every offered type, cut-off and prices in major units; unknown options left out', async () => {
    const answer = await viator('calendar', calendarOf([product.optionId, 'no-such-option']));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      productOptions: [
        {
          productOptionId: product.optionId,
          currency: 'EUR',
          dates: [
            {
              travelDate: day(3),
              events: [
                {
                  status: 'AVAILABLE',
                  startTime: '10:00',
                  bookingCutoff: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
                  capacity: {
                    type: 'LIMITED',
                    vacancies: [{ types: ['ADULT', 'CHILD'], quantity: 6, quantityType: 'SHARED' }],
                    original: 6,
                    remaining: 6,
                  },
                  price: {
                    type: 'PER_PERSON_PRICE',
                    prices: [
                      { types: ['ADULT'], retailPrice: 25 },
                      { types: ['CHILD'], retailPrice: 15 },
                    ],
                  },
                },
              ],
            },
          ],
        },
      ],
    });
    // The cut-off is the departure's start: 10:00 in Berlin.
    const cutoff = answer.body.productOptions[0].dates[0].events[0].bookingCutoff;
    expect(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', timeStyle: 'short' }).format(new Date(cutoff))).toBe('10:00');
  });

  it('answers a sold-out departure as UNAVAILABLE SOLD_OUT and refuses a range of more than 366 days', async () => {
    const full = await mappedActivity(t, op, 1, 4);
    const booked = await call(t.app, op.otaKey, 'POST', `/api/v2/ota/${op.partner}/booking`, {
      ActivityID: full.activityId,
      Date: day(4),
      Time: '10:00',
      Participants: 1,
      Customer: { FirstName: 'A', LastName: 'B', Email: 'a@example.com', Phone: '+441234567890' },
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const answer = await viator('calendar', calendarOf([full.optionId]));
    expect(answer.body.productOptions[0].dates[0].events[0]).toMatchObject({
      status: 'UNAVAILABLE',
      unavailableReason: 'SOLD_OUT',
      capacity: { remaining: 0, original: 1 },
    });
    const long = await viator('calendar', calendarOf([full.optionId], day(0), day(400)));
    expect(long).toEqual({ status: 400, body: { error: 'BAD_REQUEST', message: expect.stringContaining('366') } });
  });
});

describe('availability check', () => {
  it('answers the asked tickets with their price, or the reason: unsupported, limited, sold out, past the cut-off', async () => {
    const available = await viator(
      'check',
      checkOf(
        product.optionId,
        day(3),
        [
          { type: 'ADULT', quantity: 2 },
          { type: 'CHILD', quantity: 1 },
        ],
        ['10:00'],
      ),
    );
    expect(available.body.productOptions[0].events).toEqual([
      expect.objectContaining({
        status: 'AVAILABLE',
        startTime: '10:00',
        price: {
          type: 'PER_PERSON_PRICE',
          prices: [
            { types: ['ADULT'], retailPrice: 25 },
            { types: ['CHILD'], retailPrice: 15 },
          ],
        },
      }),
    ]);
    const reason = async (tickets: { type: string; quantity: number }[], date = day(3)) =>
      (await viator('check', checkOf(product.optionId, date, tickets))).body.productOptions[0].events[0]?.unavailableReason;
    // A child alone (the activity sells children only with an adult) and a band the product does not sell.
    expect(await reason([{ type: 'CHILD', quantity: 1 }])).toBe('UNSUPPORTED_TICKET_COMBINATION');
    expect(await reason([{ type: 'SENIOR', quantity: 1 }])).toBe('UNSUPPORTED_TICKET_COMBINATION');
    expect(await reason([{ type: 'ADULT', quantity: 7 }])).toBe('LIMITED_AVAILABILITY');
    // Another start time than asked is not answered.
    expect(
      (await viator('check', checkOf(product.optionId, day(3), [{ type: 'ADULT', quantity: 1 }], ['15:00']))).body.productOptions[0].events,
    ).toEqual([]);

    const closing = await mappedActivity(t, op, 2, 5);
    await sql`UPDATE timeslots SET bookable_until = ${addSeconds(unixNow(), -60)} WHERE date = ${day(5)}`.execute(t.db.kysely);
    const past = await viator('check', checkOf(closing.optionId, day(5), [{ type: 'ADULT', quantity: 1 }]));
    expect(past.body.productOptions[0].events[0].unavailableReason).toBe('PAST_BOOKING_CUTOFF');
    const gone = await mappedActivity(t, op, 1, 6);
    await viator('reserve', reserveBody(gone.optionId, day(6), [{ type: 'ADULT', quantity: 1 }]));
    const soldOut = await viator('check', checkOf(gone.optionId, day(6), [{ type: 'ADULT', quantity: 1 }]));
    expect(soldOut.body.productOptions[0].events[0].unavailableReason).toBe('SOLD_OUT');
  });
});

describe('reserve, booking, amendment, cancellation, redemption', () => {
  it('reserves for at least 15 minutes, seen by the partner API at once, and books the hold under the lead traveller', async () => {
    const reserved = await viator(
      'reserve',
      reserveBody(product.optionId, day(3), [
        { type: 'ADULT', quantity: 2 },
        { type: 'CHILD', quantity: 1 },
      ]),
    );
    expect(reserved.body).toEqual({
      status: 'RESERVED',
      expiration: expect.any(String),
      reference: expect.stringMatching(/^BK-[A-Z0-9]{8}$/),
      currency: 'EUR',
      price: {
        type: 'PER_PERSON_PRICE',
        prices: [
          { types: ['ADULT'], retailPrice: 25 },
          { types: ['CHILD'], retailPrice: 15 },
        ],
      },
    });
    const holdMs = Date.parse(reserved.body.expiration) - Date.now();
    expect(holdMs).toBeGreaterThan(15 * 60_000);
    expect(await partnerSeats(t, op, product.activityId, day(3))).toBe(3);

    const booked = await viator('booking', bookingBody(product.optionId, day(3), 'VTR-1001', reserved.body.reference, ['Adult', 'Adult', 'Child']));
    expect(booked.body).toMatchObject({
      responseType: 'BookingResponse',
      data: {
        RequestStatus: { Status: 'SUCCESS' },
        BookingReference: 'VTR-1001',
        TransactionStatus: { Status: 'CONFIRMED' },
        SupplierConfirmationNumber: reserved.body.reference,
        TourBarcode: reserved.body.reference,
        Traveller: [{ TravellerIdentifier: '1' }, { TravellerIdentifier: '2' }, { TravellerIdentifier: '3' }],
      },
    });
    const booking = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${reserved.body.reference}`)).json().data;
    expect(booking).toMatchObject({ Status: 'confirmed', Source: 'partner', Partner: 'Viator' });
    expect(JSON.stringify(booking)).toContain('Surname0');
    // A retry (Viator's Retry flag, or the same request again) answers the same booking, and takes nothing more.
    const retry = await viator(
      'booking',
      bookingBody(product.optionId, day(3), 'VTR-1001', reserved.body.reference, ['Adult', 'Adult', 'Child'], { Retry: true }),
    );
    expect(retry.body.data.SupplierConfirmationNumber).toBe(reserved.body.reference);
    expect(await partnerSeats(t, op, product.activityId, day(3))).toBe(3);

    // Redemption: not yet; the door checks them in (today's timeslots only: move it to today first); then yes.
    const notYet = await viator('redemption', redemptionBody('VTR-1001', reserved.body.reference, day(3)));
    expect(notYet.body.data).toMatchObject({ RequestStatus: { Status: 'SUCCESS' }, RedemptionStatus: false });
    const soon = addSeconds(unixNow(), 3600);
    const { timeslot_id } = await t.db.kysely
      .selectFrom('bookings')
      .select('timeslot_id')
      .where('reference', '=', reserved.body.reference)
      .executeTakeFirstOrThrow();
    const today = new Date().toISOString().slice(0, 10);
    const original = await t.db.kysely.selectFrom('timeslots').selectAll().where('id', '=', timeslot_id).executeTakeFirstOrThrow();
    await t.db.kysely
      .updateTable('timeslots')
      .set({ date: today, starts_at: soon, bookable_until: soon, ends_at: addSeconds(soon, 5400) })
      .where('id', '=', timeslot_id)
      .execute();
    expect((await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${reserved.body.reference}/check-in`)).statusCode).toBe(200);
    expect((await viator('redemption', redemptionBody('VTR-1001', reserved.body.reference, day(3)))).body.data.RedemptionStatus).toBe(true);
    // A redeemed booking cannot be cancelled or amended.
    const redeemed = await viator('booking-cancellation', cancellationBody('VTR-1001', reserved.body.reference));
    expect(redeemed.body.data.TransactionStatus).toEqual({
      Status: 'REJECTED',
      RejectionReason: 'TOUR_REDEEMED',
      RejectionReasonDetails: expect.any(String),
    });
    const amendRedeemed = await viator('booking-amendment', amendmentBody(product.optionId, today, 'VTR-1001', reserved.body.reference, ['Adult']));
    expect(amendRedeemed.body.data.TransactionStatus).toMatchObject({ Status: 'REJECTED', RejectionReason: 'OTHER' });
    await call(t.app, op.adminKey, 'DELETE', `/api/v2/admin/bookings/${reserved.body.reference}/check-in`);
    // Once the tour has started: past the tour date.
    await t.db.kysely
      .updateTable('timeslots')
      .set({ starts_at: addSeconds(soon, -7200), bookable_until: addSeconds(soon, -7200) })
      .where('id', '=', timeslot_id)
      .execute();
    const started = await viator('booking-cancellation', cancellationBody('VTR-1001', reserved.body.reference));
    expect(started.body.data.TransactionStatus).toMatchObject({ Status: 'REJECTED', RejectionReason: 'PAST_TOUR_DATE' });
    await t.db.kysely
      .updateTable('timeslots')
      .set({ date: original.date, starts_at: original.starts_at, bookable_until: original.bookable_until, ends_at: original.ends_at })
      .where('id', '=', timeslot_id)
      .execute();

    // The cancellation gives the seats back at once; a repeated one answers the same.
    const cancelled = await viator('booking-cancellation', cancellationBody('VTR-1001', reserved.body.reference));
    expect(cancelled.body.data).toMatchObject({
      RequestStatus: { Status: 'SUCCESS' },
      BookingReference: 'VTR-1001',
      SupplierConfirmationNumber: reserved.body.reference,
      SupplierCancellationNumber: `${reserved.body.reference}-C`,
      TransactionStatus: { Status: 'CONFIRMED' },
    });
    expect(await partnerSeats(t, op, product.activityId, day(3))).toBe(6);
    const again = await viator('booking-cancellation', cancellationBody('VTR-1001', reserved.body.reference));
    expect(again.body.data.TransactionStatus).toEqual({ Status: 'CONFIRMED' });
    // A cancelled booking is not booked again by a late retry.
    const late = await viator('booking', bookingBody(product.optionId, day(3), 'VTR-1001', reserved.body.reference, ['Adult', 'Adult', 'Child']));
    expect(late.body.data.RequestStatus.Error.ErrorCode).toBe('TGDS0026');
  });

  it('answers NOT_RESERVED with NO_EVENT, UNSUPPORTED_TICKET_COMBINATION, LIMITED_AVAILABILITY, SOLD_OUT, PAST_BOOKING_CUTOFF, and 422 INVALID_PRODUCT_OPTION', async () => {
    const small = await mappedActivity(t, op, 2, 7);
    const reason = async (body: unknown) => (await viator('reserve', body)).body.reason;
    expect(await reason(reserveBody(small.optionId, day(7), undefined, '15:00'))).toBe('NO_EVENT');
    expect(await reason(reserveBody(small.optionId, day(8)))).toBe('NO_EVENT');
    expect(await reason(reserveBody(small.optionId, day(7), [{ type: 'CHILD', quantity: 1 }]))).toBe('UNSUPPORTED_TICKET_COMBINATION');
    expect(await reason(reserveBody(small.optionId, day(7), [{ type: 'UNIT', quantity: 1 }]))).toBe('UNSUPPORTED_TICKET_COMBINATION');
    expect(await reason(reserveBody(small.optionId, day(7), [{ type: 'ADULT', quantity: 3 }]))).toBe('LIMITED_AVAILABILITY');
    expect((await viator('reserve', reserveBody(small.optionId, day(7)))).body.status).toBe('RESERVED');
    expect(await reason(reserveBody(small.optionId, day(7), [{ type: 'ADULT', quantity: 1 }]))).toBe('SOLD_OUT');
    await sql`UPDATE timeslots SET bookable_until = ${addSeconds(unixNow(), -60)} WHERE date = ${day(7)}`.execute(t.db.kysely);
    expect(await reason(reserveBody(small.optionId, day(7), [{ type: 'ADULT', quantity: 1 }]))).toBe('PAST_BOOKING_CUTOFF');
    const unknown = await viator('reserve', reserveBody('no-such-option', day(7)));
    expect(unknown).toEqual({ status: 422, body: { error: 'INVALID_PRODUCT_OPTION', message: expect.any(String) } });
  });

  it('refuses a booking of an unknown product, hold or mismatched travellers, and rejects a lapsed hold', async () => {
    const p = await mappedActivity(t, op, 4, 9);
    const reserved = await viator('reserve', reserveBody(p.optionId, day(9)));
    const error = async (body: unknown) => (await viator('booking', body)).body.data.RequestStatus.Error?.ErrorCode;
    expect(await error(bookingBody('no-such-option', day(9), 'VTR-E1', reserved.body.reference))).toBe('TGDS0012');
    expect(await error(bookingBody(p.optionId, day(9), 'VTR-E1', 'BK-NOTHERE'))).toBe('TGDS0026');
    expect(await error(bookingBody(p.optionId, day(10), 'VTR-E1', reserved.body.reference))).toBe('TGDS0023');
    expect(await error(bookingBody(p.optionId, day(9), 'VTR-E1', reserved.body.reference, ['Adult']))).toBe('TGDS0023');

    await sql`UPDATE bookings SET hold_expires_at = ${addSeconds(unixNow(), -1)} WHERE reference = ${reserved.body.reference}`.execute(t.db.kysely);
    const lapsed = await viator('booking', bookingBody(p.optionId, day(9), 'VTR-E1', reserved.body.reference));
    expect(lapsed.body.data).toMatchObject({
      RequestStatus: { Status: 'SUCCESS' },
      TransactionStatus: { Status: 'REJECTED', RejectionReason: 'OTHER', RejectionReasonDetails: expect.stringContaining('expired') },
    });
    expect(await partnerSeats(t, op, p.activityId, day(9))).toBe(4);
  });

  it('books without a hold when Viator sends none, and amends date, time and travellers as the one amendment does', async () => {
    const p = await mappedActivity(t, op, 4, 11);
    await admin(t, op, 'POST', `/api/v2/admin/activities/${p.activityId}/timeslots`, { Date: day(12), Time: '14:00', Capacity: 3 });
    const direct = await viator('booking', bookingBody(p.optionId, day(11), 'VTR-D1', undefined, ['Adult', 'Child']));
    const confirmation = direct.body.data.SupplierConfirmationNumber;
    expect(direct.body.data.TransactionStatus).toEqual({ Status: 'CONFIRMED' });
    expect(await partnerSeats(t, op, p.activityId, day(11))).toBe(2);
    const notOperating = await viator('booking', bookingBody(p.optionId, day(13), 'VTR-D2', undefined));
    expect(notOperating.body.data.TransactionStatus).toMatchObject({ Status: 'REJECTED', RejectionReason: 'NOT_OPERATING' });

    const moved = await viator(
      'booking-amendment',
      amendmentBody(p.optionId, day(12), 'VTR-D1', confirmation, ['Adult', 'Adult', 'Child'], '14:00:00'),
    );
    expect(moved.body).toMatchObject({
      responseType: 'BookingAmendmentResponse',
      data: { TransactionStatus: { Status: 'CONFIRMED' }, SupplierConfirmationNumber: confirmation },
    });
    expect(await partnerSeats(t, op, p.activityId, day(11))).toBe(4);
    const seatsThere = (
      await call(t.app, op.otaKey, 'GET', `/api/v2/ota/${op.partner}/availability/${p.activityId}/timeslots?Date=${day(12)}`)
    ).json().data;
    expect(seatsThere).toEqual([expect.objectContaining({ Time: '14:00', Available: 0 })]);
    const booking = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${confirmation}`)).json().data;
    expect(booking).toMatchObject({ Date: day(12), Time: '14:00', Participants: 3 });

    const tooMany = await viator(
      'booking-amendment',
      amendmentBody(p.optionId, day(12), 'VTR-D1', confirmation, ['Adult', 'Adult', 'Adult', 'Adult'], '14:00:00'),
    );
    expect(tooMany.body.data.TransactionStatus).toMatchObject({
      Status: 'REJECTED',
      RejectionReason: 'OTHER',
      RejectionReasonDetails: expect.stringContaining('seats'),
    });
    const nowhere = await viator('booking-amendment', amendmentBody(p.optionId, day(14), 'VTR-D1', confirmation, ['Adult']));
    expect(nowhere.body.data.TransactionStatus).toMatchObject({ Status: 'REJECTED', RejectionReason: 'NOT_OPERATING' });
    const unknown = await viator('booking-amendment', amendmentBody(p.optionId, day(12), 'VTR-OTHER', confirmation, ['Adult']));
    expect(unknown.body.data.RequestStatus.Error.ErrorCode).toBe('TGDS0026');
    const noRedemption = await viator('redemption', redemptionBody('VTR-OTHER', confirmation, day(12)));
    expect(noRedemption.body.data.RequestStatus.Error.ErrorCode).toBe('TGDS0026');
  });
});

describe('tour list and special offers', () => {
  it('lists the mapped products with their option, country and destination; special offers are none', async () => {
    const list = await viator('tourlist', tourListBody());
    expect(list.body.data.RequestStatus).toEqual({ Status: 'SUCCESS' });
    expect(list.body.data.Tour).toContainEqual({
      SupplierProductCode: product.optionId,
      SupplierProductName: 'Harbour kayak tour',
      CountryCode: 'DE',
      DestinationCode: '',
      DestinationName: 'Berlin',
      TourDescription: expect.any(String),
      TourOption: [{ productOptionId: product.optionId, SupplierOptionCode: product.optionId, SupplierOptionName: 'Harbour kayak tour' }],
    });
    const offers = await viator('special-offers', { supplierId: SUPPLIER_ID, specialOfferIds: ['SPRING'] });
    expect(offers).toEqual({ status: 200, body: { specialOffers: [] } });
  });
});
