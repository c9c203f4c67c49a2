// Migration 010 turns every activity that exists before it into one default ticket type Adult at its
// UnitPrice, and every booking into that many Adult tickets at the price it was sold at, holding one
// seat each: nothing that worked before changes.
import { sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { migrate } from '../../../src/db/migrate.js';
import { createApiKey } from '../../../src/auth/service.js';
import { buildTestApp, call } from '../../helpers/app.js';
import { createTestDatabase, migrateBefore } from '../../helpers/database.js';
import { openDatabase } from '../../../src/db/connection.js';
import { customer } from '../../octo/fixtures.js';
import { addSeconds, nowMillis, unixNow } from '../../../src/lib/clock.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

it('makes an activity created before ticket types one Adult type, and its bookings Adult tickets', async () => {
  // The schema as it was before migration 010, applied the way migrate() applies it.
  const database = await createTestDatabase();
  cleanup.push(() => database.drop());
  const db = openDatabase(database.config);
  cleanup.push(() => db.close());
  await migrateBefore(db, '010');
  // An operator as a row of the schema of the time (createOperator now also writes later tables).
  const { operatorId } = await db.kysely
    .insertInto('operators')
    .values({ name: 'Before ticket types', created_at: nowMillis() })
    .returning('id as operatorId')
    .executeTakeFirstOrThrow();
  const starts = addSeconds(unixNow(), 10 * 86_400);
  const date = new Date(starts * 1000).toISOString().slice(0, 10);
  // Rows as the service wrote them before 010 (raw SQL: the table types of today know the new columns).
  const ids = await db.write(async (tx) => {
    const activity = await sql<{
      id: number;
    }>`INSERT INTO activities (operator_id, public_id, name, description, duration_minutes, timezone, currency, unit_price, max_participants_per_booking, archived, updated_at)
      VALUES (${operatorId}, 's_beforeTickets01', 'Old Kayak', '', 60, 'UTC', 'EUR', 4500, 6, 0, ${Date.now()}) RETURNING id`.execute(tx);
    const activityId = activity.rows[0]!.id;
    const slot = await sql<{ id: number }>`INSERT INTO timeslots (operator_id, activity_id, date, time, starts_at, ends_at, capacity, booked)
      VALUES (${operatorId}, ${activityId}, ${date}, '10:00', ${starts - (starts % 86_400) + 36_000}, ${starts - (starts % 86_400) + 39_600}, 8, 5) RETURNING id`.execute(
      tx,
    );
    const slotId = slot.rows[0]!.id;
    const booking = (reference: string, participants: number, source: string) =>
      sql<{
        id: number;
      }>`INSERT INTO bookings (operator_id, reference, timeslot_id, status, source, partner, payment_reference, participants, customer_first_name, customer_last_name, customer_email, customer_phone, waiver_status, hold_expires_at, created_at, cancelled_at)
        VALUES (${operatorId}, ${reference}, ${slotId}, 'confirmed', ${source}, NULL, NULL, ${participants}, 'Ada', 'Lovelace', 'ada@example.com', '+441234567890', 'pending', NULL, ${Date.now()}, NULL) RETURNING id`.execute(
        tx,
      );
    const pos = (await booking('BK-KAYAK222', 3, 'pos')).rows[0]!.id;
    const online = (await booking('BK-KAYAK333', 2, 'online')).rows[0]!.id;
    const basket = await sql<{
      id: number;
    }>`INSERT INTO baskets (operator_id, token, status, currency, customer_first_name, customer_last_name, customer_email, customer_phone, created_at)
      VALUES (${operatorId}, 'tokentokentokentoken22', 'paid', 'EUR', 'Ada', 'Lovelace', 'ada@example.com', '+441234567890', ${Date.now()}) RETURNING id`.execute(
      tx,
    );
    // The online booking was sold at an older price, which its basket recorded.
    await sql`INSERT INTO basket_items (basket_id, booking_id, activity_name, unit_price, participants) VALUES (${basket.rows[0]!.id}, ${online}, 'Old Kayak', 4000, 2)`.execute(
      tx,
    );
    return { activityId, slotId, pos, online };
  });

  expect(await migrate(db)).toContain('010_ticket_types.sql');

  const types = await db.kysely.selectFrom('ticket_types').selectAll().where('activity_id', '=', ids.activityId).execute();
  expect(types.map((type) => [type.code, type.name, type.price, type.is_default, type.takes_seat, type.people])).toEqual([
    ['adult', 'Adult', 4500, 1, 1, 1],
  ]);
  const tickets = await db.kysely
    .selectFrom('booking_tickets')
    .select(['booking_id', 'code', 'quantity', 'unit_price', 'currency'])
    .orderBy('booking_id')
    .execute();
  expect(tickets).toEqual([
    { booking_id: ids.pos, code: 'adult', quantity: 3, unit_price: 4500, currency: 'EUR' },
    { booking_id: ids.online, code: 'adult', quantity: 2, unit_price: 4000, currency: 'EUR' },
  ]);
  const seats = await db.kysely.selectFrom('bookings').select(['reference', 'seats']).orderBy('id').execute();
  expect(seats.map((row) => [row.reference, Number(row.seats)])).toEqual([
    ['BK-KAYAK222', 3],
    ['BK-KAYAK333', 2],
  ]);
  const slot = await db.kysely.selectFrom('timeslots').select(['starts_at', 'bookable_until']).where('id', '=', ids.slotId).executeTakeFirstOrThrow();
  expect(Number(slot.bookable_until)).toBe(Number(slot.starts_at));

  const app = await buildTestApp(db);
  cleanup.push(() => app.close());
  await app.ready();
  const { key: admin } = await db.write((tx) => createApiKey(tx, operatorId, { name: 'Admin', scopes: ['admin'] }));
  const { key: ota } = await db.write((tx) => createApiKey(tx, operatorId, { name: 'OTA', scopes: ['ota'], partner: 'viator' }));
  const product = (await call(app, ota, 'GET', '/api/v2/ota/viator/products')).json().data[0];
  expect(product).toMatchObject({
    UnitPrice: 4500,
    AvailabilityType: 'start_time',
    TicketTypes: [{ Type: 'adult', Name: 'Adult', Price: 4500, Default: true }],
  });
  expect((await call(app, admin, 'GET', '/api/v2/admin/bookings/BK-KAYAK333')).json().data).toMatchObject({
    Participants: 2,
    Seats: 2,
    Total: 8000,
    Tickets: [{ Type: 'adult', Quantity: 2, UnitPrice: 4000 }],
  });
  // Bookings work as before: Participants books Adults, cancelling the old booking gives its seats back.
  const booked = await call(app, ota, 'POST', '/api/v2/ota/viator/booking', {
    ActivityID: 's_beforeTickets01',
    Date: date,
    Time: '10:00',
    Participants: 3,
    Customer: customer,
  });
  expect(booked.statusCode, booked.body).toBe(201);
  expect(
    (
      await call(app, ota, 'POST', '/api/v2/ota/viator/booking', {
        ActivityID: 's_beforeTickets01',
        Date: date,
        Time: '10:00',
        Participants: 1,
        Customer: customer,
      })
    ).statusCode,
  ).toBe(409);
  await call(app, admin, 'POST', '/api/v2/admin/bookings/BK-KAYAK222/cancel');
  const timeslots = (await call(app, ota, 'GET', `/api/v2/ota/viator/availability/s_beforeTickets01/timeslots?Date=${date}`)).json().data;
  expect(timeslots[0]).toMatchObject({ Capacity: 8, Booked: 5, Available: 3 });
});
