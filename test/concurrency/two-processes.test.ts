// Two `slotbook serve` processes on one database, 200 concurrent bookings of 1 to 4 seats at a slot of
// 50 seats: the confirmed seats total exactly what fits, everything else is 409, on either database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { runCli, startServerProcess, type ServerProcess } from '../helpers/server-process.js';

let database: TestDatabase;
let servers: ServerProcess[] = [];
let admin: string;
let ota: string;

async function json(url: string, key: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json().catch(() => null), headers: response.headers };
}

function futureDate(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

beforeAll(async () => {
  database = await createTestDatabase();
  const env = { DATABASE_URL: database.url, LOG_LEVEL: 'silent' };
  const operator = JSON.parse((await runCli(['operator', 'create', '--name', 'Race Kayaks'], env)).stdout);
  admin = operator.AdminKey;
  const key = JSON.parse(
    (await runCli(['key', 'create', '--operator', String(operator.OperatorID), '--name', 'ota', '--scopes', 'ota', '--partner', 'viator'], env))
      .stdout,
  );
  ota = key.Key;
  servers = await Promise.all([startServerProcess(database.url, { LOG_LEVEL: 'warn' }), startServerProcess(database.url, { LOG_LEVEL: 'warn' })]);
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await database.drop();
});

describe('two server processes, one database', () => {
  it('never overbooks: 200 concurrent bookings at a 50-seat slot', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const activity = await json(`${a.url}/api/v2/admin/activities`, admin, 'POST', {
      Name: 'Race Tour',
      DurationMinutes: 60,
      Timezone: 'Europe/Berlin',
      Currency: 'EUR',
      UnitPrice: 100,
      MaxParticipantsPerBooking: 4,
    });
    expect(activity.status).toBe(201);
    const ActivityID = activity.body.data.ActivityID;
    const date = futureDate(10);
    const slot = await json(`${a.url}/api/v2/admin/activities/${ActivityID}/timeslots`, admin, 'POST', { Date: date, Time: '10:00', Capacity: 50 });
    expect(slot.status).toBe(201);

    const requests = Array.from({ length: 200 }, (_, i) => ({ server: i % 2 === 0 ? a : b, participants: (i % 4) + 1 }));
    const results = await Promise.all(
      requests.map(async ({ server, participants }) => {
        const response = await json(`${server.url}/api/v2/ota/viator/booking`, ota, 'POST', {
          ActivityID,
          Date: date,
          Time: '10:00',
          Participants: participants,
          Customer: { FirstName: 'Race', LastName: 'Runner', Email: 'race@example.com', Phone: '+4915112345678' },
        });
        return { participants, status: response.status };
      }),
    );

    const confirmed = results.filter((r) => r.status === 201);
    const rejected = results.filter((r) => r.status !== 201);
    const seats = confirmed.reduce((sum, r) => sum + r.participants, 0);
    expect(rejected.every((r) => r.status === 409)).toBe(true);
    expect(seats).toBeLessThanOrEqual(50);
    // Seats only ever go down, so every rejected request must also be too large for what is left now.
    const left = 50 - seats;
    for (const r of rejected) expect(r.participants).toBeGreaterThan(left);
    expect(confirmed.length).toBeGreaterThan(10);

    // Both processes see the same, consistent availability.
    for (const server of servers) {
      const slots = await json(`${server.url}/api/v2/ota/viator/availability/${ActivityID}/timeslots?Date=${date}`, ota);
      expect(slots.body.data[0]).toMatchObject({ Capacity: 50, Booked: seats, Available: left });
    }
    const listed = await json(`${a.url}/api/v2/admin/bookings?From=${date}&To=${date}&Limit=500`, admin);
    const listedSeats = listed.body.data
      .filter((booking: { Status: string }) => booking.Status === 'confirmed')
      .reduce((sum: number, booking: { Participants: number }) => sum + booking.Participants, 0);
    expect(listedSeats).toBe(seats);
  }, 60_000);
});
