// Waitlist abuse (issue 11, finding 4): a place counts only once its address is confirmed through a page
// the e-mail links to (opening the page confirms nothing; its button does); the shop's answer is the same
// whether or not the address already waits (case-folded); unconfirmed places lapse and are never offered;
// nothing the guest typed reads as the operator's words; one address and one client can ask for little.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer, deliveryFor, nowSeconds, posBooking } from '../emails/fixtures.js';
import { offerFreedSeats } from '../../src/waitlists/offers.js';
import { runDueEmails } from '../../src/emails/worker.js';
import { fromAddress, openShop } from '../shop/fixtures.js';
import { confirmationEmails, linkOf, outbox, pressConfirm } from './fixtures.js';
import { addSeconds } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;
let activityId: string;
const date = dateFromToday(8);
let nextHour = 6;

interface Entry {
  ID: number;
  Status: string;
  Position: number | null;
  ConfirmedAt: string | null;
  Customer: { FirstName: string; Email: string };
}

/** A new timeslot, sold out by a point-of-sale booking. */
async function soldOut(Capacity = 1) {
  const Time = `${String(nextHour++).padStart(2, '0')}:00`;
  const slot = await createTimeslot(t, op.adminKey, activityId, { Date: date, Time, Capacity });
  const booking = await posBooking(t, op.adminKey, { ActivityID: activityId, Date: date, Time }, Capacity, customer('Pos', 'pos@example.com'));
  return { slot, booking, Time };
}

const join = (Time: string, who = customer(), ip = '127.0.0.1', Participants = 1) =>
  fromAddress(t.app, ip, 'POST', `/api/v2/shop/${op.operatorId}/waitlists`, {
    ActivityID: activityId,
    Date: date,
    Time,
    Participants,
    Customer: who,
  });

