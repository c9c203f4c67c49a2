// Migration 008 on a database written by the version before it: idempotency records keep answering their
// retries (per operator, as they were written) until they lapse, except the shop's, which are deleted; the
// shops in use stay open; waitlist addresses are folded, later duplicates removed, earlier places kept as
// confirmed; OCTo uuids become the reseller's own.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createApiKey, type KeyRequest } from '../../src/auth/service.js';
import { openDatabase, type Db } from '../../src/db/connection.js';
import { migrate } from '../../src/db/migrate.js';
import { buildTestApp, call } from '../helpers/app.js';
import { createTestDatabase, insertRawRows, migrateBefore } from '../helpers/database.js';
import { nowMillis } from '../../src/lib/clock.js';

const cleanup: (() => Promise<unknown>)[] = [];
let db: Db;
let app: FastifyInstance;
let ota: string;
let usageKey: string;
let shopper: { operatorId: number };
let quiet: { operatorId: number };
let activityId: string;
let bookingBody: Record<string, unknown>;
const date = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
const sha256 = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');
const legacyRecords = async () =>
  (await db.kysely.selectFrom('idempotency_keys_before_008').select('idempotency_key').execute()).map((r) => r.idempotency_key);

const newKey = async (operatorId: number, request: KeyRequest) => (await db.write((tx) => createApiKey(tx, operatorId, request))).key;

const insertRows = (table: string, rows: Record<string, unknown>[]) => insertRawRows(db, table, rows);

