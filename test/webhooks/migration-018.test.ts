// Migration 018 on deliveries written by the version before it, which kept every attempt in
// webhook_attempts: each delivery's latest attempt moves onto its row (with the start of its answer), the
// earlier ones stay, and the delivery reads the same through the API afterwards.
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/connection.js';
import { migrate } from '../../src/db/migrate.js';
import { createTestDatabase, insertRawRows, migrateBefore } from '../helpers/database.js';
import { nowMillis } from '../../src/lib/clock.js';

const cleanup: (() => Promise<unknown>)[] = [];
let db: Db;

const insert = (table: string, row: Record<string, unknown>) => insertRawRows(db, table, [row]);

beforeAll(async () => {
  const database = await createTestDatabase();
  cleanup.push(() => database.drop());
  db = openDatabase(database.config);
  cleanup.push(() => db.close());
  await migrateBefore(db, '018');
  const { id: operatorId } = await db.kysely
    .insertInto('operators')
    .values({ name: 'Before 018', created_at: nowMillis() })
    .returning('id')
    .executeTakeFirstOrThrow();
  await insert('webhook_endpoints', {
    id: 1,
    operator_id: operatorId,
    url: 'https://hooks.example.com/in',
    description: '',
    event_types: '*',
    status: 'enabled',
    secret_sealed: 'v1.sealed',
    created_at: 1,
    updated_at: 1,
  });
  for (const id of [1, 2, 3]) {
    await insert('webhook_events', {
      id,
      public_id: `evt_${id}`,
      operator_id: operatorId,
      type: 'booking.created',
      resource: `booking:BK-${id}`,
      data: '{}',
      created_at: 1,
    });
  }
  const delivery = (id: number, status: string, attempts: number, last: [number, number | null, string | null] | null) =>
    insert('webhook_deliveries', {
      id,
      operator_id: operatorId,
      endpoint_id: 1,
      event_id: id,
      resource: `booking:BK-${id}`,
      status,
      attempts,
      next_attempt_at: 100,
      last_attempt_at: last?.[0] ?? null,
      last_status_code: last?.[1] ?? null,
      last_duration_ms: last ? 12 : null,
      last_error: last && last[1] !== 204 ? `HTTP ${last[1]}` : null,
      created_at: 1,
      delivered_at: status === 'delivered' ? last![0] : null,
    });
  const attempt = (deliveryId: number, at: number, status: number, body: string | null) =>
    insert('webhook_attempts', {
      delivery_id: deliveryId,
      attempted_at: at,
      status_code: status,
      duration_ms: 12,
      error: status === 204 ? null : `HTTP ${status}`,
      response_body: body,
    });
  // 1: failed twice, then delivered; 2: failed once, waiting for its retry; 3: never attempted.
  await delivery(1, 'delivered', 3, [3000, 204, 'thanks']);
  await attempt(1, 1000, 500, 'oops 1');
  await attempt(1, 2000, 500, 'oops 2');
  await attempt(1, 3000, 204, 'thanks');
  await delivery(2, 'pending', 1, [1500, 503, 'busy']);
  await attempt(2, 1500, 503, 'busy');
  await delivery(3, 'pending', 0, null);
  await migrate(db);
});
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

it("moves each delivery's latest attempt onto its row and keeps the earlier ones", async () => {
  const deliveries = await db.kysely
    .selectFrom('webhook_deliveries')
    .select(['id', 'last_attempt_at', 'last_status_code', 'last_response_body'])
    .orderBy('id')
    .execute();
  expect(deliveries.map((d) => [Number(d.id), Number(d.last_attempt_at) || null, d.last_status_code, d.last_response_body])).toEqual([
    [1, 3000, 204, 'thanks'],
    [2, 1500, 503, 'busy'],
    [3, null, null, null],
  ]);
  const attempts = await db.kysely.selectFrom('webhook_attempts').select(['delivery_id', 'attempted_at', 'response_body']).orderBy('id').execute();
  expect(attempts.map((a) => [Number(a.delivery_id), Number(a.attempted_at), a.response_body])).toEqual([
    [1, 1000, 'oops 1'],
    [1, 2000, 'oops 2'],
  ]);
});

it('indexes only live deliveries for the queue: settled ones leave those indexes', async () => {
  const definitions =
    db.dialect === 'postgres'
      ? (
          await sql<{
            name: string;
            definition: string;
          }>`SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE tablename = 'webhook_deliveries'`.execute(db.kysely)
        ).rows
      : (
          await sql<{
            name: string;
            definition: string;
          }>`SELECT name, sql AS definition FROM sqlite_master WHERE type = 'index' AND tbl_name = 'webhook_deliveries' AND sql IS NOT NULL`.execute(
            db.kysely,
          )
        ).rows;
  const where = (name: string) =>
    definitions
      .find((d) => d.name === name)
      ?.definition.replace(/.*WHERE /is, '')
      .replace(/[()'"]|::text(\[\])?/g, '');
  expect(where('webhook_deliveries_due')).toMatch(/^status = pending$/);
  expect(where('webhook_deliveries_claimed')).toMatch(/^status = sending$/);
  expect(where('webhook_deliveries_order')).toMatch(/^status (IN|= ANY) (ARRAY\[)?pending, sending\]?$/);
});