async function waitlist(timeslotId: number): Promise<Entry[]> {
  const response = await call(t.app, op.adminKey, 'GET', `/api/v2/admin/waitlists?TimeslotID=${timeslotId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

beforeAll(async () => {
  t = await createTestApp({ WAITLIST_MAX_PLACES_PER_CLIENT: '6', WAITLIST_CONFIRM_HOURS: '2' });
  op = await t.newOperator('Glacier Guides');
  await openShop(t, op.adminKey);
  activityId = (await createActivity(t, op.adminKey, { Name: 'Glacier Walk', UnitPrice: 3000 })).ActivityID;
});
afterAll(() => t.close());

describe('joining', () => {
  it('answers 202 the same way whether the address is new, unconfirmed, waiting or differs only in case', async () => {
    const { slot, Time } = await soldOut();
    const ann = customer('Ann', 'ann@example.com');
    const first = await join(Time, ann);
    expect(first.statusCode, first.body).toBe(202);
    const answer = first.json();
    expect(answer.data).toEqual({ ActivityID: activityId, Date: date, Time, Participants: 1, Message: expect.stringContaining('e-mail') });
    expect(JSON.stringify(answer)).not.toMatch(/"ID"|Position|Status|ann@/);

    const again = await join(Time, ann); // unconfirmed
    const [sent] = await confirmationEmails(t, op.adminKey, 'ann@example.com');
    expect((await pressConfirm(t, linkOf(sent!))).statusCode).toBe(303);
    const waiting = await join(Time, ann); // confirmed, waiting
    const shouting = await join(Time, { ...ann, Email: 'ANN@Example.COM' }); // the same address
    for (const response of [again, waiting, shouting]) {
      expect(response.statusCode).toBe(202);
      expect(response.json()).toEqual(answer);
    }
    expect(await confirmationEmails(t, op.adminKey, 'ann@example.com')).toHaveLength(1);
    expect((await waitlist(slot.ID)).map((e) => [e.Customer.Email, e.Status, e.Position])).toEqual([['ann@example.com', 'waiting', 1]]);
  });

  it('still refuses what does not depend on the address: room left (409), unknown timeslot (404), bad fields (422)', async () => {
    const Time = `${String(nextHour++).padStart(2, '0')}:00`;
    await createTimeslot(t, op.adminKey, activityId, { Date: date, Time, Capacity: 5 });
    problemOf(await join(Time), 409, 'conflict');
    problemOf(await join('23:59'), 404, 'not-found');
    const bad = problemOf(await join(Time, { ...customer(), Email: 'not-an-address' }), 422, 'validation');
    expect(bad.errors?.map((e) => e.field)).toEqual(['Customer.Email']);
  });
});

describe('the confirmation page', () => {
  it('shows the place and a button; opening it confirms nothing, pressing it confirms once and redirects to the page', async () => {
    const { slot, Time } = await soldOut();
    await join(Time, customer('Bea', 'bea@example.com'));
    const [email] = await confirmationEmails(t, op.adminKey, 'bea@example.com');
    const link = linkOf(email!);

    for (let i = 0; i < 3; i++) {
      const page = await call(t.app, undefined, 'GET', link); // a mail scanner, a preview, the guest
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.body).toContain(`<form method="post" action="${link}">`);
      expect(page.body).toContain('Confirm my place');
      expect(page.body).toContain('Glacier Walk');
      expect(page.body).not.toContain('<script');
    }
    expect((await waitlist(slot.ID))[0]).toMatchObject({ Status: 'pending', Position: null, ConfirmedAt: null });

    const pressed = await pressConfirm(t, link);
    expect(pressed.statusCode).toBe(303);
    expect(pressed.headers.location).toBe(link);
    expect((await waitlist(slot.ID))[0]).toMatchObject({ Status: 'waiting', Position: 1, ConfirmedAt: expect.any(String) });
    const confirmedAt = (await waitlist(slot.ID))[0]!.ConfirmedAt;
    expect((await pressConfirm(t, link)).statusCode).toBe(303); // again: nothing changes
    expect((await waitlist(slot.ID))[0]!.ConfirmedAt).toBe(confirmedAt);
    const after = await call(t.app, undefined, 'GET', link);
    expect(after.body).toContain('Your place on the waitlist is confirmed');
    expect(after.body).not.toContain('<form');
  });

  it('is a locked-down page: no cache, no sniffing, no referrer, nothing loaded from anywhere, not framed', async () => {
    const { Time } = await soldOut();
    await join(Time, customer('Cal', 'cal@example.com'));
    const page = await call(t.app, undefined, 'GET', linkOf((await confirmationEmails(t, op.adminKey, 'cal@example.com'))[0]!));
    expect(page.headers).toMatchObject({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' });
    expect(page.headers['content-security-policy']).toMatch(
      /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'$/,
    );
  });

  it("answers an unknown or malformed link with a 404 page, and escapes the operator's texts", async () => {
    for (const link of ['/waitlist/confirm/AAAAAAAAAAAAAAAAAAAAAA', '/waitlist/confirm/short', '/waitlist/confirm/%3Cscript%3E']) {
      const page = await call(t.app, undefined, 'GET', link);
      expect(page.statusCode).toBe(404);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.body).toContain('This link is not valid');
      expect((await pressConfirm(t, link)).statusCode).toBe(404);
    }
    const tricky = (await createActivity(t, op.adminKey, { Name: '<b>Ice & "Fire"</b>' })).ActivityID;
    await createTimeslot(t, op.adminKey, tricky, { Date: date, Time: '12:00', Capacity: 1 });
    await posBooking(t, op.adminKey, { ActivityID: tricky, Date: date, Time: '12:00' }, 1, customer('Pos', 'pos@example.com'));
    const joined = await fromAddress(t.app, '127.0.0.1', 'POST', `/api/v2/shop/${op.operatorId}/waitlists`, {
      ActivityID: tricky,
      Date: date,
      Time: '12:00',
      Participants: 1,
      Customer: customer('Dee', 'dee@example.com'),
    });
    expect(joined.statusCode).toBe(202);
    const page = await call(t.app, undefined, 'GET', linkOf((await confirmationEmails(t, op.adminKey, 'dee@example.com'))[0]!));
    expect(page.body).toContain('&lt;b&gt;Ice &amp; &quot;Fire&quot;&lt;/b&gt;');
    expect(page.body).not.toContain('<b>Ice');
  });
});

describe('unconfirmed places', () => {
  it('lapse: the link then says so, and the address may join again with a new link; they are never offered seats', async () => {
    const { slot, booking, Time } = await soldOut();
    await join(Time, customer('Eli', 'eli@example.com'));
    // Drive time past the confirmation window (WAITLIST_CONFIRM_HOURS=2 in this file).
    await t.db.kysely
      .updateTable('waitlist_entries')
      .set({ confirm_by: addSeconds(nowSeconds(), -1) })
      .where('timeslot_id', '=', slot.ID)
      .execute();
    const [first] = await confirmationEmails(t, op.adminKey, 'eli@example.com');
    const lapsed = await call(t.app, undefined, 'GET', linkOf(first!));
    expect(lapsed.statusCode).toBe(410);
    expect(lapsed.body).toContain('This link has expired');
    expect((await pressConfirm(t, linkOf(first!))).statusCode).toBe(410);
    expect((await waitlist(slot.ID))[0]!.Status).toBe('lapsed');

    expect((await join(Time, customer('Eli', 'eli@example.com'))).statusCode).toBe(202);
    const emails = await confirmationEmails(t, op.adminKey, 'eli@example.com');
    expect(emails).toHaveLength(2);
    expect(linkOf(emails[0]!)).not.toBe(linkOf(first!));
    expect((await waitlist(slot.ID)).map((e) => e.Status)).toEqual(['lapsed', 'pending']);

    // Seats free up: nobody has confirmed, so nobody is offered them.
    await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${booking.BookingReference}/cancel`);
    expect(await offerFreedSeats(t.db, t.app.config, nowSeconds())).toBe(0);
    expect((await waitlist(slot.ID)).map((e) => e.Status)).toEqual(['lapsed', 'pending']);
  });
});