beforeAll(async () => {
  const database = await createTestDatabase();
  cleanup.push(() => database.drop());
  db = openDatabase(database.config);
  cleanup.push(() => db.close());
  await migrateBefore(db, '008');

  // Written by the version before 008: two operators, one whose shop was in use.
  // Operators as rows of the schema of the time (the service's own createOperator writes later tables).
  const addOperator = (name: string) =>
    db.kysely.insertInto('operators').values({ name, created_at: nowMillis() }).returning('id as operatorId').executeTakeFirstOrThrow();
  const operator = await addOperator('Before 008');
  shopper = { operatorId: operator.operatorId };
  quiet = { operatorId: (await addOperator('Never sold online')).operatorId };
  // The activity as the version before 008 stored it (the service's own createActivity writes later tables).
  activityId = 's_OldTour0000000001';
  await insertRows('activities', [
    {
      operator_id: operator.operatorId,
      public_id: activityId,
      name: 'Old Tour',
      description: '',
      duration_minutes: 60,
      timezone: 'UTC',
      currency: 'EUR',
      unit_price: 100,
      max_participants_per_booking: 20,
      archived: 0,
      updated_at: nowMillis(),
    },
  ]);
  const activity = await db.kysely.selectFrom('activities').select('id').where('public_id', '=', activityId).executeTakeFirstOrThrow();
  const startsAt = Math.floor(Date.parse(`${date}T12:00:00Z`) / 1000);
  await insertRows('timeslots', [
    {
      operator_id: operator.operatorId,
      activity_id: activity.id,
      date,
      time: '12:00',
      starts_at: startsAt,
      ends_at: startsAt + 3600,
      capacity: 10,
      booked: 2,
    },
  ]);
  const timeslotId = (await db.kysely.selectFrom('timeslots').select('id').executeTakeFirstOrThrow()).id;
  const now = Date.now();
  const booking = (reference: string, partner: string) => ({
    operator_id: operator.operatorId,
    reference,
    timeslot_id: timeslotId,
    status: 'on_hold',
    source: 'partner',
    partner,
    payment_reference: null,
    participants: 1,
    customer_first_name: 'Old',
    customer_last_name: 'Guest',
    customer_email: 'old@example.com',
    customer_phone: '+441234567890',
    waiver_status: 'pending',
    hold_expires_at: Math.floor(now / 1000) + 1800,
    created_at: now,
    cancelled_at: null,
  });
  await insertRows('bookings', [booking('BK-AAAAAAAA', 'viator'), booking('BK-BBBBBBBB', 'viator')]);
  const bookingIds = (await db.kysely.selectFrom('bookings').select(['id', 'reference']).orderBy('id').execute()).map((r) => r.id);
  const uuid = '0b9a3c8e-1d2f-4a5b-9c6d-7e8f9a0b1c2d';
  await insertRows('octo_bookings', [
    {
      booking_id: bookingIds[0],
      operator_id: operator.operatorId,
      uuid,
      notes: null,
      unit_items: '[]',
      cancel_reason: null,
      confirmed_at: null,
      updated_at: now,
    },
  ]);
  await insertRows('baskets', [
    {
      operator_id: operator.operatorId,
      token: 'AAAAAAAAAAAAAAAAAAAAAA',
      status: 'paid',
      currency: 'EUR',
      customer_first_name: 'A',
      customer_last_name: 'B',
      customer_email: 'a@example.com',
      customer_phone: '+441234567890',
      waitlist_entry_id: null,
      payment_reference: null,
      created_at: now,
      paid_at: now,
    },
  ]);
  const entry = (email: string, id: number) => ({
    operator_id: operator.operatorId,
    timeslot_id: timeslotId,
    participants: 1,
    customer_first_name: 'W',
    customer_last_name: 'X',
    customer_email: email,
    customer_phone: '+441234567890',
    status: 'waiting',
    basket_id: null,
    offer_expires_at: null,
    created_at: now + id,
    notified_at: null,
  });
  await insertRows('waitlist_entries', [entry('Ann@Example.com', 1), entry('ann@example.com', 2), entry('Ben@Example.com', 3)]);

  // Idempotency records as the version before 008 wrote them: per operator, SHA-256 fingerprints.
  bookingBody = {
    ActivityID: activityId,
    Date: date,
    Time: '12:00',
    Participants: 1,
    Customer: { FirstName: 'Old', LastName: 'Guest', Email: 'old@example.com', Phone: '+441234567890' },
  };
  const record = (key: string, hash: string, body: unknown, location: string | null, createdAt = now) => ({
    operator_id: operator.operatorId,
    idempotency_key: key,
    request_hash: hash,
    status_code: 201,
    response_body: JSON.stringify(body),
    response_location: location,
    created_at: createdAt,
  });
  const storedBooking = {
    BookingReference: 'BK-BBBBBBBB',
    Status: 'confirmed',
    Source: 'partner',
    Partner: 'viator',
    PaymentReference: null,
    ActivityID: activityId,
    Date: date,
    Time: '12:00',
    StartsAt: `${date}T12:00:00+00:00`,
    Participants: 1,
    Customer: bookingBody.Customer,
    WaiverStatus: 'pending',
    HoldExpiresAt: null,
    CreatedAt: new Date(now).toISOString(),
  };
  await insertRows('idempotency_keys', [
    record(
      'old-booking',
      sha256(['POST', '/api/v2/ota/:partner/booking', { partner: 'viator' }, bookingBody]),
      { data: storedBooking },
      '/api/v2/ota/viator/booking/BK-BBBBBBBB',
    ),
    record(
      'old-usage',
      sha256(['POST', '/api/v2/usage/meters', {}, { Meter: 'calls', Usage: 1 }]),
      { data: { ID: 4242, Meter: 'calls', Usage: 1, OccurredAt: Math.floor(now / 1000) } },
      '/api/v2/usage/entries/4242',
    ),
    record(
      'stale',
      sha256(['POST', '/api/v2/usage/meters', {}, { Meter: 'calls', Usage: 2 }]),
      { data: { ID: 1, Meter: 'calls', Usage: 2, OccurredAt: Math.floor(now / 1000) } },
      null,
      now - 25 * 3600_000,
    ),
    record(
      `shop:1:${'a'.repeat(64)}`,
      sha256(['checkout', 'AAAAAAAAAAAAAAAAAAAAAA', { Payment: { Provider: 'test', CardNumber: '4242424242424242' } }]),
      { data: { BasketToken: 'AAAAAAAAAAAAAAAAAAAAAA' } },
      null,
    ),
  ]);

  expect(await migrate(db)).toContain('008_shop_abuse.sql');
  // Keys made after the upgrade: what they are is not the point here, only who holds them.
  ota = await newKey(operator.operatorId, { name: 'OTA', scopes: ['ota'], partner: 'viator' });
  usageKey = await newKey(operator.operatorId, { name: 'Usage', scopes: ['usage:write', 'usage:read'] });
  app = await buildTestApp(db);
  cleanup.push(() => app.close());
  await app.ready();
});
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

