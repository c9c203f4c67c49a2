// The booking pages' endpoints over HTTP on a real database (both dialects): the storefront answer with
// the profile, the month calendar, a guest's own booking through their link's token and its cancellation
// rules, the activity's guest-cancel setting, the pages' shell, and the links in e-mails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { addDays, createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer, nowSeconds, posBooking } from '../emails/fixtures.js';
import { GOOD_CARD, openShop } from '../shop/fixtures.js';
import { joinConfirmed, outbox } from '../waitlists/fixtures.js';
import { manageToken } from '../../src/storefront/manage.js';
import { pickLocale } from '../../src/storefront/page.js';
import { runDueEmails } from '../../src/emails/worker.js';
import { offerFreedSeats } from '../../src/waitlists/offers.js';
import type { OutgoingMessage } from '../../src/emails/mailer.js';
import { ensureDashboardBuilt } from '../browser/browser.js';
import { redactUrl } from '../../src/http/log-redaction.js';

describe('booking pages: endpoints', () => {
  let t: TestApp;
  let op: TestOperator;
  let other: TestOperator;
  let activity: string;
  const day = dateFromToday(10);

  beforeAll(async () => {
    ensureDashboardBuilt();
    t = await createTestApp();
    op = await t.newOperator('Spree <Adventures>');
    other = await t.newOperator('Other Tours');
    await openShop(t, op.adminKey);
    await openShop(t, other.adminKey);
    activity = (await createActivity(t, op.adminKey, { Name: 'Kayak', UnitPrice: 4500, GuestCancelHours: 24 })).ActivityID;
    await createTimeslot(t, op.adminKey, activity, { Date: day, Time: '10:00', Capacity: 4 });
    await createTimeslot(t, op.adminKey, activity, { Date: addDays(day, 1), Time: '10:00', Capacity: 1 });
    await posBooking(t, op.adminKey, { ActivityID: activity, Date: addDays(day, 1), Time: '10:00' }, 1);
    await createActivity(t, other.adminKey, { Name: 'Not ours' });
  }, 240_000);

  afterAll(async () => t?.close());

  const shop = (path: string, operatorId = op.operatorId) => `/api/v2/shop/${operatorId}${path}`;

  describe('GET /storefront', () => {
    it('answers the profile and the activities with price from, next free date and the cancel rule', async () => {
      const response = await call(t.app, undefined, 'GET', shop('/storefront'));
      expect(response.statusCode, response.body).toBe(200);
      const { Profile, Activities } = response.json().data;
      expect(Profile).toEqual({
        Name: 'Spree <Adventures>',
        Slug: 'spree-adventures',
        BrandColour: null,
        LogoUrl: null,
        TermsUrl: null,
        PrivacyUrl: null,
      });
      expect(Activities).toHaveLength(1);
      expect(Activities[0]).toMatchObject({ ActivityID: activity, PriceFrom: 4500, NextAvailableDate: day, GuestCancellation: { HoursBefore: 24 } });
    });

    it('a closed or unknown shop is 404; a malformed Locale is 422', async () => {
      problemOf(await call(t.app, undefined, 'GET', shop('/storefront', 999_999)), 404, 'not-found');
      problemOf(await call(t.app, undefined, 'GET', shop('/storefront?Locale=!!')), 422, 'validation');
      await call(t.app, other.adminKey, 'PATCH', '/api/v2/admin/shop', { Open: false });
      problemOf(await call(t.app, undefined, 'GET', shop('/storefront', other.operatorId)), 404, 'not-found');
      await openShop(t, other.adminKey);
    });

    it('prices "from" the lowest price a guest pays: a free infant ticket is left out, unless every ticket is free', async () => {
      const paid = (await createActivity(t, other.adminKey, { Name: 'Family cruise', UnitPrice: 1900 })).ActivityID;
      const infant = await call(t.app, other.adminKey, 'POST', `/api/v2/admin/activities/${paid}/ticket-types`, {
        Type: 'infant',
        Name: 'Infant',
        Price: 0,
        TakesSeat: false,
        Requires: 'adult',
      });
      expect(infant.statusCode, infant.body).toBe(201);
      const free = (await createActivity(t, other.adminKey, { Name: 'Free walk', UnitPrice: 0 })).ActivityID;
      const listed = (await call(t.app, undefined, 'GET', shop('/storefront', other.operatorId))).json().data.Activities;
      const priceOf = (id: string) => listed.find((a: { ActivityID: string }) => a.ActivityID === id).PriceFrom;
      expect([priceOf(paid), priceOf(free)]).toEqual([1900, 0]);
    });
  });

  describe('GET /activities/{ActivityID}/calendar', () => {
    it('lists the days with timeslots: with room, or sold out', async () => {
      const month = day.slice(0, 7);
      const response = await call(t.app, undefined, 'GET', shop(`/activities/${activity}/calendar?Month=${month}`));
      expect(response.statusCode, response.body).toBe(200);
      const days = response.json().data as { Date: string }[];
      expect(days.find((d) => d.Date === day)).toEqual({ Date: day, Timeslots: 1, Available: 4, SoldOut: false });
      if (addDays(day, 1).startsWith(month))
        expect(days.find((d) => d.Date === addDays(day, 1))).toEqual({ Date: addDays(day, 1), Timeslots: 1, Available: 0, SoldOut: true });
    });

    it("422 for a malformed month; 404 for another operator's or an unknown activity", async () => {
      problemOf(await call(t.app, undefined, 'GET', shop(`/activities/${activity}/calendar?Month=2026-13`)), 422, 'validation');
      problemOf(await call(t.app, undefined, 'GET', shop(`/activities/${activity}/calendar`)), 422, 'validation');
      problemOf(await call(t.app, undefined, 'GET', shop(`/activities/${activity}/calendar?Month=2026-01`, other.operatorId)), 404, 'not-found');
      problemOf(await call(t.app, undefined, 'GET', shop('/activities/s_unknown123/calendar?Month=2026-01')), 404, 'not-found');
    });
  });

  describe("a guest's own booking (manage token)", () => {
    const tokenOf = (reference: string, operatorId = op.operatorId) => manageToken(t.app.instanceKeys, operatorId, reference);

    it('shows the booking with its cancel deadline; an altered or foreign token is 404, a malformed one 400', async () => {
      const { BookingReference } = await posBooking(t, op.adminKey, { ActivityID: activity, Date: day, Time: '10:00' }, 1);
      const response = await call(t.app, undefined, 'GET', shop(`/bookings/${tokenOf(BookingReference)}`));
      expect(response.statusCode, response.body).toBe(200);
      const startsAt = Date.parse(response.json().data.StartsAt);
      // A desk booking: nothing was paid online, so nothing would be refunded (null), whatever the rule says.
      expect(response.json().data).toMatchObject({
        BookingReference,
        Status: 'confirmed',
        Cancellation: { Allowed: true, Refusal: null, RefundPercent: 100, Refund: null },
      });
      expect(Date.parse(response.json().data.Cancellation.Until)).toBe(startsAt - 24 * 3600_000);
      // Personal data stays minimal: no e-mail address or phone number.
      expect(response.json().data.Customer).toEqual({ FirstName: 'Ada', LastName: 'Lovelace' });

      const token = tokenOf(BookingReference);
      const altered = token.slice(0, -1) + (token.endsWith('0') ? '1' : '0');
      problemOf(await call(t.app, undefined, 'GET', shop(`/bookings/${altered}`)), 404, 'not-found');
      // The same booking's token made for another operator, or this token on another shop, names nothing.
      problemOf(await call(t.app, undefined, 'GET', shop(`/bookings/${tokenOf(BookingReference, other.operatorId)}`)), 404, 'not-found');
      problemOf(await call(t.app, undefined, 'GET', shop(`/bookings/${token}`, other.operatorId)), 404, 'not-found');
      problemOf(await call(t.app, undefined, 'GET', shop(`/bookings/${BookingReference}`)), 400, 'bad-request');
    });

    it('answers the QR code staff scan at check-in for a valid token only', async () => {
      const { BookingReference } = await posBooking(t, op.adminKey, { ActivityID: activity, Date: day, Time: '10:00' }, 1);
      const qr = await call(t.app, undefined, 'GET', shop(`/bookings/${tokenOf(BookingReference)}/qr.svg`));
      expect(qr.statusCode, qr.body).toBe(200);
      expect(qr.headers['content-type']).toContain('image/svg+xml');
      expect(qr.headers['cache-control']).toBe('no-store');
      expect(qr.body).toMatch(/^<svg[\s\S]*<\/svg>$/);
      // The same code the staff's booking page shows (the reference is all it encodes).
      expect(qr.body).toBe((await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${BookingReference}/qr.svg`)).body);
      const token = tokenOf(BookingReference);
      const altered = token.slice(0, -1) + (token.endsWith('0') ? '1' : '0');
      problemOf(await call(t.app, undefined, 'GET', shop(`/bookings/${altered}/qr.svg`)), 404, 'not-found');
      problemOf(await call(t.app, undefined, 'GET', shop(`/bookings/${token}/qr.svg`, other.operatorId)), 404, 'not-found');
      // Its seat goes back for the tests after this one.
      expect((await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${BookingReference}/cancel`)).statusCode).toBe(200);
    });

    it('cancels through the bookings domain: seats back, audited as the guest; again is 409', async () => {
      const { BookingReference } = await posBooking(t, op.adminKey, { ActivityID: activity, Date: day, Time: '10:00' }, 2);
      const available = async () =>
        (await call(t.app, undefined, 'GET', shop(`/activities/${activity}/timeslots?Date=${day}`))).json().data[0].Available;
      const before = await available();
      const response = await call(t.app, undefined, 'POST', shop(`/bookings/${tokenOf(BookingReference)}/cancel`));
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data).toMatchObject({ Status: 'cancelled', Cancellation: { Allowed: false, Refusal: 'not-confirmed' } });
      expect(await available()).toBe(before + 2);
      const entry = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/audit?Action=booking.cancel&ResourceID=${BookingReference}`)).json()
        .data[0];
      expect(entry.Actor).toEqual({ Type: 'anonymous', ID: null, Label: 'guest (manage link)' });
      problemOf(await call(t.app, undefined, 'POST', shop(`/bookings/${tokenOf(BookingReference)}/cancel`)), 409, 'conflict');
    });

    it('409 when the activity does not let guests cancel, or its hours before the start have begun; nothing changes', async () => {
      const { BookingReference } = await posBooking(t, op.adminKey, { ActivityID: activity, Date: day, Time: '10:00' }, 1);
      const status = async () => (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${BookingReference}`)).json().data.Status;
      await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${activity}`, { GuestCancelHours: null });
      const refused = await call(t.app, undefined, 'POST', shop(`/bookings/${tokenOf(BookingReference)}/cancel`));
      problemOf(refused, 409, 'conflict');
      expect(refused.json().detail).toMatch(/cannot be cancelled online/);
      expect((await call(t.app, undefined, 'GET', shop(`/bookings/${tokenOf(BookingReference)}`))).json().data.Cancellation).toEqual({
        Allowed: false,
        Until: null,
        Refusal: 'not-allowed',
        RefundPercent: null,
        Refund: null,
      });

      // Ten days ahead, but guests must cancel 20 days before.
      await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${activity}`, { GuestCancelHours: 480 });
      const late = await call(t.app, undefined, 'POST', shop(`/bookings/${tokenOf(BookingReference)}/cancel`));
      problemOf(late, 409, 'conflict');
      expect(late.json().detail).toMatch(/closed at/);
      expect(await status()).toBe('confirmed');
      await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${activity}`, { GuestCancelHours: 24 });
    });
  });

  it('the new endpoints are in the OpenAPI document with their schemas', async () => {
    const document = (await t.app.inject({ url: '/openapi.json' })).json();
    for (const path of [
      '/api/v2/shop/{OperatorID}/storefront',
      '/api/v2/shop/{OperatorID}/activities/{ActivityID}/calendar',
      '/api/v2/shop/{OperatorID}/bookings/{ManageToken}',
      '/api/v2/shop/{OperatorID}/bookings/{ManageToken}/cancel',
      '/api/v2/shop/{OperatorID}/bookings/{ManageToken}/qr.svg',
      '/api/v2/shop/{OperatorID}/baskets/{BasketToken}/manage-links',
    ]) {
      expect(document.paths[path], path).toBeDefined();
    }
    expect(Object.keys(document.paths).some((path: string) => path.startsWith('/book'))).toBe(false);
  });

  it("a paid basket answers its bookings' manage tokens; an open one is 409, another shop's 404", async () => {
    const basket = (await call(t.app, undefined, 'POST', shop('/baskets'), { Customer: customer('Ivy', 'ivy@example.com') })).json().data.BasketToken;
    const added = await call(t.app, undefined, 'POST', shop(`/baskets/${basket}/items`), {
      ActivityID: activity,
      Date: day,
      Time: '10:00',
      Participants: 1,
    });
    expect(added.statusCode, added.body).toBe(201);
    problemOf(await call(t.app, undefined, 'GET', shop(`/baskets/${basket}/manage-links`)), 409, 'conflict');
    expect((await call(t.app, undefined, 'POST', shop(`/baskets/${basket}/checkout`), { Payment: GOOD_CARD })).statusCode).toBe(200);
    const links = await call(t.app, undefined, 'GET', shop(`/baskets/${basket}/manage-links`));
    expect(links.statusCode, links.body).toBe(200);
    const [link] = links.json().data;
    expect(link.ManageToken).toBe(manageToken(t.app.instanceKeys, op.operatorId, link.BookingReference));
    expect((await call(t.app, undefined, 'GET', shop(`/bookings/${link.ManageToken}`))).json().data.BookingReference).toBe(link.BookingReference);
    problemOf(await call(t.app, undefined, 'GET', shop(`/baskets/${basket}/manage-links`, other.operatorId)), 404, 'not-found');
    problemOf(await call(t.app, undefined, 'GET', shop('/baskets/AAAAAAAAAAAAAAAAAAAAAA/manage-links')), 404, 'not-found');
  });

  describe('GuestCancelHours on the admin activity API', () => {
    it('is set on creation, changed and cleared by PATCH, and bounded', async () => {
      const created = await createActivity(t, op.adminKey, { Name: 'Canoe', GuestCancelHours: 48 });
      expect((created as unknown as { GuestCancelHours: number }).GuestCancelHours).toBe(48);
      const cleared = await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${created.ActivityID}`, { GuestCancelHours: null });
      expect(cleared.json().data.GuestCancelHours).toBeNull();
      const fresh = await createActivity(t, op.adminKey, { Name: 'Raft' });
      expect((fresh as unknown as { GuestCancelHours: number | null }).GuestCancelHours).toBeNull();
      const invalid = problemOf(
        await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${created.ActivityID}`, { GuestCancelHours: -1 }),
        422,
        'validation',
      );
      expect(invalid.errors?.[0]?.field).toBe('GuestCancelHours');
    });
  });

  describe('the pages', () => {
    it('/book/{slug} and /book/{OperatorID} answer the shell with the escaped name and a strict policy', async () => {
      for (const path of [
        '/book/spree-adventures',
        `/book/${op.operatorId}`,
        '/book/spree-adventures/basket/abc',
        '/book/spree-adventures/manage/x.y',
      ]) {
        const response = await t.app.inject({ method: 'GET', url: path });
        expect(response.statusCode, path).toBe(200);
        expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(response.headers['cache-control']).toBe('no-store');
        expect(response.headers['referrer-policy']).toBe('no-referrer');
        expect(response.headers['content-security-policy']).toContain("default-src 'none'; script-src 'self'");
        expect(response.headers['x-frame-options']).toBeUndefined();
        expect(response.body).toContain('Spree &lt;Adventures&gt;');
        expect(response.body).not.toContain('Spree <Adventures>');
        expect(response.body).toMatch(/<script type="module" src="\/assets\/booking-[\w-]+\.js">/);
      }
    });

    it("the server log never holds the tokens of the pages' addresses", () => {
      const token = manageToken(t.app.instanceKeys, op.operatorId, 'BK-ABCDEFGH');
      expect(redactUrl(`/book/spree-adventures/manage/${token}`, '/book/:shop/*')).toBe('/book/spree-adventures/manage/[redacted]');
      expect(redactUrl('/book/spree-adventures/basket/AAAAAAAAAAAAAAAAAAAAAA', '/book/:shop/*')).toBe('/book/spree-adventures/basket/[redacted]');
      expect(redactUrl(`/api/v2/shop/1/bookings/${token}`, '/api/v2/shop/:OperatorID/bookings/:ManageToken')).toBe(
        '/api/v2/shop/1/bookings/[redacted]',
      );
    });

    it("speaks the guest's language from Accept-Language, or ?lang=", async () => {
      const de = await t.app.inject({
        method: 'GET',
        url: '/book/spree-adventures',
        headers: { 'accept-language': 'fr;q=1, de-CH;q=0.8, en;q=0.5' },
      });
      expect(de.body).toContain('<html lang="de">');
      const en = await t.app.inject({ method: 'GET', url: '/book/spree-adventures?lang=en', headers: { 'accept-language': 'de' } });
      expect(en.body).toContain('<html lang="en">');
      expect(pickLocale(undefined, 'en-US,de;q=0.9')).toBe('en');
      expect(pickLocale(undefined, 'de;q=0.1, en;q=0')).toBe('de');
      expect(pickLocale(undefined, undefined)).toBe('en');
    });

    it('an unknown or closed shop is a 404 page', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/book/nobody-here' })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: '/book/999999' })).statusCode).toBe(404);
      await call(t.app, other.adminKey, 'PATCH', '/api/v2/admin/shop', { Open: false });
      expect((await t.app.inject({ method: 'GET', url: '/book/other-tours' })).statusCode).toBe(404);
      await openShop(t, other.adminKey);
      expect((await t.app.inject({ method: 'GET', url: '/book/other-tours' })).statusCode).toBe(200);
    });
  });

  describe('links in e-mails', () => {
    it('{{ManageBookingUrl}} and {{CompleteWaiverUrl}} are filled when sent (the outbox keeps the placeholders) and open the booking', async () => {
      const workflow = {
        Name: 'Confirmation',
        Event: 'booking-confirmed',
        Subject: 'Booked',
        Body: 'Manage: {{ManageBookingUrl}}\nWaiver: {{CompleteWaiverUrl}}',
      };
      const created = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/workflows', workflow);
      expect(created.statusCode, created.body).toBe(201);
      const { BookingReference } = await posBooking(
        t,
        op.adminKey,
        { ActivityID: activity, Date: day, Time: '10:00' },
        1,
        customer('Mia', 'mia@example.com'),
      );
      // This workflow's e-mail (the starter confirmation sends its own beside it).
      const queued = (await outbox(t, op.adminKey)).find((email) => email.To === 'mia@example.com' && email.Subject === 'Booked')!;
      expect(queued.Body).toBe('Manage: {{ManageBookingUrl}}\nWaiver: {{CompleteWaiverUrl}}');
      const sent: OutgoingMessage[] = [];
      const mailer = {
        transport: 'outbox' as const,
        send: async (message: OutgoingMessage) => (sent.push(message), { messageId: 'm' }),
        close: () => {},
      };
      await runDueEmails(t.db, { mailer, from: 'shop@example.com', workerId: 'w', keys: t.app.instanceKeys, publicUrl: 'https://book.example' });
      const [text, waiverLine] = sent.find((message) => message.to === 'mia@example.com' && message.subject === 'Booked')!.text.split('\n') as [
        string,
        string,
      ];
      const manageUrl = `https://book.example/book/spree-adventures/manage/${manageToken(t.app.instanceKeys, op.operatorId, BookingReference)}`;
      expect(text).toBe(`Manage: ${manageUrl}`);
      expect(waiverLine).toBe(`Waiver: ${manageUrl}/waiver`);
      const path = new URL(text.slice('Manage: '.length)).pathname;
      expect((await call(t.app, undefined, 'GET', shop(`/bookings/${path.split('/').pop()}`))).statusCode).toBe(200);
      await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/workflows/${created.json().data.ID}`, { Enabled: false });
    });

    it('a waitlist offer links to the claim page, whose basket pays', async () => {
      const waitlisted = (await createActivity(t, op.adminKey, { Name: 'Full tour' })).ActivityID;
      await createTimeslot(t, op.adminKey, waitlisted, { Date: day, Time: '12:00', Capacity: 1 });
      const { BookingReference } = await posBooking(t, op.adminKey, { ActivityID: waitlisted, Date: day, Time: '12:00' }, 1);
      const join = () =>
        call(t.app, undefined, 'POST', shop('/waitlists'), {
          ActivityID: waitlisted,
          Date: day,
          Time: '12:00',
          Participants: 1,
          Customer: customer('Ola', 'ola@example.com'),
        });
      await joinConfirmed(t, op.adminKey, join, 'ola@example.com');
      await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${BookingReference}/cancel`);
      await offerFreedSeats(t.db, t.app.config, nowSeconds());
      const offer = (await outbox(t, op.adminKey)).find((email) => email.To === 'ola@example.com' && email.Kind === 'waitlist')!;
      const match = /http:\/\/slotbook\.test\/book\/spree-adventures\/basket\/([A-Za-z0-9_-]{22})\n/.exec(offer.Body);
      expect(match, offer.Body).not.toBeNull();
      expect(offer.Body).not.toContain('/api/');
      const paid = await call(t.app, undefined, 'POST', shop(`/baskets/${match![1]}/checkout`), { Payment: GOOD_CARD });
      expect(paid.statusCode, paid.body).toBe(200);
    });
  });
});
