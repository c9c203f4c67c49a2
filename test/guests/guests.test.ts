// A guest's data on request (docs/privacy.md): the export finds everything held under the address (in any
// case) and nothing of another operator; the erasure refuses while a booking is still to come, anonymises
// bookings, waitlist places and e-mails, deletes answers and files, keeps payments, scrubs past webhook
// events, is audited and sent on as guest.erased; only staff with guests:manage may do either; the
// retention job erases guests inactive for GUEST_RETENTION_DAYS and keeps the others.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { GOOD_CARD } from '../shop/fixtures.js';
import { PNG, uploadAs, fileIdOf } from '../questions/files.js';
import { addUser, as, signIn } from '../staff/fixtures.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { addEndpoint, deliveryDeps, flush } from '../webhooks/fixtures.js';
import { eraseInactiveGuests } from '../../src/guests/retention.js';
import { addMillis, addSeconds, nowMillis, unixNow } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;
let receiver: Receiver;
let activityId: string;
let slotId: number;
let questions: { ID: number }[];
const DATE = dateFromToday(30);
const EMAIL = 'Ada.Lovelace@Example.com';
const customer = (Email = EMAIL) => ({ FirstName: 'Ada', LastName: 'Lovelace', Email, Phone: '+441234567890' });
const EXPORT = `/api/v2/admin/guests/export?Email=${encodeURIComponent('ada.lovelace@example.com')}`;

