// Two `slotbook serve` processes on one database: Viator's reserves and bookings (each booking sent to both
// processes at once, as Viator's retry would), GetYourGuide's reserves and partner bookings race for one
// timeslot. The seats held never exceed its capacity, each hold is booked exactly once, and Viator's
// calendar then shows what every channel shows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { runCli, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { berlin } from '../getyourguide/fixtures.js';
import { bookingBody, customer, day, reserveBody, SUPPLIER_ID } from './fixtures.js';

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
    (await runCli(['key', 'create', '--operator', String(operator.OperatorID), '--name', 'ota', '--scopes', 'ota', '--partner', 'agency'], env))
      .stdout,
  );
  ota = key.Key;
  // Pushes go nowhere (a closed local port), never to Viator or GetYourGuide.
  const serverEnv = { LOG_LEVEL: 'warn', GYG_API_URL: 'http://127.0.0.1:9', VIATOR_API_URL: 'http://127.0.0.1:9' };
  servers = await Promise.all([startServerProcess(database.url, serverEnv), startServerProcess(database.url, serverEnv)]);
}, 240_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await database.drop();
});

describe('two server processes, one database', () => {
  it('never overbooks with Viator, GetYourGuide and the partner API racing, and books each hold once', { timeout: 120_000 }, async () => {
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
    const viator = (await json(`${a.url}/api/v2/admin/viator`, bearer, 'PATCH', { Enabled: true, SupplierID: String(SUPPLIER_ID) })).body.data;
    await json(`${b.url}/api/v2/admin/viator/products/${ActivityID}`, bearer, 'PUT', { ProductOptionID: 'race-tour' });
    const gyg = (await json(`${a.url}/api/v2/admin/getyourguide`, bearer, 'PATCH', { Enabled: true, SupplierID: 'race' })).body.data;
    await json(`${a.url}/api/v2/admin/getyourguide/products/${ActivityID}`, bearer, 'PUT', { ProductID: 'race-tour' });
    const key = { 'x-api-key': viator.Key };
    const basic = { authorization: `Basic ${Buffer.from(`${gyg.Username}:${gyg.Password}`).toString('base64')}` };

    // 15 Viator holds of 2, 10 GYG holds of 1, 15 partner bookings of 1: 55 seats asked of 40.
    const viatorTries = Array.from({ length: 15 }, (_, i) =>
      json(`${(i % 2 === 0 ? a : b).url}/viator/v2/reserve`, key, 'POST', reserveBody('race-tour', day(10))),
    );
    const gygTries = Array.from({ length: 10 }, (_, i) =>
      json(`${(i % 2 === 0 ? b : a).url}/gyg/1/reserve/`, basic, 'POST', {
        data: {
          productId: 'race-tour',
          dateTime: berlin(day(10)),
          bookingItems: [{ category: 'ADULT', count: 1 }],
          gygBookingReference: `GYGRACE${i}`,
        },
      }),
    );
    const partnerTries = Array.from({ length: 15 }, (_, i) =>
      json(`${(i % 2 === 0 ? b : a).url}/api/v2/ota/agency/booking`, { authorization: `Bearer ${ota}` }, 'POST', {
        ActivityID,
        Date: day(10),
        Time: '10:00',
        Participants: 1,
        Customer: customer,
      }),
    );
    const [viatorAnswers, gygAnswers, partnerAnswers] = await Promise.all([
      Promise.all(viatorTries),
      Promise.all(gygTries),
      Promise.all(partnerTries),
    ]);
    const holds = viatorAnswers.filter((answer) => answer.body.status === 'RESERVED').map((answer) => answer.body.reference as string);
    for (const answer of viatorAnswers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const granted =
      2 * holds.length + gygAnswers.filter((answer) => answer.body.data).length + partnerAnswers.filter((answer) => answer.status === 201).length;
    expect(granted).toBeLessThanOrEqual(40);
    expect(granted).toBeGreaterThanOrEqual(39);

    // Each hold booked through both processes at once: one confirmation each, the same answer from both.
    const bookings = await Promise.all(
      holds.flatMap((hold, i) =>
        [a, b].map((server) => json(`${server.url}/viator/booking`, key, 'POST', bookingBody('race-tour', day(10), `VTR-RACE-${i}`, hold))),
      ),
    );
    for (const [i, answer] of bookings.entries()) {
      expect(answer.body.data.TransactionStatus, JSON.stringify(answer.body)).toEqual({ Status: 'CONFIRMED' });
      expect(answer.body.data.SupplierConfirmationNumber).toBe(holds[Math.floor(i / 2)]);
    }

    const calendar = await json(`${b.url}/viator/v2/availability/calendar`, key, 'POST', {
      supplierId: SUPPLIER_ID,
      productOptionIds: ['race-tour'],
      startDate: day(10),
      endDate: day(10),
    });
    expect(calendar.body.productOptions[0].dates[0].events[0].capacity.remaining).toBe(40 - granted);
    const timeslot = await json(`${a.url}/api/v2/admin/activities/${ActivityID}/timeslots?From=${day(10)}&To=${day(10)}`, bearer);
    expect(timeslot.body.data[0].Booked).toBe(granted);
  });
});
