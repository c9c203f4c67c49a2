// Two `slotbook serve` processes on one database moving bookings into the last seats of a timeslot at
// once (issue 26, item 1): exactly as many moves as fit succeed (200), the rest are 409 with the booking
// where it was, and no timeslot is ever overbooked; the seats of every booking are counted exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { runCli, startServerProcess, type ServerProcess } from '../helpers/server-process.js';

let database: TestDatabase;
let servers: ServerProcess[] = [];
let admin: string;

async function json(url: string, method = 'GET', body?: unknown) {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${admin}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json().catch(() => null) };
}

const futureDate = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  database = await createTestDatabase();
  const env = { DATABASE_URL: database.url, LOG_LEVEL: 'silent' };
  admin = JSON.parse((await runCli(['operator', 'create', '--name', 'Move Kayaks'], env)).stdout).AdminKey;
  servers = await Promise.all([startServerProcess(database.url, { LOG_LEVEL: 'warn' }), startServerProcess(database.url, { LOG_LEVEL: 'warn' })]);
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await database.drop();
});

describe('two server processes rescheduling into the last seats', () => {
  it('moves exactly what fits; every other move is 409 and leaves its booking where it was', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const activity = await json(`${a.url}/api/v2/admin/activities`, 'POST', {
      Name: 'Move Tour',
      DurationMinutes: 60,
      Timezone: 'Europe/Berlin',
      Currency: 'EUR',
      UnitPrice: 100,
    });
    expect(activity.status, JSON.stringify(activity.body)).toBe(201);
    const ActivityID = activity.body.data.ActivityID;
    const date = futureDate(9);
    const times = ['09:00', '11:00', '13:00'];
    const ids: Record<string, number> = {};
    for (const [Time, Capacity] of [...times.map((time) => [time, 20] as const), ['15:00', 7] as const]) {
      const slot = await json(`${a.url}/api/v2/admin/activities/${ActivityID}/timeslots`, 'POST', { Date: date, Time, Capacity });
      expect(slot.status).toBe(201);
      ids[Time] = slot.body.data.ID;
    }
    // 30 bookings of 1 or 2 seats on the three morning timeslots, then all of them move to 15:00 (7 seats).
    const bookings: { reference: string; seats: number; time: string }[] = [];
    for (let i = 0; i < 30; i++) {
      const time = times[i % 3]!;
      const seats = (i % 2) + 1;
      const made = await json(`${(i % 2 === 0 ? a : b).url}/api/v2/admin/bookings`, 'POST', {
        ActivityID,
        Date: date,
        Time: time,
        Participants: seats,
        Customer: { FirstName: 'Move', LastName: 'Runner', Email: 'move@example.com', Phone: '+4915112345678' },
      });
      expect(made.status).toBe(201);
      bookings.push({ reference: made.body.data.BookingReference, seats, time });
    }
    const answers = await Promise.all(
      bookings.map(async (booking, i) => {
        const moved = await json(`${(i % 2 === 0 ? b : a).url}/api/v2/admin/bookings/${booking.reference}/reschedule`, 'POST', {
          Date: date,
          Time: '15:00',
        });
        return { ...booking, status: moved.status };
      }),
    );
    expect(answers.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true);
    const movedSeats = answers.filter((answer) => answer.status === 200).reduce((sum, answer) => sum + answer.seats, 0);
    expect(movedSeats).toBeLessThanOrEqual(7);
    // Seats only go down at 15:00: every refused move must be too large for what is left now.
    const left = 7 - movedSeats;
    for (const refused of answers.filter((answer) => answer.status === 409)) expect(refused.seats).toBeGreaterThan(left);

    // Read back: each booking is where its answer says, and every timeslot counts exactly its bookings.
    const expected: Record<string, number> = { '09:00': 0, '11:00': 0, '13:00': 0, '15:00': 0 };
    for (const answer of answers) {
      const read = await json(`${a.url}/api/v2/admin/bookings/${answer.reference}`);
      const where = answer.status === 200 ? '15:00' : answer.time;
      expect(read.body.data.Time).toBe(where);
      expected[where]! += answer.seats;
    }
    for (const [time, seats] of Object.entries(expected)) {
      const slot = await json(`${b.url}/api/v2/admin/timeslots/${ids[time]}`);
      expect(slot.body.data.Booked, time).toBe(seats);
    }
  });
});
