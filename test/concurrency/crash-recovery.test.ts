// Durability: SIGKILL a server in the middle of a load of usage entries and bookings, restart it, and
// check that every request that was answered 201 is stored, and that retrying every request with its
// Idempotency-Key leaves each stored exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { runCli, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { unixNow } from '../../src/lib/clock.js';

let database: TestDatabase;
let keys: { admin: string; ota: string; usage: string };

async function post(base: string, key: string, path: string, body: unknown, idempotencyKey: string) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    body: JSON.stringify(body),
  });
  return { status: response.status, replayed: response.headers.get('idempotent-replayed') === 'true', body: await response.json() };
}

beforeAll(async () => {
  database = await createTestDatabase();
  const env = { DATABASE_URL: database.url, LOG_LEVEL: 'silent' };
  const operator = JSON.parse((await runCli(['operator', 'create', '--name', 'Crash Co'], env)).stdout);
  const make = async (name: string, scopes: string, partner?: string) =>
    JSON.parse(
      (
        await runCli(
          [
            'key',
            'create',
            '--operator',
            String(operator.OperatorID),
            '--name',
            name,
            '--scopes',
            scopes,
            ...(partner ? ['--partner', partner] : []),
          ],
          env,
        )
      ).stdout,
    ).Key as string;
  keys = { admin: operator.AdminKey, ota: await make('ota', 'ota', 'viator'), usage: await make('usage', 'usage:read,usage:write') };
}, 60_000);

afterAll(() => database.drop());

describe('a server killed with SIGKILL under load', () => {
  it('keeps every acknowledged write, and idempotent retries store each request exactly once', async () => {
    let server: ServerProcess = await startServerProcess(database.url, { LOG_LEVEL: 'warn' });
    const activity = await fetch(`${server.url}/api/v2/admin/activities`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        Name: 'Crash Tour',
        DurationMinutes: 60,
        Timezone: 'UTC',
        Currency: 'EUR',
        UnitPrice: 100,
        MaxParticipantsPerBooking: 2,
      }),
    }).then((r) => r.json());
    const ActivityID = activity.data.ActivityID;
    const date = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    await fetch(`${server.url}/api/v2/admin/activities/${ActivityID}/timeslots`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ Date: date, Time: '09:00', Capacity: 10_000 }),
    });

    const occurredAt = unixNow();
    const usage = Array.from({ length: 400 }, (_, i) => ({
      key: keys.usage,
      path: '/api/v2/usage/meters',
      idem: `usage-${i}`,
      body: { Meter: 'crash-meter', Usage: '0.1', OccurredAt: occurredAt },
    }));
    const bookings = Array.from({ length: 150 }, (_, i) => ({
      key: keys.ota,
      path: '/api/v2/ota/viator/booking',
      idem: `booking-${i}`,
      body: {
        ActivityID,
        Date: date,
        Time: '09:00',
        Participants: 2,
        Customer: { FirstName: 'C', LastName: 'R', Email: 'c@example.com', Phone: '+4915112345678' },
      },
    }));
    // Interleaved, so that the kill lands among both kinds of write.
    const requests = usage.flatMap((entry, i) => (i < bookings.length ? [entry, bookings[i]!] : [entry]));

    // Fire everything with 16 in flight; kill the server once a fair share has been answered.
    const acknowledged = new Map<string, unknown>();
    let next = 0;
    let killed = false;
    const target = server;
    const worker = async () => {
      while (next < requests.length && !killed) {
        const request = requests[next++]!;
        try {
          const response = await post(target.url, request.key, request.path, request.body, request.idem);
          if (response.status === 201) acknowledged.set(request.idem, response.body);
          if (acknowledged.size >= 150 && !killed) {
            killed = true;
            target.child.kill('SIGKILL');
          }
        } catch {
          // The connection died with the server: this request is unanswered.
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    await target.stop('SIGKILL');
    expect(killed).toBe(true);
    expect(acknowledged.size).toBeGreaterThanOrEqual(150);
    expect(acknowledged.size).toBeLessThan(requests.length);

    server = await startServerProcess(database.url, { LOG_LEVEL: 'warn' });
    try {
      // Every acknowledged request is stored: its retry is a replay of the very same response.
      for (const request of requests.filter((r) => acknowledged.has(r.idem))) {
        const retry = await post(server.url, request.key, request.path, request.body, request.idem);
        expect(retry.status).toBe(201);
        expect(retry.replayed).toBe(true);
        expect(retry.body).toEqual(acknowledged.get(request.idem));
      }
      // Retrying the unanswered ones stores each exactly once (a retry of one that committed unanswered replays).
      for (const request of requests.filter((r) => !acknowledged.has(r.idem))) {
        expect((await post(server.url, request.key, request.path, request.body, request.idem)).status).toBe(201);
      }
      const today = new Date(occurredAt * 1000).toISOString().slice(0, 10);
      const summary = await fetch(`${server.url}/api/v2/usage/meters?from=${today}&to=${today}`, {
        headers: { authorization: `Bearer ${keys.usage}` },
      }).then((r) => r.json());
      // The bookings' confirmations (the operator's starter workflow) are metered too, as workflow-email-sent.
      expect(summary.data.Meters.filter((m: { Meter: string }) => m.Meter !== 'workflow-email-sent')).toEqual([
        { Meter: 'crash-meter', TotalUsage: 40, EventCount: 400 },
      ]);
      const slots = await fetch(`${server.url}/api/v2/ota/viator/availability/${ActivityID}/timeslots?Date=${date}`, {
        headers: { authorization: `Bearer ${keys.ota}` },
      }).then((r) => r.json());
      expect(slots.data[0].Booked).toBe(300);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