async function partnerBooking(
  key: string,
  partnerActivity: string,
  answers?: { QuestionID: number; Answer: string }[],
  Date = DATE,
): Promise<string> {
  const response = await call(t.app, key, 'POST', '/api/v2/ota/viator/booking', {
    ActivityID: partnerActivity,
    Date,
    Time: '10:00',
    Participants: 1,
    Customer: customer(),
    ...(answers && { WaiverAnswers: answers }),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.BookingReference;
}

/** A booking bought in the operator's test shop and paid with the test card: a payment to keep. */
async function shopBooking(): Promise<string> {
  expect((await call(t.app, op.adminKey, 'PATCH', '/api/v2/admin/shop', { Open: true, TestMode: true })).statusCode).toBe(200);
  const shop = `/api/v2/shop/${op.operatorId}`;
  const basket = (await call(t.app, undefined, 'POST', `${shop}/baskets`, { Customer: customer('ada.lovelace@example.com') })).json().data;
  const added = await call(t.app, undefined, 'POST', `${shop}/baskets/${basket.BasketToken}/items`, {
    ActivityID: activityId,
    Date: DATE,
    Time: '10:00',
    Participants: 1,
  });
  expect(added.statusCode, added.body).toBe(201);
  const paid = await call(t.app, undefined, 'POST', `${shop}/baskets/${basket.BasketToken}/checkout`, { Payment: GOOD_CARD });
  expect(paid.statusCode, paid.body).toBe(200);
  return paid.json().data.Items[0].BookingReference;
}

/** Moves the timeslot into the past: its bookings are over (what an erasure waits for). */
async function endTimeslot(id: number): Promise<void> {
  const past = addSeconds(unixNow(), -7 * 86_400);
  await sql`UPDATE timeslots SET starts_at = ${past}, ends_at = ${past + 3600}, bookable_until = ${past} WHERE id = ${id}`.execute(t.db.kysely);
}

let partnerRef: string;
let shopRef: string;
let otherRef: string;
let fileId: string;

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  other = await t.newOperator();
  receiver = await startReceiver();
  const endpoint = await addEndpoint(t, op.adminKey, { URL: receiver.url, EventTypes: ['booking.created', 'guest.erased'] });
  receiver.secrets = [endpoint.Secret];
  activityId = (await createActivity(t, op.adminKey, { MaxParticipantsPerBooking: 5 })).ActivityID;
  slotId = (await createTimeslot(t, op.adminKey, activityId, { Date: DATE, Time: '10:00', Capacity: 20 })).ID;
  questions = [];
  for (const body of [
    { Question: 'Any allergies?', Type: 'text', Required: true },
    { Question: 'Your certificate', Type: 'file', Required: true },
  ]) {
    const created = await call(t.app, op.adminKey, 'POST', `/api/v2/admin/activities/${activityId}/questions`, body);
    expect(created.statusCode, created.body).toBe(201);
    questions.push(created.json().data);
  }
  fileId = fileIdOf(await uploadAs(t, op.otaKey, PNG, 'image/png'));
  partnerRef = await partnerBooking(op.otaKey, activityId, [
    { QuestionID: questions[0]!.ID, Answer: 'peanuts' },
    { QuestionID: questions[1]!.ID, Answer: fileId },
  ]);
  shopRef = await shopBooking();
  // Another operator's guest with the same address.
  const theirActivity = (await createActivity(t, other.adminKey, {})).ActivityID;
  await createTimeslot(t, other.adminKey, theirActivity, { Date: DATE, Time: '10:00', Capacity: 5 });
  otherRef = await partnerBooking(other.otaKey, theirActivity);
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

describe('the export', () => {
  it("lists the guest's bookings, answers, files, e-mails and payments, and nothing of another operator", async () => {
    const response = await call(t.app, op.adminKey, 'GET', EXPORT);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-disposition']).toContain('attachment');
    const data = response.json().data;
    expect(data.Bookings.map((b: { Booking: { BookingReference: string } }) => b.Booking.BookingReference).sort()).toEqual(
      [partnerRef, shopRef].sort(),
    );
    expect(JSON.stringify(data)).not.toContain(otherRef);
    const partner = data.Bookings.find((b: { Booking: { BookingReference: string } }) => b.Booking.BookingReference === partnerRef);
    expect(partner.Booking.Customer).toMatchObject({ FirstName: 'Ada', Email: EMAIL });
    expect(partner.WaiverAnswers.map((a: { Answer: string }) => a.Answer)).toEqual(['peanuts', fileId]);
    expect(data.Uploads).toEqual([
      expect.objectContaining({ FileID: fileId, ContentType: 'image/png', BookingReference: partnerRef, Download: expect.stringContaining(fileId) }),
    ]);
    expect(data.Payments).toHaveLength(1);
    expect(data.Payments[0]).toMatchObject({ Provider: 'test', Status: 'succeeded', BookingReferences: [shopRef], Refunds: [] });
    // The starter workflows' confirmation e-mail of the shop booking.
    expect(data.Emails.length).toBeGreaterThan(0);
    expect(data.Emails.every((e: { To: string }) => e.To.toLowerCase() === 'ada.lovelace@example.com')).toBe(true);
    // Recorded, without the address.
    const entry = (await call(t.app, op.adminKey, 'GET', '/api/v2/admin/audit?Limit=1')).json().data[0];
    expect(entry).toMatchObject({ Action: 'guest.export', Resource: { Type: 'guest', ID: null } });
    expect(JSON.stringify(entry).toLowerCase()).not.toContain('ada.lovelace');
  });

  it('is 404 for an address nothing is held under, 422 naming Email for a bad one, 403 for the front desk', async () => {
    problemOf(await call(t.app, op.adminKey, 'GET', '/api/v2/admin/guests/export?Email=nobody%40example.com'), 404, 'not-found');
    const bad = problemOf(await call(t.app, op.adminKey, 'GET', '/api/v2/admin/guests/export?Email=not-an-address'), 422, 'validation');
    expect(bad.errors?.[0]?.field).toBe('Email');
    problemOf(await call(t.app, op.adminKey, 'POST', '/api/v2/admin/guests/erase', {}), 422, 'validation');
    const desk = await signIn(t, (await addUser(t, op.operatorId, 'front-desk')).email);
    problemOf(await as(t, desk, 'GET', EXPORT), 403, 'forbidden');
    problemOf(await as(t, desk, 'POST', '/api/v2/admin/guests/erase', { Email: EMAIL }), 403, 'forbidden');
    const manager = await signIn(t, (await addUser(t, op.operatorId, 'manager')).email);
    expect((await as(t, manager, 'GET', EXPORT)).statusCode).toBe(200);
  });
});

describe('the erasure', () => {
  it('is refused while a booking is still to come, naming it', async () => {
    const refused = problemOf(await call(t.app, op.adminKey, 'POST', '/api/v2/admin/guests/erase', { Email: EMAIL }), 409, 'conflict');
    expect(refused.detail).toContain(partnerRef);
    // Nothing was changed.
    expect((await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${partnerRef}`)).json().data.Customer.FirstName).toBe('Ada');
  });

  it('anonymises the guest, deletes answers and files, keeps payments, scrubs past events, audits, and tells webhooks', async () => {
    await endTimeslot(slotId);
    const response = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/guests/erase', { Email: 'ADA.LOVELACE@example.com' });
    expect(response.statusCode, response.body).toBe(200);
    const erasure = response.json().data;
    expect(erasure).toMatchObject({ Reason: 'request', UploadsDeleted: 1, AnswersDeleted: 2, PaymentsKept: 1 });
    expect([...erasure.BookingReferences].sort()).toEqual([partnerRef, shopRef].sort());
    expect(erasure.EmailsErased).toBeGreaterThan(0);

    for (const ref of [partnerRef, shopRef]) {
      const booking = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${ref}`)).json().data;
      expect(booking.Customer).toEqual({ FirstName: 'Erased', LastName: 'guest', Email: 'erased@erased.invalid', Phone: '' });
    }
    expect((await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${partnerRef}/waiver-answers`)).json().data).toEqual([]);
    const files = await sql<{ n: number }>`SELECT count(*) AS n FROM uploads WHERE public_id = ${fileId}`.execute(t.db.kysely);
    expect(Number(files.rows[0]!.n)).toBe(0);
    const payments = await sql<{
      n: number;
    }>`SELECT count(*) AS n FROM payments WHERE operator_id = ${op.operatorId} AND status = 'succeeded'`.execute(t.db.kysely);
    expect(Number(payments.rows[0]!.n)).toBe(1);
    const emails = await sql<{
      to_address: string;
      body: string;
      status: string;
    }>`SELECT to_address, body, status FROM emails WHERE operator_id = ${op.operatorId} AND kind <> 'staff'`.execute(t.db.kysely);
    expect(emails.rows.length).toBeGreaterThan(0);
    expect(emails.rows.every((e) => e.to_address === 'erased@erased.invalid' && e.body === '' && e.status !== 'queued')).toBe(true);
    // Nothing left under the address; asking again is 404.
    problemOf(await call(t.app, op.adminKey, 'GET', EXPORT), 404, 'not-found');
    problemOf(await call(t.app, op.adminKey, 'POST', '/api/v2/admin/guests/erase', { Email: EMAIL }), 404, 'not-found');

    // Audited as the key's, without the address.
    const entry = (await call(t.app, op.adminKey, 'GET', '/api/v2/admin/audit?Action=guest.erase')).json().data[0];
    expect(entry).toMatchObject({ Action: 'guest.erase', Resource: { Type: 'guest', ID: null } });
    expect(JSON.stringify(entry).toLowerCase()).not.toContain('lovelace');

    // Webhooks: guest.erased without the address; the stored booking.created events no longer show the guest.
    await flush(t, deliveryDeps(t));
    await receiver.waitFor(3);
    const [erased] = receiver.eventsOf('guest.erased');
    expect(erased!.data).toEqual(erasure);
    const stored = await sql<{ data: string }>`SELECT data FROM webhook_events WHERE operator_id = ${op.operatorId}`.execute(t.db.kysely);
    expect(stored.rows.length).toBeGreaterThanOrEqual(3);
    expect(stored.rows.map((row) => row.data.toLowerCase()).join('\n')).not.toContain('lovelace');
  });

  it("leaves another operator's guest with the same address untouched", async () => {
    const theirs = (await call(t.app, other.adminKey, 'GET', `/api/v2/admin/bookings/${otherRef}`)).json().data;
    expect(theirs.Customer).toMatchObject({ FirstName: 'Ada', LastName: 'Lovelace', Email: EMAIL });
    const exported = await call(t.app, other.adminKey, 'GET', EXPORT);
    expect(exported.statusCode).toBe(200);
    expect(exported.json().data.Bookings.map((b: { Booking: { BookingReference: string } }) => b.Booking.BookingReference)).toEqual([otherRef]);
    // And their key cannot erase the first operator's guests: a fresh guest of op stays.
    const next = await createTimeslot(t, op.adminKey, activityId, { Date: dateFromToday(31), Time: '10:00', Capacity: 5 });
    const ref = await partnerBooking(
      op.otaKey,
      activityId,
      [
        { QuestionID: questions[0]!.ID, Answer: 'none' },
        { QuestionID: questions[1]!.ID, Answer: fileIdOf(await uploadAs(t, op.otaKey, PNG, 'image/png')) },
      ],
      next.Date,
    );
    const otherTimeslot = await sql<{ timeslot_id: number }>`SELECT timeslot_id FROM bookings WHERE reference = ${otherRef}`.execute(t.db.kysely);
    await endTimeslot(otherTimeslot.rows[0]!.timeslot_id);
    expect((await call(t.app, other.adminKey, 'POST', '/api/v2/admin/guests/erase', { Email: EMAIL })).statusCode).toBe(200);
    expect((await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${ref}`)).json().data.Customer.FirstName).toBe('Ada');
  });
});

