// Workflow e-mails delivered to a real SMTP server: the template rendered, one workflow-email-sent entry
// per e-mail sent, none while sending fails, none twice on retry; reminders fire when due, also after
// a restart; partner bookings only when the operator opted in.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer, deliveryFor, meterEntries, nowSeconds, posBooking } from '../emails/fixtures.js';
import { startSmtp, type TestSmtp } from '../emails/smtp.js';
import { MAX_ATTEMPTS, RETRY_DELAYS, runDueEmails, type Delivery } from '../../src/emails/worker.js';
import { openDatabase } from '../../src/db/connection.js';
import { addSeconds, asUnixSeconds, type UnixSeconds } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;
let smtp: TestSmtp;
let delivery: Delivery;
let activityId: string;
const date = dateFromToday(10);
let slotStartsAt: UnixSeconds;
const slot = { ActivityID: '', Date: date, Time: '10:00' };

interface Email {
  ID: number;
  To: string;
  Subject: string;
  Body: string;
  Status: string;
  Transport: string | null;
  Attempts: number;
  NextAttemptAt: string | null;
  LastError: string | null;
  BookingReference: string | null;
  WorkflowID: number | null;
}

async function createWorkflow(body: Record<string, unknown>) {
  const response = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/workflows', { Name: 'Flow', Subject: 'Hi', Body: 'Hello', ...body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { ID: number; PartnerBookings: boolean; Enabled: boolean };
}

const disable = (id: number) => call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/workflows/${id}`, { Enabled: false });

async function outbox(): Promise<Email[]> {
  const response = await call(t.app, op.adminKey, 'GET', '/api/v2/admin/emails');
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

const workflowEntries = () => meterEntries(t.db, op.operatorId, 'workflow-email-sent');

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ SMTP_URL: smtp.url });
  op = await t.newOperator('Fjord Kayaks');
  delivery = deliveryFor(t);
  activityId = (await createActivity(t, op.adminKey, { Name: 'Fjord Paddle', MaxParticipantsPerBooking: 10 })).ActivityID;
  slot.ActivityID = activityId;
  const created = await createTimeslot(t, op.adminKey, activityId, { ...slot, Capacity: 500 });
  slotStartsAt = asUnixSeconds(Date.parse(created.StartsAt) / 1000);
});
afterAll(async () => {
  delivery.mailer.close();
  await t.close();
  await smtp.close();
});
beforeEach(async () => {
  smtp.failing = false;
  // Each test starts with no workflow enabled and nothing due.
  for (const workflow of (await call(t.app, op.adminKey, 'GET', '/api/v2/admin/workflows')).json().data) await disable(workflow.ID);
  await runDueEmails(t.db, delivery, addSeconds(nowSeconds(), 400 * 86_400));
});

describe('workflow settings', () => {
  it('validates templates and offsets; partner bookings are off by default only for confirmations', async () => {
    const bad = problemOf(
      await call(t.app, op.adminKey, 'POST', '/api/v2/admin/workflows', {
        Name: 'X',
        Event: 'reminder',
        Subject: 'Hi {{Nickname}}',
        Body: '{{Date}}',
      }),
      422,
      'validation',
    );
    expect(bad.errors?.map((e) => e.field)).toEqual(['Subject', 'OffsetHours']);
    problemOf(
      await call(t.app, op.adminKey, 'POST', '/api/v2/admin/workflows', {
        Name: 'X',
        Event: 'booking-confirmed',
        OffsetHours: 3,
        Subject: 'a',
        Body: 'b',
      }),
      422,
      'validation',
    );
    problemOf(
      await call(t.app, op.adminKey, 'POST', '/api/v2/admin/workflows', { Name: 'X', Event: 'birthday', Subject: 'a', Body: 'b' }),
      422,
      'validation',
    );
    const confirmed = await createWorkflow({ Event: 'booking-confirmed' });
    const reminder = await createWorkflow({ Event: 'reminder', OffsetHours: 24 });
    expect([confirmed.PartnerBookings, reminder.PartnerBookings]).toEqual([false, true]);
    problemOf(await call(t.app, op.adminKey, 'GET', '/api/v2/admin/workflows/999999'), 404, 'not-found');
  });
});

describe('sending', () => {
  it('a booking confirmation goes out through SMTP with the template rendered, and meters once', async () => {
    const workflow = await createWorkflow({
      Event: 'booking-confirmed',
      Subject: 'Booked: {{ActivityName}} on {{Date}}',
      Body: 'Hello {{FirstName}} {{LastName}},\n{{Participants}} seats at {{Time}}, reference {{BookingReference}}.\n{{OperatorName}}',
    });
    const entriesBefore = (await workflowEntries()).length;
    const booking = await posBooking(t, op.adminKey, slot, 3, customer('Grace', 'grace@example.com'));
    const [queued] = await outbox();
    expect(queued).toMatchObject({ Status: 'queued', To: 'grace@example.com', BookingReference: booking.BookingReference, WorkflowID: workflow.ID });

    const before = smtp.messages.length;
    expect(await runDueEmails(t.db, delivery)).toEqual({ sent: 1, retrying: 0, failed: 0 });
    const [message] = smtp.messages.slice(before);
    expect(message!.to).toEqual(['grace@example.com']);
    expect(message!.from).toBe('no-reply@slotbook.test');
    expect(message!.raw).toContain('From: Fjord Kayaks <no-reply@slotbook.test>');
    expect(message!.subject).toBe(`Booked: Fjord Paddle on ${date}`);
    // The workflow's text comes first; the booking's details follow it (docs/emails.md).
    expect(message!.text).toMatch(
      new RegExp(
        `^Hello Grace Lovelace,\n3 seats at 10:00, reference ${booking.BookingReference}\\.\nFjord Kayaks\n\nBooking reference: ${booking.BookingReference}\n`,
      ),
    );
    const entries = await workflowEntries();
    expect(entries.length).toBe(entriesBefore + 1);
    expect(entries.at(-1)).toMatchObject({ extra_info: null });
    expect(Number(entries.at(-1)!.usage_micros)).toBe(1_000_000);
    expect((await outbox())[0]).toMatchObject({ Status: 'sent', Transport: 'smtp', Attempts: 1 });

    expect(await runDueEmails(t.db, delivery)).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect((await workflowEntries()).length).toBe(entriesBefore + 1);
  });

  it('partner bookings trigger a workflow only when the operator opted in', async () => {
    const optedOut = await createWorkflow({ Event: 'booking-confirmed', Subject: 'default' });
    const partnerBooking = () =>
      call(t.app, op.otaKey, 'POST', '/api/v2/ota/viator/booking', { ...slot, Participants: 1, Customer: customer('Otto', 'otto@example.com') });
    expect((await partnerBooking()).statusCode).toBe(201);
    expect((await outbox()).filter((e) => e.Status === 'queued')).toHaveLength(0);
    await disable(optedOut.ID);
    await createWorkflow({ Event: 'booking-confirmed', Subject: 'opted in', PartnerBookings: true });
    expect((await partnerBooking()).statusCode).toBe(201);
    expect((await outbox()).filter((e) => e.Status === 'queued').map((e) => e.Subject)).toEqual(['opted in']);
  });

  it("cancellation e-mails go on cancel; a cancelled booking's reminder is withdrawn, never sent or metered", async () => {
    await createWorkflow({ Event: 'booking-cancelled', Subject: 'Cancelled {{BookingReference}}' });
    await createWorkflow({ Event: 'reminder', OffsetHours: 2, Subject: 'Soon' });
    const booking = await posBooking(t, op.adminKey, slot);
    expect((await outbox()).filter((e) => e.Status === 'queued').map((e) => e.Subject)).toEqual(['Soon']);
    await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${booking.BookingReference}/cancel`);
    const mails = (await outbox()).filter((e) => e.BookingReference === booking.BookingReference);
    expect(mails.map((e) => [e.Subject, e.Status])).toEqual([
      [`Cancelled ${booking.BookingReference}`, 'queued'],
      ['Soon', 'cancelled'],
    ]);
    const entriesBefore = (await workflowEntries()).length;
    expect(await runDueEmails(t.db, delivery, slotStartsAt)).toMatchObject({ sent: 1 });
    expect((await workflowEntries()).length).toBe(entriesBefore + 1);
  });
});

