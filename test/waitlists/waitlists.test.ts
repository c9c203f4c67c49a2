// Waitlists: join a sold-out timeslot (and confirm the address: opt-in.test.ts), and when seats free up
// (a cancellation, a lapsed hold, more capacity) the first confirmed party that fits gets the seats held
// and one e-mail; its sending writes exactly one waitlist-notified entry with WaitlistID and MultiBookingID.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday, getTimeslot } from '../availability/fixtures.js';
import { customer, deliveryFor, meterEntries, nowSeconds, posBooking } from '../emails/fixtures.js';
import { startSmtp, type TestSmtp } from '../emails/smtp.js';
import { offerFreedSeats } from '../../src/waitlists/offers.js';
import { runDueEmails, type Delivery } from '../../src/emails/worker.js';
import { openShop } from '../shop/fixtures.js';
import { joinConfirmed } from './fixtures.js';
import { addSeconds } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;
let smtp: TestSmtp;
let delivery: Delivery;
let activityId: string;
const date = dateFromToday(9);

interface Entry {
  ID: number;
  Status: string;
  Position: number | null;
  Participants: number;
  MultiBookingID: number | null;
  NotifiedAt: string | null;
  OfferExpiresAt: string | null;
  Customer: { Email: string };
}

const join = (Time: string, Participants: number, who = customer()) =>
  call(t.app, undefined, 'POST', `/api/v2/shop/${op.operatorId}/waitlists`, {
    ActivityID: activityId,
    Date: date,
    Time,
    Participants,
    Customer: who,
  });
/** Joins and confirms the address (the place then counts), and delivers the confirmation e-mail. */
const joined = async (Time: string, Participants: number, who = customer()) => {
  const ID = await joinConfirmed(t, op.adminKey, () => join(Time, Participants, who), who.Email);
  await runDueEmails(t.db, delivery);
  return { ID };
};