describe("the operator's words", () => {
  it('never greet by the name a stranger typed, nor put it in a subject: confirmation and offer e-mails', async () => {
    const { booking, Time } = await soldOut();
    const lure = 'Your account is suspended, log in at https://evil.example/login';
    await join(Time, { ...customer('Eve', 'victim@example.com'), FirstName: lure, LastName: 'Click https://evil.example' });
    const [confirmation] = await confirmationEmails(t, op.adminKey, 'victim@example.com');
    expect(confirmation!.Subject).toBe(`Confirm your waitlist place: Glacier Walk on ${date} at ${Time}`);
    expect(confirmation!.Body.startsWith('Hello,\n')).toBe(true);
    expect(confirmation!.Body).not.toMatch(/evil|suspended/);

    expect((await pressConfirm(t, linkOf(confirmation!))).statusCode).toBe(303);
    await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${booking.BookingReference}/cancel`);
    expect(await offerFreedSeats(t.db, t.app.config, nowSeconds())).toBe(1);
    const offer = (await outbox(t, op.adminKey)).find((email) => email.Kind === 'waitlist' && email.To === 'victim@example.com')!;
    expect(offer.Body.startsWith('Hello,\n')).toBe(true);
    expect(`${offer.Subject}\n${offer.Body}`).not.toMatch(/evil|suspended/);
  });

  it("the confirmation e-mail is sent in the operator's name and metered as nothing", async () => {
    const { Time } = await soldOut();
    await join(Time, customer('Fay', 'fay@example.com'), '192.0.2.10');
    const before = await t.db.kysely.selectFrom('usage_entries').select('id').where('operator_id', '=', op.operatorId).execute();
    const report = await runDueEmails(t.db, deliveryFor(t));
    expect(report.sent).toBeGreaterThan(0);
    const after = await t.db.kysely.selectFrom('usage_entries').select(['meter', 'extra_info']).where('operator_id', '=', op.operatorId).execute();
    // Only offers are metered (waitlist-notified); confirmation links are not. (The bookings that sold the
    // timeslot out were confirmed to their guests by the starter workflow: workflow-email-sent, not this.)
    expect(
      after
        .slice(before.length)
        .filter((entry) => entry.meter !== 'workflow-email-sent')
        .every((entry) => entry.meter === 'waitlist-notified'),
    ).toBe(true);
    const [email] = await confirmationEmails(t, op.adminKey, 'fay@example.com');
    const row = await t.db.kysely.selectFrom('emails').select(['status', 'meter']).where('id', '=', email!.ID).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'sent', meter: null });
  });
});

describe('bounds', () => {
  it('one address gets at most 3 unconfirmed links at once; beyond, the same 202 and no e-mail', async () => {
    const slots = [await soldOut(), await soldOut(), await soldOut(), await soldOut()];
    const victim = customer('Gus', 'gus@example.com');
    for (const [i, slot] of slots.entries()) {
      const response = await join(slot.Time, victim, `198.51.100.${i + 1}`); // from four addresses
      expect(response.statusCode).toBe(202);
    }
    expect(await confirmationEmails(t, op.adminKey, 'gus@example.com')).toHaveLength(3);
    expect(await waitlist(slots[3]!.slot.ID)).toEqual([]);
  });

  it('one client address holds at most WAITLIST_MAX_PLACES_PER_CLIENT places in a shop (429, whatever the addresses)', async () => {
    const ip = '203.0.113.77';
    const slots = [];
    for (let i = 0; i < 7; i++) slots.push(await soldOut());
    for (let i = 0; i < 6; i++) expect((await join(slots[i]!.Time, customer('Hoarder', `h${i}@example.com`), ip)).statusCode).toBe(202);
    const refused = await join(slots[6]!.Time, customer('Hoarder', 'h6@example.com'), ip);
    problemOf(refused, 429, 'quota-exceeded');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await join(slots[6]!.Time, customer('Ida', 'ida@example.com'), '203.0.113.78')).statusCode).toBe(202); // another client
  });
});
