// Migration 038 on a database written by the version before it, where GetYourGuide's own bookings and a
// partner-API key's bookings of the marketplace `getyourguide` shared the partner name: GYG's (those with
// a gyg_bookings row) move under `GetYourGuide`; the key's stay, and the key keeps working, seeing its own.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { openDatabase, type Db } from '../../src/db/connection.js';
import { migrate } from '../../src/db/migrate.js';
import { createOperator } from '../../src/operators/service.js';
import { createApiKey } from '../../src/auth/service.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createTestDatabase } from '../helpers/database.js';
import { berlin, bookBody, connect, customer, day, mappedActivity, reserveBody } from '../getyourguide/fixtures.js';

const cleanup: (() => Promise<unknown>)[] = [];
let db: Db;
let app: FastifyInstance;
let key: string;
let gygReference: string;
let keyReference: string;

beforeAll(async () => {
  const database = await createTestDatabase();
  cleanup.push(() => database.drop());
  db = openDatabase(database.config);
  cleanup.push(() => db.close());
  // 038 changes data only: today's app writes the rows on today's schema, the rows are set back to what the
  // version before 038 wrote, and 038 alone runs again over them (later migrations add tables today's app needs).
  await migrate(db);
  app = await buildTestApp(db);
  await app.ready();
  cleanup.push(() => app.close());
  const { operatorId, adminKey } = await createOperator(db, 'Before 038');
  const t = { app, db } as TestApp;
  const op = { operatorId, adminKey, otaKey: '', partner: '', usageKey: '' };
  const gyg = await connect(t, op);
  const product = await mappedActivity(t, op, 10);
  key = (await db.write((tx) => createApiKey(tx, operatorId, { name: 'GYG', scopes: ['ota'], partner: 'getyourguide' }))).key;

  const reserved = await gyg('POST', 'reserve', 'reserve/', reserveBody(product.productId, berlin(day(3)), 'GYG-038'));
  const booked = await gyg('POST', 'book', 'book/', bookBody(product.productId, berlin(day(3)), 'GYG-038', reserved.data.reservationReference));
  gygReference = booked.data.tickets[0].ticketCode;
  const made = await app.inject({
    method: 'POST',
    url: '/api/v2/ota/getyourguide/booking',
    headers: { authorization: `Bearer ${key}` },
    payload: { ActivityID: product.activityId, Date: day(3), Time: '10:00', Participants: 1, Customer: customer },
  });
  expect(made.statusCode, made.body).toBe(201);
  keyReference = made.json().data.BookingReference;
  // As the version before 038 wrote GYG's booking: under the key's marketplace name.
  await db.kysely.updateTable('bookings').set({ partner: 'getyourguide' }).where('reference', '=', gygReference).execute();
  expect(await partners()).toEqual({ [gygReference]: 'getyourguide', [keyReference]: 'getyourguide' });
  await sql`DELETE FROM schema_migrations WHERE name LIKE '038_%'`.execute(db.kysely);
  expect(await migrate(db)).toEqual(['038_native_channel_partners.sql']);
});
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

async function partners(): Promise<Record<string, string | null>> {
  const rows = await db.kysely.selectFrom('bookings').select(['reference', 'partner']).execute();
  return Object.fromEntries(rows.map((row) => [row.reference, row.partner]));
}

const asKey = (reference: string) =>
  app.inject({ method: 'GET', url: `/api/v2/ota/getyourguide/booking/${reference}`, headers: { authorization: `Bearer ${key}` } });

describe('migration 038', () => {
  it("moves GetYourGuide's own bookings under its name and leaves the key's", async () => {
    expect(await partners()).toEqual({ [gygReference]: 'GetYourGuide', [keyReference]: 'getyourguide' });
  });

  it('the key keeps working at the same address, for its own bookings only', async () => {
    expect((await asKey(keyReference)).statusCode).toBe(200);
    expect((await asKey(gygReference)).statusCode).toBe(404);
  });
});