describe('failures and retries', () => {
  it('a failing SMTP server: retried with backoff, no entry while failing, exactly one after success', async () => {
    await createWorkflow({ Event: 'booking-confirmed', Subject: 'Retry me' });
    await posBooking(t, op.adminKey, slot);
    const entriesBefore = (await workflowEntries()).length;
    const now = nowSeconds();
    smtp.failing = true;
    expect(await runDueEmails(t.db, delivery, now)).toEqual({ sent: 0, retrying: 1, failed: 0 });
    let [email] = await outbox();
    expect(email).toMatchObject({ Status: 'queued', Attempts: 1, Transport: null });
    expect(email!.LastError).toContain('451');
    expect(Date.parse(email!.NextAttemptAt!) / 1000).toBe(addSeconds(now, RETRY_DELAYS[0]));
    expect(await runDueEmails(t.db, delivery, addSeconds(now, RETRY_DELAYS[0] - 1))).toEqual({ sent: 0, retrying: 0, failed: 0 }); // not yet due
    expect(await runDueEmails(t.db, delivery, addSeconds(now, RETRY_DELAYS[0]))).toEqual({ sent: 0, retrying: 1, failed: 0 });
    [email] = await outbox();
    expect(Date.parse(email!.NextAttemptAt!) / 1000).toBe(addSeconds(now, RETRY_DELAYS[0] + RETRY_DELAYS[1]));
    expect((await workflowEntries()).length).toBe(entriesBefore);

    smtp.failing = false;
    const before = smtp.messages.length;
    expect(await runDueEmails(t.db, delivery, addSeconds(now, 3600))).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect(await runDueEmails(t.db, delivery, addSeconds(now, 7200))).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(smtp.messages.length).toBe(before + 1);
    expect((await outbox())[0]).toMatchObject({ Status: 'sent', Attempts: 3, LastError: null });
    expect((await workflowEntries()).length).toBe(entriesBefore + 1);
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts: failed, never metered`, async () => {
    await createWorkflow({ Event: 'booking-confirmed', Subject: 'Doomed' });
    await posBooking(t, op.adminKey, slot);
    const entriesBefore = (await workflowEntries()).length;
    smtp.failing = true;
    let now = nowSeconds();
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const report = await runDueEmails(t.db, delivery, now);
      expect(report).toEqual(attempt < MAX_ATTEMPTS ? { sent: 0, retrying: 1, failed: 0 } : { sent: 0, retrying: 0, failed: 1 });
      now = addSeconds(now, RETRY_DELAYS[attempt - 1] ?? 0);
    }
    expect((await outbox())[0]).toMatchObject({ Status: 'failed', Attempts: MAX_ATTEMPTS, NextAttemptAt: null });
    smtp.failing = false;
    expect(await runDueEmails(t.db, delivery, addSeconds(now, 86_400))).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect((await workflowEntries()).length).toBe(entriesBefore);
  });
});

describe('scheduled e-mails', () => {
  it('a reminder N hours before the start fires when due, also after a restart (new process state, same database)', async () => {
    await createWorkflow({ Event: 'reminder', OffsetHours: 24, Subject: 'Tomorrow: {{ActivityName}}' });
    await createWorkflow({ Event: 'follow-up', OffsetHours: 3, Subject: 'How was it?' });
    const booking = await posBooking(t, op.adminKey, slot);
    const due = addSeconds(slotStartsAt, -(24 * 3600));
    expect(await runDueEmails(t.db, delivery, addSeconds(due, -1))).toEqual({ sent: 0, retrying: 0, failed: 0 });

    // A restart: another connection and another worker on the same database, nothing kept in memory.
    const restarted = openDatabase(
      t.db.dialect === 'sqlite' ? { dialect: 'sqlite', file: t.databaseUrl.slice('sqlite:'.length) } : { dialect: 'postgres', url: t.databaseUrl },
    );
    try {
      const before = smtp.messages.length;
      expect(await runDueEmails(restarted, { ...delivery, workerId: 'after-restart' }, due)).toEqual({ sent: 1, retrying: 0, failed: 0 });
      expect(smtp.messages.slice(before).map((m) => m.subject)).toEqual(['Tomorrow: Fjord Paddle']);
      const endsAt = addSeconds(slotStartsAt, 90 * 60);
      expect(await runDueEmails(restarted, { ...delivery, workerId: 'after-restart' }, addSeconds(endsAt, 3 * 3600 - 1))).toMatchObject({ sent: 0 });
      expect(await runDueEmails(restarted, { ...delivery, workerId: 'after-restart' }, addSeconds(endsAt, 3 * 3600))).toMatchObject({ sent: 1 });
    } finally {
      await restarted.close();
    }
    const mails = (await outbox()).filter((e) => e.BookingReference === booking.BookingReference);
    expect(mails.map((e) => [e.Subject, e.Status])).toEqual([
      ['How was it?', 'sent'],
      ['Tomorrow: Fjord Paddle', 'sent'],
    ]);
  });
});

describe('without SMTP_URL', () => {
  it('delivers to the outbox the dashboard shows, and meters the same way', async () => {
    const local = await createTestApp();
    try {
      const owner = await local.newOperator();
      const activity = (await createActivity(local, owner.adminKey, { Name: 'Bike Tour' })).ActivityID;
      await createTimeslot(local, owner.adminKey, activity, { Date: date, Time: '09:00', Capacity: 5 });
      // The new operator's starter "Booking confirmation" is the workflow that e-mails (docs/emails.md).
      await posBooking(local, owner.adminKey, { ActivityID: activity, Date: date, Time: '09:00' });
      const outboxDelivery = deliveryFor(local);
      expect(outboxDelivery.mailer.transport).toBe('outbox');
      expect(await runDueEmails(local.db, outboxDelivery)).toMatchObject({ sent: 1 });
      const [email] = (await call(local.app, owner.adminKey, 'GET', '/api/v2/admin/emails')).json().data as Email[];
      expect(email).toMatchObject({
        Status: 'sent',
        Transport: 'outbox',
        Subject: expect.stringMatching(/^Booking confirmed: Bike Tour \(BK-/),
        To: 'ada@example.com',
      });
      expect(email!.Body).toMatch(/^Hello Ada,\n\nyour booking of Bike Tour on .+ at 09:00 \(Europe\/Berlin\) is confirmed\./);
      expect(await meterEntries(local.db, owner.operatorId, 'workflow-email-sent')).toHaveLength(1);
      outboxDelivery.mailer.close();
    } finally {
      await local.close();
    }
  });
});