async function waitlist(timeslotId: number): Promise<Entry[]> {
  const response = await call(t.app, op.adminKey, 'GET', `/api/v2/admin/waitlists?TimeslotID=${timeslotId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

async function soldOutSlot(Time: string, Capacity: number) {
  const slot = await createTimeslot(t, op.adminKey, activityId, { Date: date, Time, Capacity });
  const booking = await posBooking(t, op.adminKey, { ActivityID: activityId, Date: date, Time }, Capacity, customer('Pos', 'pos@example.com'));
  return { slot, booking };
}

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ SMTP_URL: smtp.url, WAITLIST_CLAIM_MINUTES: '30' });
  op = await t.newOperator();
  await openShop(t, op.adminKey);
  delivery = deliveryFor(t);
  activityId = (await createActivity(t, op.adminKey, { Name: 'Glacier Walk', UnitPrice: 3000 })).ActivityID;
});
afterAll(async () => {
  delivery.mailer.close();
  await t.close();
  await smtp.close();
});

describe('joining', () => {
  it('takes a party that does not fit, once per e-mail address, and lists it for the operator in join order', async () => {
    const { slot } = await soldOutSlot('09:00', 2);
    const first = await joined('09:00', 2, customer('Ann', 'ann@example.com'));
    expect((await waitlist(slot.ID))[0]).toMatchObject({
      ID: first.ID,
      Status: 'waiting',
      Position: 1,
      TimeslotID: slot.ID,
      ActivityID: activityId,
      Date: date,
      Time: '09:00',
    });
    await joined('09:00', 1, customer('Ben', 'ben@example.com'));
    expect((await join('09:00', 1, customer('Ann', 'ann@example.com'))).statusCode).toBe(202); // already waiting: told nothing, nothing changes
    const list = await waitlist(slot.ID);
    expect(list.map((e) => [e.Customer.Email, e.Status, e.Position])).toEqual([
      ['ann@example.com', 'waiting', 1],
      ['ben@example.com', 'waiting', 2],
    ]);
  });

  it('refuses a timeslot with room (409: book instead), unknown timeslots (404) and bad fields (422)', async () => {
    await createTimeslot(t, op.adminKey, activityId, { Date: date, Time: '11:00', Capacity: 5 });
    problemOf(await join('11:00', 2), 409, 'conflict');
    problemOf(await join('23:00', 2), 404, 'not-found');
    const bad = problemOf(
      await call(t.app, undefined, 'POST', `/api/v2/shop/${op.operatorId}/waitlists`, {
        ActivityID: activityId,
        Date: date,
        Time: '11:00',
        Participants: 0,
      }),
      422,
      'validation',
    );
    expect(bad.errors?.map((e) => e.field)).toEqual(expect.arrayContaining(['Participants', 'Customer']));
    problemOf(await call(t.app, op.adminKey, 'GET', '/api/v2/admin/waitlists?TimeslotID=999999'), 404, 'not-found');
    problemOf(await call(t.app, op.adminKey, 'GET', '/api/v2/admin/waitlists'), 422, 'validation');
  });
});

describe('offers when seats free up', () => {
  it('a cancellation: the first waiter that fits gets the hold and one e-mail; one waitlist-notified entry', async () => {
    const { slot, booking } = await soldOutSlot('13:00', 2);
    const ann = await joined('13:00', 2, customer('Ann', 'ann@example.com'));
    const ben = await joined('13:00', 1, customer('Ben', 'ben@example.com'));
    expect(await offerFreedSeats(t.db, t.app.config, nowSeconds())).toBe(0); // still full: nothing to offer

    expect((await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${booking.BookingReference}/cancel`)).statusCode).toBe(200);
    const partnerSeats = async () => {
      const answer = await call(t.app, op.otaKey, 'GET', `/api/v2/ota/${op.partner}/availability/${activityId}/timeslots?Date=${date}`);
      return (answer.json().data as { Time: string; Available: number }[]).find((s) => s.Time === '13:00')!.Available;
    };
    expect(await partnerSeats()).toBe(2); // and now cached for partners
    expect(await offerFreedSeats(t.db, t.app.config, nowSeconds())).toBe(1);
    expect(await partnerSeats()).toBe(0); // the worker's hold is visible to partners at once, cache or not
    const [offered, waiting] = await waitlist(slot.ID);
    expect(offered).toMatchObject({ ID: ann.ID, Status: 'offered', Position: null, NotifiedAt: null });
    expect(offered!.MultiBookingID).toEqual(expect.any(Number));
    expect(Date.parse(offered!.OfferExpiresAt!) - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(waiting).toMatchObject({ ID: ben.ID, Status: 'waiting', Position: 1 }); // 1 seat would not do for Ann's 2; Ben waits on
    expect((await getTimeslot(t, op.adminKey, slot.ID)).Booked).toBe(2); // held for Ann

    const before = smtp.messages.length;
    expect(await runDueEmails(t.db, delivery)).toMatchObject({ sent: 1 });
    expect(await runDueEmails(t.db, delivery)).toMatchObject({ sent: 0 });
    const mails = smtp.messages.slice(before).filter((m) => m.subject.startsWith('Seats are free'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toEqual(['ann@example.com']);
    expect(mails[0]!.subject).toBe(`Seats are free: Glacier Walk on ${date} at 13:00`);
    const entries = (await meterEntries(t.db, op.operatorId, 'waitlist-notified')).filter((e) => JSON.parse(e.extra_info!).WaitlistID === ann.ID);
    expect(entries.map((e) => JSON.parse(e.extra_info!))).toEqual([{ WaitlistID: ann.ID, MultiBookingID: offered!.MultiBookingID }]);
    expect((await waitlist(slot.ID))[0]!.NotifiedAt).not.toBeNull();

    // Ann claims: the e-mail links the claim page of the basket holding her seats (a page, not the API);
    // paying that basket completes the order.
    const token = /http:\/\/slotbook\.test\/book\/[a-z0-9-]+\/basket\/([A-Za-z0-9_-]{22})\n/.exec(mails[0]!.text)![1];
    const link = `/api/v2/shop/${op.operatorId}/baskets/${token}`;
    const basket = (await call(t.app, undefined, 'GET', link)).json().data;
    expect(basket).toMatchObject({ Status: 'open', Total: 6000, Items: [{ Status: 'on_hold', Participants: 2, Time: '13:00' }] });
    const paid = await call(t.app, undefined, 'POST', `${link}/checkout`, { Payment: { Provider: 'test', CardNumber: '4242424242424242' } });
    expect(paid.statusCode, paid.body).toBe(200);
    expect((await waitlist(slot.ID))[0]!.Status).toBe('claimed');
    const orders = (await meterEntries(t.db, op.operatorId, 'order-completed')).map((e) => JSON.parse(e.extra_info!));
    expect(orders).toContainEqual({ BasketID: offered!.MultiBookingID });
  });

  it('a lapsed offer passes the seats to the next waiter; the first is expired', async () => {
    const { slot, booking } = await soldOutSlot('15:00', 1);
    const cleo = await joined('15:00', 1, customer('Cleo', 'cleo@example.com'));
    const dan = await joined('15:00', 1, customer('Dan', 'dan@example.com'));
    await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${booking.BookingReference}/cancel`);
    const now = nowSeconds();
    expect(await offerFreedSeats(t.db, t.app.config, now)).toBe(1);
    await runDueEmails(t.db, delivery, now);

    // Drive time past Cleo's 30-minute claim window: nobody wrote since, yet the worker finds the lapsed hold.
    const later = addSeconds(now, 31 * 60);
    expect(await offerFreedSeats(t.db, t.app.config, later)).toBe(1);
    const list = await waitlist(slot.ID);
    expect(list.map((e) => [e.ID, e.Status])).toEqual([
      [cleo.ID, 'expired'],
      [dan.ID, 'offered'],
    ]);
    const before = smtp.messages.length;
    await runDueEmails(t.db, delivery, later);
    expect(
      smtp.messages
        .slice(before)
        .filter((m) => m.subject.startsWith('Seats are free'))
        .map((m) => m.to[0]),
    ).toEqual(['dan@example.com']);
    const notified = (await meterEntries(t.db, op.operatorId, 'waitlist-notified')).map((e) => JSON.parse(e.extra_info!).WaitlistID);
    expect(notified.filter((id) => id === cleo.ID || id === dan.ID)).toEqual([cleo.ID, dan.ID]);
  });

  it('more capacity offers the new seats; the operator can remove a waiting customer', async () => {
    const { slot } = await soldOutSlot('17:00', 1);
    const eve = await joined('17:00', 1, customer('Eve', 'eve@example.com'));
    const fay = await joined('17:00', 1, customer('Fay', 'fay@example.com'));
    const removed = await call(t.app, op.adminKey, 'POST', `/api/v2/admin/waitlists/${fay.ID}/remove`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().data.Status).toBe('removed');
    expect((await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/timeslots/${slot.ID}`, { Capacity: 3 })).statusCode).toBe(200);
    expect(await offerFreedSeats(t.db, t.app.config, nowSeconds())).toBe(1);
    expect((await waitlist(slot.ID)).map((e) => [e.ID, e.Status])).toEqual([
      [eve.ID, 'offered'],
      [fay.ID, 'removed'],
    ]);
    expect((await getTimeslot(t, op.adminKey, slot.ID)).Booked).toBe(2);
  });
});
