// Slow clients and shutdown, against real `slotbook serve` processes: a request body trickled a byte at a
// time gets a 408 once REQUEST_TIMEOUT_SECONDS have passed; SIGTERM lets a request under way finish,
// closes connections still open after SHUTDOWN_TIMEOUT_SECONDS, closes the database and exits 0.
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connection.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { queueEmail } from '../../src/emails/outbox.js';
import { startSmtp } from '../emails/smtp.js';
import { runCli, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { addSeconds, unixNow } from '../../src/lib/clock.js';

let database: TestDatabase;
let adminKey: string;
let operatorId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  const operator = JSON.parse(
    (await runCli(['operator', 'create', '--name', 'Slow Co'], { DATABASE_URL: database.url, LOG_LEVEL: 'silent' })).stdout,
  );
  adminKey = operator.AdminKey;
  operatorId = Number(operator.OperatorID);
}, 60_000);
afterAll(() => database.drop());

interface Answer {
  status: number;
  body: string;
  /** Milliseconds from the first byte sent to the connection's close. */
  after: number;
}

/** POSTs a usage entry whose body is sent one byte every `everyMs`, padded to `length` bytes. */
function trickle(server: ServerProcess, meter: string, length: number, everyMs: number): Promise<Answer> {
  const json = JSON.stringify({ Meter: meter, Usage: 1 });
  const body = json + ' '.repeat(Math.max(0, length - json.length));
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    let sent = 0;
    const timer = setInterval(() => {
      if (sent < body.length && socket.writable) socket.write(body[sent++]!);
    }, everyMs);
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('error', () => undefined); // a cut connection ends in 'close' all the same
    socket.on('close', () => {
      clearInterval(timer);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0);
      resolve({ status, body: received.slice(received.indexOf('\r\n\r\n') + 4), after: Date.now() - started });
    });
    socket.once('connect', () =>
      socket.write(
        `POST /api/v2/usage/meters HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${adminKey}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
      ),
    );
    setTimeout(() => reject(new Error(`no answer after 25 s: ${received}`)), 25_000).unref();
  });
}

const exitOf = (server: ServerProcess) =>
  new Promise<{ code: number | null; after: number }>((resolve) => {
    const started = Date.now();
    if (server.child.exitCode !== null) return resolve({ code: server.child.exitCode, after: 0 });
    server.child.once('exit', (code) => resolve({ code, after: Date.now() - started }));
  });

describe('a request body trickled a byte at a time', () => {
  it('gets a 408 problem once REQUEST_TIMEOUT_SECONDS have passed, and its connection is closed', async () => {
    const server = await startServerProcess(database.url, { REQUEST_TIMEOUT_SECONDS: '2' });
    try {
      const answer = await trickle(server, 'trickled', 60, 300);
      expect(answer.status).toBe(408);
      expect(JSON.parse(answer.body)).toMatchObject({ type: expect.stringMatching(/\/problems\/request-timeout$/), status: 408 });
      expect(answer.after).toBeGreaterThanOrEqual(1900);
      expect(answer.after).toBeLessThan(6000);
    } finally {
      await server.stop();
    }
  }, 40_000);
});

describe('SIGTERM', () => {
  it('lets a request under way finish, refuses new connections, closes the database and exits 0', async () => {
    const server = await startServerProcess(database.url, { SHUTDOWN_TIMEOUT_SECONDS: '10' });
    const answer = trickle(server, 'finished-during-shutdown', 30, 60); // about 1.8 s
    await new Promise((resolve) => setTimeout(resolve, 400));
    const exit = exitOf(server);
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    expect((await answer).status).toBe(201);
    const { code, after } = await exit;
    expect(code).toBe(0);
    expect(after).toBeLessThan(5000);
    expect(server.output()).toMatch(/database closed/);
    const db = openDatabase(database.config);
    try {
      const stored = await db.kysely.selectFrom('usage_entries').select('id').where('meter', '=', 'finished-during-shutdown').execute();
      expect(stored).toHaveLength(1);
    } finally {
      await db.close();
    }
  }, 40_000);

  it('with a client that never finishes: closes its connection after SHUTDOWN_TIMEOUT_SECONDS, closes the database, exits 0', async () => {
    const server = await startServerProcess(database.url, { SHUTDOWN_TIMEOUT_SECONDS: '2', REQUEST_TIMEOUT_SECONDS: '120' });
    const answer = trickle(server, 'never-finished', 10_000, 300);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const exit = exitOf(server);
    server.child.kill('SIGTERM');
    const { code, after } = await exit;
    expect(code).toBe(0);
    expect(after).toBeGreaterThanOrEqual(1900);
    expect(after).toBeLessThan(6000);
    expect(server.output()).toMatch(/database closed/);
    expect((await answer).status).toBe(0); // cut without an answer
    // SQLite checkpoints and removes its WAL file when its last connection closes cleanly.
    if (database.config.dialect === 'sqlite') expect(existsSync(`${database.config.file}-wal`)).toBe(false);
  }, 40_000);
});

describe('SIGTERM while an e-mail is being sent', () => {
  it('finishes that e-mail and records it sent, sends no other, and exits 0 within the shutdown timeout', async () => {
    const smtp = await startSmtp();
    smtp.delayMs = 1_500; // a slow mail server: each message takes 1.5 s to be accepted
    const db = openDatabase(database.config);
    try {
      const now = unixNow();
      await db.write(async (tx) => {
        for (const n of [1, 2, 3]) {
          await queueEmail(tx, {
            operatorId,
            kind: 'webhook',
            to: `staff${n}@example.com`,
            subject: `Shutdown ${n}`,
            body: 'An endpoint was disabled.',
            sendAt: addSeconds(now, -10),
            meter: null,
            meterExtraInfo: null,
          });
        }
      });
      const server = await startServerProcess(database.url, { SMTP_URL: smtp.url, SHUTDOWN_TIMEOUT_SECONDS: '10' });
      try {
        // The worker's first run comes within 5 s of the start; wait until the first message is on its way.
        for (const until = Date.now() + 20_000; smtp.receiving === 0 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
        expect(smtp.receiving).toBe(1);
        const exit = exitOf(server);
        server.child.kill('SIGTERM');
        const { code, after } = await exit;
        expect(code).toBe(0);
        expect(after).toBeLessThan(10_000);
        expect(server.output()).toMatch(/database closed/);
      } finally {
        await server.stop();
      }
      // The message under way was accepted and recorded as sent; the others wait, unclaimed, for the next start.
      expect(smtp.messages.map((message) => message.subject)).toEqual(['Shutdown 1']);
      const rows = await db.kysely
        .selectFrom('emails')
        .select(['subject', 'status', 'claimed_by'])
        .where('subject', 'like', 'Shutdown %')
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        { subject: 'Shutdown 1', status: 'sent', claimed_by: expect.anything() },
        { subject: 'Shutdown 2', status: 'queued', claimed_by: null },
        { subject: 'Shutdown 3', status: 'queued', claimed_by: null },
      ]);
    } finally {
      await db.close();
      await smtp.close();
    }
  }, 120_000);
});
