// The mailer sends to exactly one address (lib/email-address.ts): a recipient list it did not expect,
// such as an address stored before every channel checked it, is refused and never retried, and the
// outbox says why. Sent through a real SMTP server on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { runDueEmails } from '../../src/emails/worker.js';
import { startSmtp, type TestSmtp } from './smtp.js';
import { customer, deliveryFor, posBooking } from './fixtures.js';

let t: TestApp;
let op: TestOperator;
let smtp: TestSmtp;
let slot: { ActivityID: string; Date: string; Time: string };

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ SMTP_URL: smtp.url });
  op = await t.newOperator();
  const activity = await createActivity(t, op.adminKey, { Name: 'Mail Tour' });
  slot = { ActivityID: activity.ActivityID, Date: dateFromToday(9), Time: '10:00' };
  await createTimeslot(t, op.adminKey, activity.ActivityID, { Date: slot.Date, Time: slot.Time, Capacity: 10 });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const outbox = async () =>
  (await call(t.app, op.adminKey, 'GET', '/api/v2/admin/emails')).json().data as { To: string; Status: string; LastError: string | null }[];

describe('the mailer', () => {
  it('refuses a list of recipients: nothing reaches the mail server, the e-mail fails at once with its reason', async () => {
    await posBooking(t, op.adminKey, slot, 1, customer('Ada', 'ada@example.com'));
    const [queued] = await outbox();
    expect(queued).toMatchObject({ To: 'ada@example.com', Status: 'queued' });
    // An address stored before every channel checked it (a GetYourGuide traveller's, say).
    await t.db.kysely
      .updateTable('emails')
      .set({ to_address: 'ada@example.com, eve@attacker.example' })
      .where('operator_id', '=', op.operatorId)
      .execute();

    const report = await runDueEmails(t.db, deliveryFor(t));
    expect(report).toMatchObject({ sent: 0, failed: 1 });
    expect(smtp.messages).toEqual([]);
    const [failed] = await outbox();
    expect(failed).toMatchObject({ Status: 'failed', LastError: expect.stringMatching(/not exactly one e-mail address/) });
  });

  it('sends to one address as before', async () => {
    await posBooking(t, op.adminKey, slot, 1, customer('Grace', 'grace@example.com'));
    expect((await runDueEmails(t.db, deliveryFor(t))).sent).toBe(1);
    expect(smtp.messages.map((m) => m.to)).toEqual([['grace@example.com']]);
  });
});
