// The shop's name in guests' e-mails (shop settings): the sender's display name and the workflow
// templates' {{OperatorName}} are the shop name once set; e-mails to staff keep the operator's name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer, deliveryFor, pauseStarterWorkflows, posBooking } from '../emails/fixtures.js';
import { startSmtp, type TestSmtp } from '../emails/smtp.js';
import { runDueEmails } from '../../src/emails/worker.js';

let t: TestApp;
let op: TestOperator;
let smtp: TestSmtp;
const slot = { ActivityID: '', Date: dateFromToday(10), Time: '10:00' };

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ SMTP_URL: smtp.url });
  op = await t.newOperator('Fjord Kayaks GmbH');
  // One e-mail per booking: this file's own workflow's (the starter confirmation is tested in test/emails).
  await pauseStarterWorkflows(t, op.adminKey);
  slot.ActivityID = (await createActivity(t, op.adminKey, { Name: 'Fjord Paddle' })).ActivityID;
  await createTimeslot(t, op.adminKey, slot.ActivityID, { Date: slot.Date, Time: slot.Time, Capacity: 20 });
  const workflow = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/workflows', {
    Name: 'Thanks',
    Event: 'booking-confirmed',
    Subject: 'Booked',
    Body: 'See you soon.\n{{OperatorName}}',
  });
  expect(workflow.statusCode, workflow.body).toBe(201);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

async function bookAndSend() {
  await posBooking(t, op.adminKey, slot, 1, customer('Grace', 'grace@example.com'));
  const before = smtp.messages.length;
  expect((await runDueEmails(t.db, deliveryFor(t))).sent).toBe(1);
  return smtp.messages.slice(before)[0]!;
}

describe('branded guest e-mails', () => {
  it("use the operator's name until a shop name is set, then the shop name", async () => {
    const plain = await bookAndSend();
    expect(plain.raw).toContain('From: Fjord Kayaks GmbH <');
    // The workflow's text first, then the booking's details (docs/emails.md); the HTML part carries the name too.
    expect(plain.text).toMatch(/^See you soon\.\nFjord Kayaks GmbH\n\n/);
    expect(plain.html).toContain('Fjord Kayaks GmbH');

    expect((await call(t.app, op.adminKey, 'PATCH', '/api/v2/admin/settings', { ShopName: 'Fjord Paddling' })).statusCode).toBe(200);
    const branded = await bookAndSend();
    expect(branded.raw).toContain('From: Fjord Paddling <');
    expect(branded.text).toMatch(/^See you soon\.\nFjord Paddling\n\n/);
    expect(branded.html).toContain('Fjord Paddling');
  });
});
