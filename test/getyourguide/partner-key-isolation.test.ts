// A partner-API key made for the marketplace name `getyourguide` and slotbook's own GetYourGuide
// connection are two channels: the key sees, cancels and hears only its own bookings, never those GYG
// made through /gyg, which carry GetYourGuide's own partner name (src/lib/marketplaces.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, LOOPBACK_NETWORKS, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { addEndpoint, deliveryDeps, flush, testClock } from '../webhooks/fixtures.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { berlin, bookBody, connect, customer, day, mappedActivity, reserveBody, type Gyg, type Product } from './fixtures.js';

let t: TestApp;
let op: TestOperator;
let gyg: Gyg;
let product: Product;
let keyOfSameName: string;
let receiver: Receiver;

beforeAll(async () => {
  // The key's webhook receiver listens on loopback, which a marketplace's endpoints reach only when allowed.
  t = await createTestApp({ WEBHOOK_ALLOWED_NETWORKS_FOR_PARTNERS: LOOPBACK_NETWORKS });
  op = await t.newOperator();
  gyg = await connect(t, op);
  product = await mappedActivity(t, op, 10);
  const created = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/keys', { Name: 'GYG partner API', Scopes: ['ota'], Partner: 'getyourguide' });
  expect(created.statusCode, created.body).toBe(201);
  keyOfSameName = created.json().data.Key;
  receiver = await startReceiver();
  receiver.secrets = [(await addEndpoint(t, keyOfSameName, { URL: receiver.url }, '/api/v2/ota/getyourguide')).Secret];
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

const asKey = (method: 'GET' | 'POST', path: string, body?: unknown) => call(t.app, keyOfSameName, method, `/api/v2/ota/getyourguide${path}`, body);

async function gygBooking(reference: string): Promise<string> {
  const dateTime = berlin(day(3));
  const reserved = await gyg('POST', 'reserve', 'reserve/', reserveBody(product.productId, dateTime, reference));
  const booked = await gyg('POST', 'book', 'book/', bookBody(product.productId, dateTime, reference, reserved.data.reservationReference));
  return booked.data.tickets[0].ticketCode as string;
}

describe('a key named like the GetYourGuide channel', () => {
  it("neither reads nor cancels GetYourGuide's bookings, which are GetYourGuide's own", async () => {
    const reference = await gygBooking('GYG-APART-1');
    problemOf(await asKey('GET', `/booking/${reference}`), 404, 'not-found');
    problemOf(await asKey('POST', `/booking/${reference}/cancel`), 404, 'not-found');
    const booking = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${reference}`)).json().data;
    expect(booking).toMatchObject({ Status: 'confirmed', Source: 'partner', Partner: 'GetYourGuide' });
  });

  it("hears none of GetYourGuide's bookings on its webhook endpoint (the traveller's name included), only its own", async () => {
    const gygReference = await gygBooking('GYG-APART-2');
    const own = await asKey('POST', '/booking', { ActivityID: product.activityId, Date: day(3), Time: '10:00', Participants: 1, Customer: customer });
    expect(own.statusCode, own.body).toBe(201);
    const clock = testClock();
    await flush(t, deliveryDeps(t), clock());
    const heard = receiver.received.map((r) => r.event.data?.BookingReference).filter(Boolean);
    expect(heard).toContain(own.json().data.BookingReference);
    expect(heard).not.toContain(gygReference);
    expect(receiver.received.map((r) => r.body).join('')).not.toContain('Smith');
  });

  it('keeps working for its own bookings, which GetYourGuide cannot touch', async () => {
    const made = await asKey('POST', '/booking', {
      ActivityID: product.activityId,
      Date: day(3),
      Time: '10:00',
      Participants: 1,
      Customer: customer,
    });
    expect(made.statusCode, made.body).toBe(201);
    const reference = made.json().data.BookingReference;
    expect((await asKey('GET', `/booking/${reference}`)).json().data).toMatchObject({ Status: 'confirmed', Partner: 'getyourguide' });
    const viaGyg = await gyg('POST', 'cancel-booking', 'cancel-booking/', {
      data: { bookingReference: reference, gygBookingReference: 'GYG-NOT-MINE', productId: product.productId },
    });
    expect(viaGyg.errorCode).toBe('INVALID_BOOKING');
    expect((await asKey('POST', `/booking/${reference}/cancel`)).statusCode).toBe(200);
  });

  it('cannot be made for the native name GetYourGuide itself', async () => {
    const refused = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/keys', { Name: 'x', Scopes: ['ota'], Partner: 'GetYourGuide' });
    expect(problemOf(refused, 422, 'validation').errors).toEqual([{ field: 'Partner', message: expect.stringMatching(/lower-case/) }]);
  });
});
