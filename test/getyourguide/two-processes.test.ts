// Two `slotbook serve` processes on one database: GetYourGuide's reserves (some of them retries of the same
// gygBookingReference, sent to either process) and partner bookings race for one timeslot. The seats held
// never exceed its capacity, retries answer one reservation, and availability then shows what is left.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { runCli, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { berlin, customer, day } from './fixtures.js';

let database: TestDatabase;
let servers: ServerProcess[] = [];
let admin: string;
let ota: string;

async function json(url: string, headers: Record<string, string>, method = 'GET', body?: unknown) {
  const response = await fetch(url, {
    method,
    headers: { ...headers, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

beforeAll(async () => {
  database = await createTestDatabase();
  const env = { DATABASE_URL: database.url, LOG_LEVEL: 'silent' };
  const operator = JSON.parse((await runCli(['operator', 'create', '--name', 'Race Tours'], env)).stdout);
  admin = operator.AdminKey;
  const key = JSON.parse(
    (await runCli(['key', 'create', '--operator', String(operator.OperatorID), '--name', 'ota', '--scopes', 'ota', '--partner', 'viator'], env))
      .stdout,
  );
  ota = key.Key;
  // Pushes go nowhere (a closed local port), never to GetYourGuide.
  const serverEnv = { LOG_LEVEL: 'warn', GYG_API_URL: 'http://127.0.0.1:9' };
  servers = await Promise.all([startServerProcess(database.url, serverEnv), startServerProcess(database.url, serverEnv)]);
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await database.drop();
});

describe('two server processes, one database', () => {
  it('never overbooks with GetYourGuide and the partner API racing, and retries answer one reservation', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const bearer = { authorization: `Bearer ${admin}` };
    const activity = await json(`${a.url}/api/v2/admin/activities`, bearer, 'POST', {
      Name: 'Race Tour',
      DurationMinutes: 60,
      Timezone: 'Europe/Berlin',
      Currency: 'EUR',
      UnitPrice: 100,
    });
    const ActivityID = activity.body.data.ActivityID;
    expect(
      (await json(`${a.url}/api/v2/admin/activities/${ActivityID}/timeslots`, bearer, 'POST', { Date: day(10), Time: '10:00', Capacity: 40 })).status,
    ).toBe(201);
    const connection = (await json(`${a.url}/api/v2/admin/getyourguide`, bearer, 'PATCH', { Enabled: true, SupplierID: 'race' })).body.data;
    await json(`${a.url}/api/v2/admin/getyourguide/products/${ActivityID}`, bearer, 'PUT', { ProductID: 'race-tour' });
    const basic = { authorization: `Basic ${Buffer.from(`${connection.Username}:${connection.Password}`).toString('base64')}` };

    const when = berlin(day(10));
    // 30 references, each sent twice (once to each process): 60 seats asked of GYG, 30 more of the partner API.
    const gygTries = Array.from({ length: 60 }, (_, i) =>
      json(`${(i % 2 === 0 ? a : b).url}/gyg/1/reserve/`, basic, 'POST', {
        data: {
          productId: 'race-tour',
          dateTime: when,
          bookingItems: [{ category: 'ADULT', count: 2 }],
          gygBookingReference: `GYGRACE${Math.floor(i / 2)}`,
        },
      }),
    );
    const partnerTries = Array.from({ length: 30 }, (_, i) =>
      json(`${(i % 2 === 0 ? b : a).url}/api/v2/ota/viator/booking`, { authorization: `Bearer ${ota}` }, 'POST', {
        ActivityID,
        Date: day(10),
        Time: '10:00',
        Participants: 1,
        Customer: customer,
      }),
    );
    const [gygAnswers, partnerAnswers] = await Promise.all([Promise.all(gygTries), Promise.all(partnerTries)]);

    const references = new Map<number, Set<string>>();
    for (const [i, answer] of gygAnswers.entries()) {
      expect(answer.status).toBe(200);
      if (answer.body.errorCode !== undefined) {
        expect(answer.body.errorCode).toBe('NO_AVAILABILITY');
        continue;
      }
      const pair = Math.floor(i / 2);
      references.set(pair, (references.get(pair) ?? new Set()).add(answer.body.data.reservationReference));
    }
    // Both tries of one reference, when both were granted, got the one reservation.
    for (const granted of references.values()) expect(granted.size).toBe(1);
    const gygSeats = 2 * references.size;
    const partnerSeats = partnerAnswers.filter((answer) => answer.status === 201).length;
    for (const answer of partnerAnswers) expect([201, 409]).toContain(answer.status);
    expect(gygSeats + partnerSeats).toBeLessThanOrEqual(40);
    expect(gygSeats + partnerSeats).toBeGreaterThanOrEqual(39);

    const range = `fromDateTime=${encodeURIComponent(berlin(day(10), '00:00'))}&toDateTime=${encodeURIComponent(berlin(day(10), '23:59'))}`;
    const availability = await json(`${b.url}/gyg/1/get-availabilities/?productId=race-tour&${range}`, basic);
    expect(availability.body.data.availabilities[0].vacancies).toBe(40 - gygSeats - partnerSeats);
    const timeslot = await json(`${a.url}/api/v2/admin/activities/${ActivityID}/timeslots?From=${day(10)}&To=${day(10)}`, bearer);
    expect(timeslot.status).toBe(200);
    expect(timeslot.body.data[0].Booked).toBe(gygSeats + partnerSeats);
  });
});