describe('idempotency records written before the upgrade', () => {
  it('answer their retries until they lapse: a partner booking to its own marketplace, a usage entry to the same request', async () => {
    const retry = await call(app, ota, 'POST', '/api/v2/ota/viator/booking', bookingBody, { 'idempotency-key': 'old-booking' });
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().data).toMatchObject({ BookingReference: 'BK-BBBBBBBB', Partner: 'viator' });
    expect(retry.headers.location).toBe('/api/v2/ota/viator/booking/BK-BBBBBBBB');
    const usage = await call(app, usageKey, 'POST', '/api/v2/usage/meters', { Meter: 'calls', Usage: 1 }, { 'idempotency-key': 'old-usage' });
    expect(usage.headers['idempotent-replayed'], usage.body).toBe('true');
    expect(usage.json().data?.ID, usage.body).toBe(4242);
  });

  it('never answer another marketplace, nor another request (that one is simply new), nor once lapsed', async () => {
    const demo = await newKey(shopper.operatorId, { name: 'Demo', scopes: ['ota'], partner: 'demo' });
    const other = await call(app, demo, 'POST', '/api/v2/ota/demo/booking', bookingBody, { 'idempotency-key': 'old-booking' });
    expect(other.statusCode, other.body).toBe(201);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    const changed = await call(app, usageKey, 'POST', '/api/v2/usage/meters', { Meter: 'calls', Usage: 7 }, { 'idempotency-key': 'old-usage' });
    expect(changed.statusCode).toBe(201);
    expect(changed.headers['idempotent-replayed']).toBeUndefined();
    const stale = await call(app, usageKey, 'POST', '/api/v2/usage/meters', { Meter: 'calls', Usage: 2 }, { 'idempotency-key': 'stale' });
    expect(stale.headers['idempotent-replayed']).toBeUndefined();
  });

  it("the shop's, whose fingerprints held card numbers, are gone; the others stay until purged", async () => {
    expect((await legacyRecords()).sort()).toEqual(['old-booking', 'old-usage', 'stale']);
    const { purgeExpiredKeys } = await import('../../src/idempotency/service.js');
    await purgeExpiredKeys(db);
    expect((await legacyRecords()).sort()).toEqual(['old-booking', 'old-usage']);
  });
});

describe('the rest of the data written before the upgrade', () => {
  it('keeps open the shops that were in use, and closes the others', async () => {
    expect(
      (
        await call(app, undefined, 'POST', `/api/v2/shop/${shopper.operatorId}/baskets`, {
          Customer: { FirstName: 'A', LastName: 'B', Email: 'a@example.com', Phone: '+441234567890' },
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (
        await call(app, undefined, 'POST', `/api/v2/shop/${quiet.operatorId}/baskets`, {
          Customer: { FirstName: 'A', LastName: 'B', Email: 'a@example.com', Phone: '+441234567890' },
        })
      ).statusCode,
    ).toBe(404);
  });

  it('folds waitlist addresses, removes the later of two that differed in case, and keeps the places as confirmed', async () => {
    const rows = await db.kysely
      .selectFrom('waitlist_entries')
      .select(['customer_email', 'status', 'confirmed_at', 'created_at'])
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.customer_email, r.status])).toEqual([
      ['ann@example.com', 'waiting'],
      ['ann@example.com', 'removed'],
      ['ben@example.com', 'waiting'],
    ]);
    expect(rows.every((r) => Number(r.confirmed_at) === Number(r.created_at))).toBe(true);
  });

  it("makes OCTo uuids the reseller's own: the old booking keeps its uuid, another reseller may use it too", async () => {
    const [row] = await db.kysely.selectFrom('octo_bookings').selectAll().execute();
    expect(row).toMatchObject({ partner: 'viator', uuid: '0b9a3c8e-1d2f-4a5b-9c6d-7e8f9a0b1c2d' });
    const viator = await call(app, ota, 'GET', `/octo/bookings/${row!.uuid}`);
    expect(viator.statusCode, viator.body).toBe(200);
    const gyg = await newKey(shopper.operatorId, { name: 'GYG', scopes: ['ota'], partner: 'getyourguide' });
    const slot = (await call(app, gyg, 'POST', '/octo/availability', { productId: activityId, optionId: 'DEFAULT', localDate: date })).json()[0];
    const reserved = await call(app, gyg, 'POST', '/octo/bookings', {
      uuid: row!.uuid,
      productId: activityId,
      optionId: 'DEFAULT',
      availabilityId: slot.id,
      unitItems: [{ unitId: 'adult' }],
    });
    expect(reserved.statusCode, reserved.body).toBe(200);
    expect(reserved.json().id).not.toBe('BK-AAAAAAAA');
  });
});
