// Each workflow's e-mails through a real SMTP server: GET /api/v2/admin/emails?WorkflowID= lists one
// workflow's e-mails only (another workflow's and another operator's never), and with Status=sent or
// Status=failed its delivered and given-up ones, as the workflows page shows them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer, deliveryFor, nowSeconds, pauseStarterWorkflows, posBooking } from './fixtures.js';
import { startSmtp, type TestSmtp } from './smtp.js';
import { MAX_ATTEMPTS, RETRY_DELAYS, runDueEmails, type Delivery } from '../../src/emails/worker.js';
import { addSeconds } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;
let smtp: TestSmtp;
let delivery: Delivery;
const slot = { ActivityID: '', Date: dateFromToday(7), Time: '10:00' };

const workflow = async (Name: string) =>
  (
    await call(t.app, op.adminKey, 'POST', '/api/v2/admin/workflows', {
      Name,
      Event: 'booking-confirmed',
      Subject: `${Name} {{FirstName}}`,
      Body: 'Hello',
    })
  ).json().data as { ID: number };
const emailsOf = async (query: string, key = op.adminKey) => {
  const response = await call(t.app, key, 'GET', `/api/v2/admin/emails?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as {
    Subject: string;
    Status: string;
    WorkflowID: number;
    BookingReference: string;
    LastError: string | null;
    Attempts: number;
  }[];
};

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ SMTP_URL: smtp.url });
  op = await t.newOperator('Fjord Kayaks');
  // This file counts the e-mails of workflows it makes: the starter confirmation would add one per booking.
  await pauseStarterWorkflows(t, op.adminKey);
  delivery = deliveryFor(t);
  slot.ActivityID = (await createActivity(t, op.adminKey, { Name: 'Fjord Paddle', MaxParticipantsPerBooking: 10 })).ActivityID;
  await createTimeslot(t, op.adminKey, slot.ActivityID, { ...slot, Capacity: 50 });
});
afterAll(async () => {
  delivery.mailer.close();
  await t.close();
  await smtp.close();
});

describe('e-mails of one workflow', () => {
  it("lists a workflow's sent and failed e-mails apart from the other workflows' and operators'", async () => {
    const thanks = await workflow('Thanks');
    const sent = await posBooking(t, op.adminKey, slot, 1, customer('Sent'));
    expect(await runDueEmails(t.db, delivery)).toEqual({ sent: 1, retrying: 0, failed: 0 });
    // A second workflow whose e-mail the SMTP server refuses until it is given up.
    const doomed = await workflow('Doomed');
    const failed = await posBooking(t, op.adminKey, slot, 1, customer('Failed'));
    smtp.failing = true;
    let now = nowSeconds();
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await runDueEmails(t.db, delivery, now);
      now = addSeconds(now, RETRY_DELAYS[attempt - 1] ?? 0);
    }
    smtp.failing = false;

    // Thanks e-mailed both bookings: the first went out, the second failed with Doomed's (both refused).
    expect((await emailsOf(`WorkflowID=${thanks.ID}`)).map((e) => [e.Subject, e.Status])).toEqual([
      ['Thanks Failed', 'failed'],
      ['Thanks Sent', 'sent'],
    ]);
    expect((await emailsOf(`WorkflowID=${thanks.ID}&Status=sent`)).map((e) => e.BookingReference)).toEqual([sent.BookingReference]);
    const doomedFailed = await emailsOf(`WorkflowID=${doomed.ID}&Status=failed`);
    expect(doomedFailed).toHaveLength(1);
    expect(doomedFailed[0]).toMatchObject({ WorkflowID: doomed.ID, BookingReference: failed.BookingReference, Attempts: MAX_ATTEMPTS });
    expect(doomedFailed[0]!.LastError).toBeTruthy();
    expect(await emailsOf(`WorkflowID=${doomed.ID}&Status=sent`)).toEqual([]);

    const other = await t.newOperator();
    expect(await emailsOf(`WorkflowID=${thanks.ID}`, other.adminKey)).toEqual([]);
    problemOf(await call(t.app, op.adminKey, 'GET', '/api/v2/admin/emails?WorkflowID=0'), 422, 'validation');
    problemOf(await call(t.app, op.adminKey, 'GET', '/api/v2/admin/emails?WorkflowID=x'), 422, 'validation');
  });
});
