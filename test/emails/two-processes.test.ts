// Two `slotbook serve` processes (each with its e-mail worker) on one database and a real SMTP server:
// every due e-mail is sent once and metered once. On PostgreSQL, also two workers racing in one process.
import { loadInstanceKeys } from '../../src/secrets/keys.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/database.js';
import { runCli, startServerProcess, TEST_SECRET_KEY, type ServerProcess } from '../helpers/server-process.js';
import { openDatabase, type Db } from '../../src/db/connection.js';
import { createMailer } from '../../src/emails/mailer.js';
import { runDueEmails } from '../../src/emails/worker.js';
import { startSmtp, type TestSmtp } from './smtp.js';

let database: TestDatabase;
let db: Db;
let smtp: TestSmtp;
let servers: ServerProcess[] = [];
let admin: string;
let activityId: string;
const date = new Date(Date.now() + 8 * 86_400_000).toISOString().slice(0, 10);

async function json(url: string, method = 'GET', body?: unknown) {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${admin}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json().catch(() => null) };
}

const book = (server: ServerProcess, i: number) =>
  json(`${server.url}/api/v2/admin/bookings`, 'POST', {
    ActivityID: activityId,
    Date: date,
    Time: '10:00',
    Participants: 1,
    Customer: { FirstName: `Guest${i}`, LastName: 'Race', Email: `guest${i}@example.com`, Phone: '+4915112345678' },
  });

async function sentCount(): Promise<number> {
  const row = await db.kysely
    .selectFrom('emails')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'sent')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function entryCount(): Promise<number> {
  const row = await db.kysely
    .selectFrom('usage_entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('meter', '=', 'workflow-email-sent')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

beforeAll(async () => {
  smtp = await startSmtp();
  database = await createTestDatabase();
  const env = { DATABASE_URL: database.url, LOG_LEVEL: 'silent' };
  const operator = JSON.parse((await runCli(['operator', 'create', '--name', 'Twin Tours'], env)).stdout);
  admin = operator.AdminKey;
  db = openDatabase(database.config);
  servers = await Promise.all([0, 1].map(() => startServerProcess(database.url, { LOG_LEVEL: 'warn', SMTP_URL: smtp.url })));
  const [a] = servers as [ServerProcess];
  const activity = await json(`${a.url}/api/v2/admin/activities`, 'POST', {
    Name: 'Twin Tour',
    DurationMinutes: 60,
    Timezone: 'Europe/Berlin',
    Currency: 'EUR',
    UnitPrice: 100,
  });
  activityId = activity.body.data.ActivityID;
  expect((await json(`${a.url}/api/v2/admin/activities/${activityId}/timeslots`, 'POST', { Date: date, Time: '10:00', Capacity: 500 })).status).toBe(
    201,
  );
  // The operator the command line created starts with an active "Booking confirmation" (workflows/starter.ts):
  // that is the workflow whose e-mails the two processes send.
  const workflows = await json(`${a.url}/api/v2/admin/workflows`, 'GET');
  expect(workflows.body.data.filter((w: { Event: string; Enabled: boolean }) => w.Enabled).map((w: { Event: string }) => w.Event)).toEqual([
    'booking-confirmed',
  ]);
}, 90_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await db?.close();
  await database?.drop();
  await smtp?.close();
});

describe('e-mails with two server processes', () => {
  it('each due e-mail is sent once and metered once', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => book(i % 2 === 0 ? a : b, i)));
    expect(results.every((r) => r.status === 201)).toBe(true);
    const deadline = Date.now() + 40_000;
    while ((await sentCount()) < 30 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await sentCount()).toBe(30);
    // A moment more, so a double send (if there were one) would have arrived.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const subjects = smtp.messages.map((m) => m.subject);
    expect(subjects).toHaveLength(30);
    expect(new Set(subjects).size).toBe(30);
    expect(await entryCount()).toBe(30);
  }, 60_000);

  it.runIf(testDialect() === 'postgres')(
    'two workers racing over one backlog in one process send each e-mail once',
    async () => {
      // The two server processes' own workers may join the race as well; that only makes it harder.
      const other = openDatabase(database.config);
      const mailer = createMailer({ smtpUrl: smtp.url });
      const keys = await loadInstanceKeys(db.kysely, TEST_SECRET_KEY);
      try {
        const [a] = servers as [ServerProcess];
        const sentBefore = await sentCount();
        const messagesBefore = smtp.messages.length;
        // Queue 40 e-mails due now, then race two workers over them.
        const results = await Promise.all(Array.from({ length: 40 }, (_, i) => book(a, 100 + i)));
        expect(results.every((r) => r.status === 201)).toBe(true);
        const reports = await Promise.all([
          runDueEmails(db, { mailer, from: 'race@example.com', workerId: 'race-1', keys }),
          runDueEmails(other, { mailer, from: 'race@example.com', workerId: 'race-2', keys }),
        ]);
        const deadline = Date.now() + 20_000;
        while ((await sentCount()) < sentBefore + 40 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
        expect(await sentCount()).toBe(sentBefore + 40);
        expect(reports.reduce((sum, r) => sum + r.sent, 0)).toBeLessThanOrEqual(40);
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const subjects = smtp.messages.slice(messagesBefore).map((m) => m.subject);
        expect(subjects).toHaveLength(40);
        expect(new Set(subjects).size).toBe(40);
        expect(await entryCount()).toBe(70);
      } finally {
        mailer.close();
        await other.close();
      }
    },
    60_000,
  );
});