describe('GUEST_RETENTION_DAYS', () => {
  it('erases guests inactive for that long, and keeps one with a booking not yet that old', async () => {
    const third = await t.newOperator();
    const activity = (await createActivity(t, third.adminKey, {})).ActivityID;
    const soon = await createTimeslot(t, third.adminKey, activity, { Date: dateFromToday(20), Time: '10:00', Capacity: 5 });
    const later = await createTimeslot(t, third.adminKey, activity, { Date: dateFromToday(200), Time: '10:00', Capacity: 5 });
    const book = async (Email: string, Date: string) => {
      const response = await call(t.app, third.otaKey, 'POST', '/api/v2/ota/viator/booking', {
        ActivityID: activity,
        Date,
        Time: '10:00',
        Participants: 1,
        Customer: customer(Email),
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().data.BookingReference as string;
    };
    const gone = await book('old@example.com', soon.Date);
    const kept = await book('recent@example.com', later.Date);
    // A year and a bit from now, with a retention of one year: the first guest's activity is over a year past.
    const now = addMillis(nowMillis(), 400 * 86_400_000);
    expect(await eraseInactiveGuests(t.db, 365, now)).toBeGreaterThanOrEqual(1);
    const customerOf = async (ref: string) => (await call(t.app, third.adminKey, 'GET', `/api/v2/admin/bookings/${ref}`)).json().data.Customer;
    expect((await customerOf(gone)).Email).toBe('erased@erased.invalid');
    expect((await customerOf(kept)).Email).toBe('recent@example.com');
    const entry = (await call(t.app, third.adminKey, 'GET', '/api/v2/admin/audit?Action=guest.erase')).json().data[0];
    expect(entry).toMatchObject({ Action: 'guest.erase', Actor: expect.objectContaining({ Type: 'system' }) });
    // A second pass finds nothing more of this operator's to erase before the later booking ages.
    await eraseInactiveGuests(t.db, 365, now);
    expect((await customerOf(kept)).Email).toBe('recent@example.com');
  });
});
