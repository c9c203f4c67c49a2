// A GetYourGuide traveller's e-mail goes through the one rule every channel shares (lib/email-address.ts):
// the partner API answers 422 for exactly the addresses GYG's book answers VALIDATION_FAILURE for, and a
// list of addresses never becomes the guest's address (the manage link would go to all of them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { berlin, bookBody, connect, customer, day, mappedActivity, reserveBody, type Gyg, type Product } from './fixtures.js';

let t: TestApp;
let op: TestOperator;
let gyg: Gyg;
let product: Product;
let counter = 0;

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  gyg = await connect(t, op);
  product = await mappedActivity(t, op, 60);
});
afterAll(() => t.close());

/** Reserves 2 adults and books them with `email` as the lead traveller's: GYG's answer and the reservation's reference. */
async function gygBooking(email: string | undefined) {
  const reference = `GYG-MAIL-${++counter}`;
  const dateTime = berlin(day(3));
  const reserved = await gyg('POST', 'reserve', 'reserve/', reserveBody(product.productId, dateTime, reference));
  const body = bookBody(product.productId, dateTime, reference, reserved.data.reservationReference);
  body.data.travelers = [{ ...body.data.travelers[0]!, email: email as string }];
  const answer = await gyg('POST', 'book', 'book/', body);
  return { answer, bookingReference: `BK-${String(reserved.data.reservationReference).slice(2)}` };
}

const partnerBooking = (email: string) =>
  call(t.app, op.otaKey, 'POST', '/api/v2/ota/viator/booking', {
    ActivityID: product.activityId,
    Date: day(3),
    Time: '10:00',
    Participants: 1,
    Customer: { ...customer, Email: email },
  });

describe("a GetYourGuide traveller's e-mail", () => {
  it('refuses a list of addresses with VALIDATION_FAILURE naming the field; the reservation is not booked', async () => {
    const { answer, bookingReference } = await gygBooking('a@x.example, b@y.example');
    expect(answer).toEqual({ errorCode: 'VALIDATION_FAILURE', errorMessage: expect.stringContaining('data.travelers[0].email') });
    const booking = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${bookingReference}`)).json().data;
    expect(booking.Status).toBe('on_hold');
    expect(booking.Customer.Email).toBe('');
  });

  it('follows exactly the rule of the partner API: what one refuses, so does the other', async () => {
    const candidates = [
      'a@x.example, b@y.example',
      'a@x.example;b@y.example',
      'Ada Lovelace <ada@example.com>',
      'ada@example',
      'ada@@example.com',
      'ada @example.com',
      `${'a'.repeat(250)}@x.io`,
      'ada.lovelace+gyg@example.co.uk',
    ];
    for (const email of candidates) {
      const partner = await partnerBooking(email);
      const { answer } = await gygBooking(email);
      const gygRefused = answer.errorCode === 'VALIDATION_FAILURE';
      expect([email, gygRefused], answer.errorMessage).toEqual([email, partner.statusCode === 422]);
      if (partner.statusCode === 422) expect(partner.json().errors).toEqual([{ field: 'Customer.Email', message: expect.any(String) }]);
      else expect([partner.statusCode, answer.data?.bookingReference !== undefined]).toEqual([201, true]);
    }
  });

  it('keeps a booking without an e-mail (nobody is written to), and trims a valid one', async () => {
    const none = await gygBooking(undefined);
    expect(none.answer.data).toBeDefined();
    const padded = await gygBooking('  ada@example.com ');
    expect(padded.answer.data).toBeDefined();
    const booking = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${padded.bookingReference}`)).json().data;
    expect(booking.Customer.Email).toBe('ada@example.com');
  });
});
