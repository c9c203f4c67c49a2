// The shop's terms and privacy pages (issue 26, item 5): the operator sets them (https only, audited);
// while either is set, the storefront names them and checkout refuses a guest who has not accepted them
// (422 naming AcceptTerms, nothing charged or confirmed); the acceptance (when, which addresses) is kept
// with each booking of the basket and shown on the admin booking. Without them, nothing is asked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer } from '../emails/fixtures.js';
import { GOOD_CARD, openShop } from './fixtures.js';

let t: TestApp;
let op: TestOperator;
let kayak: string;
const date = dateFromToday(9);
const shop = () => `/api/v2/shop/${op.operatorId}`;
const TERMS = 'https://kayaks.example.com/terms';
const PRIVACY = 'https://kayaks.example.com/privacy';

async function basketWithTwoItems(): Promise<{ token: string; references: string[] }> {
  const basket = await call(t.app, undefined, 'POST', `${shop()}/baskets`, { Customer: customer() });
  expect(basket.statusCode, basket.body).toBe(201);
  const token = basket.json().data.BasketToken;
  for (const Time of ['10:00', '14:00']) {
    const item = await call(t.app, undefined, 'POST', `${shop()}/baskets/${token}/items`, { ActivityID: kayak, Date: date, Time, Participants: 1 });
    expect(item.statusCode, item.body).toBe(201);
  }
  const read = (await call(t.app, undefined, 'GET', `${shop()}/baskets/${token}`)).json().data;
  return { token, references: read.Items.map((item: { BookingReference: string }) => item.BookingReference) };
}

const checkout = (token: string, body: object) => call(t.app, undefined, 'POST', `${shop()}/baskets/${token}/checkout`, body);
const adminBooking = async (reference: string) => (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${reference}`)).json().data;

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator('Terms Kayaks');
  await openShop(t, op.adminKey);
  kayak = (await createActivity(t, op.adminKey, { Name: 'Kayak', UnitPrice: 4500, Currency: 'EUR' })).ActivityID;
  await createTimeslot(t, op.adminKey, kayak, { Date: date, Time: '10:00', Capacity: 20 });
  await createTimeslot(t, op.adminKey, kayak, { Date: date, Time: '14:00', Capacity: 20 });
});
afterAll(() => t.close());

describe("the shop's terms", () => {
  it('asks nothing while the shop has no terms: the booking shows no acceptance', async () => {
    const { token, references } = await basketWithTwoItems();
    expect((await checkout(token, { Payment: GOOD_CARD })).statusCode).toBe(200);
    expect((await adminBooking(references[0]!)).TermsAcceptance).toBeNull();
  });

  it('takes https addresses only, and audits the change', async () => {
    problemOf(await call(t.app, op.adminKey, 'PATCH', '/api/v2/admin/settings', { TermsUrl: 'http://kayaks.example.com/terms' }), 422, 'validation');
    problemOf(await call(t.app, op.adminKey, 'PATCH', '/api/v2/admin/settings', { PrivacyUrl: 'javascript:alert(1)' }), 422, 'validation');
    const changed = await call(t.app, op.adminKey, 'PATCH', '/api/v2/admin/settings', { TermsUrl: TERMS, PrivacyUrl: PRIVACY });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data).toMatchObject({ TermsUrl: TERMS, PrivacyUrl: PRIVACY });
    const entry = (await call(t.app, op.adminKey, 'GET', '/api/v2/admin/audit?Action=settings.update&Limit=1')).json().data[0];
    expect(entry.After).toMatchObject({ TermsUrl: TERMS, PrivacyUrl: PRIVACY });
    const storefront = (await call(t.app, undefined, 'GET', `${shop()}/storefront`)).json().data;
    expect(storefront.Profile).toMatchObject({ TermsUrl: TERMS, PrivacyUrl: PRIVACY });
  });

  it('refuses a checkout without the acceptance, naming AcceptTerms: nothing is charged or confirmed', async () => {
    const { token, references } = await basketWithTwoItems();
    for (const body of [{ Payment: GOOD_CARD }, { Payment: GOOD_CARD, AcceptTerms: false }]) {
      const problem = problemOf(await checkout(token, body), 422, 'validation');
      expect(problem.errors).toEqual([{ field: 'AcceptTerms', message: expect.stringContaining('terms and privacy notice') }]);
    }
    const basket = (await call(t.app, undefined, 'GET', `${shop()}/baskets/${token}`)).json().data;
    expect(basket.Status).toBe('open');
    expect(basket.PaymentReference).toBeNull();
    expect((await adminBooking(references[0]!)).TermsAcceptance).toBeNull();
  });

  it('keeps the acceptance (when, which addresses) with each booking of the basket, shown on the admin booking', async () => {
    const { token, references } = await basketWithTwoItems();
    const before = Date.now();
    const paid = await checkout(token, { Payment: GOOD_CARD, AcceptTerms: true });
    expect(paid.statusCode, paid.body).toBe(200);
    for (const reference of references) {
      const booking = await adminBooking(reference);
      expect(booking.Status).toBe('confirmed');
      expect(booking.TermsAcceptance).toMatchObject({ TermsUrl: TERMS, PrivacyUrl: PRIVACY });
      expect(Date.parse(booking.TermsAcceptance.AcceptedAt)).toBeGreaterThanOrEqual(before - 1000);
    }
    // A second checkout of the paid basket (409) does not rewrite what was accepted.
    await call(t.app, op.adminKey, 'PATCH', '/api/v2/admin/settings', { PrivacyUrl: null });
    expect((await checkout(token, { Payment: GOOD_CARD, AcceptTerms: true })).statusCode).toBe(409);
    expect((await adminBooking(references[0]!)).TermsAcceptance.PrivacyUrl).toBe(PRIVACY);
  });

  it('asks for the terms alone once the privacy page is removed', async () => {
    const { token } = await basketWithTwoItems();
    const problem = problemOf(await checkout(token, { Payment: GOOD_CARD }), 422, 'validation');
    expect(problem.errors?.[0]?.message).toMatch(/shop's terms before paying/);
  });
});
