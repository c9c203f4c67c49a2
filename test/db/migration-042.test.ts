// Migration 042 on a database written by the version before it, where GetYourGuide's pushes had their own
// queue (gyg_pushes): the rows still queued move to the marketplaces' one queue under the channel
// `getyourguide` with their attempts, due time and last error, Viator's rows stay as they were, GYG's table
// is gone, and the shared sender then sends the moved push to GYG.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { openDatabase, type Db } from '../../src/db/connection.js';
import { migrate } from '../../src/db/migrate.js';
import { createOperator } from '../../src/operators/service.js';
import { sendDuePushes } from '../../src/marketplace-push/queue.js';
import { gygPushChannel, type PushTransport } from '../../src/getyourguide/push.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createTestDatabase, migrateBefore } from '../helpers/database.js';
import { admin, connect, day, mappedActivity, type Product } from '../getyourguide/fixtures.js';
import { nowMillis } from '../../src/lib/clock.js';

const cleanup: (() => Promise<unknown>)[] = [];
let db: Db;
let app: FastifyInstance;
let operatorId: number;
let product: Product;
let timeslots: number[];
const now = nowMillis();

beforeAll(async () => {
  const database = await createTestDatabase();
  cleanup.push(() => database.drop());
  db = openDatabase(database.config);
  cleanup.push(() => db.close());
  await migrateBefore(db, '042');
  // 042 moves rows and drops a table today's code no longer reads: today's app runs on the schema before it.
  app = await buildTestApp(db);
  await app.ready();
  cleanup.push(() => app.close());
  const created = await createOperator(db, 'Before 042');
  operatorId = created.operatorId;
  const t = { app, db } as TestApp;
  const op = { operatorId, adminKey: created.adminKey, otaKey: '', partner: '', usageKey: '' };
  await connect(t, op);
  await admin(t, op, 'PUT', '/api/v2/admin/getyourguide/outbound', { Username: 'gyg-issued', Password: 'issued secret' });
  product = await mappedActivity(t, op, 6, 5);
  await admin(t, op, 'POST', `/api/v2/admin/activities/${product.activityId}/timeslots`, { Date: day(5), Time: '12:00', Capacity: 6 });
  timeslots = (await db.kysely.selectFrom('timeslots').select('id').where('operator_id', '=', operatorId).orderBy('id').execute()).map(
    (row) => row.id,
  );
  expect(timeslots).toHaveLength(2);
  // As the version before 042 queued them: one due after two failures, one waiting for its back-off.
  await db.kysely.deleteFrom('marketplace_pushes').execute();
  await sql`INSERT INTO gyg_pushes (timeslot_id, operator_id, product_id, queued_at, attempts, next_attempt_at, last_error)
    VALUES (${timeslots[0]}, ${operatorId}, ${product.productId}, ${now - 60_000}, 2, ${now - 1_000}, 'HTTP 503'),
           (${timeslots[1]}, ${operatorId}, ${product.productId}, ${now - 30_000}, 1, ${now + 600_000}, 'HTTP 500')`.execute(db.kysely);
  await sql`INSERT INTO marketplace_pushes (channel, timeslot_id, operator_id, product_id, queued_at, attempts, next_attempt_at)
    VALUES ('viator', ${timeslots[0]}, ${operatorId}, 'viator-option', ${now - 5_000}, 0, ${now - 5_000})`.execute(db.kysely);
  await migrate(db);
});
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

const queued = () =>
  db.kysely
    .selectFrom('marketplace_pushes')
    .select(['channel', 'timeslot_id', 'operator_id', 'product_id', 'queued_at', 'attempts', 'next_attempt_at', 'last_error'])
    .orderBy('channel')
    .orderBy('timeslot_id')
    .execute();

describe('migration 042', () => {
  it("moves GetYourGuide's queued pushes to the shared queue as they were, and leaves Viator's", async () => {
    const rows = (await queued()).map((row) => ({ ...row, queued_at: Number(row.queued_at), next_attempt_at: Number(row.next_attempt_at) }));
    expect(rows).toEqual([
      {
        channel: 'getyourguide',
        timeslot_id: timeslots[0],
        operator_id: operatorId,
        product_id: product.productId,
        queued_at: now - 60_000,
        attempts: 2,
        next_attempt_at: now - 1_000,
        last_error: 'HTTP 503',
      },
      {
        channel: 'getyourguide',
        timeslot_id: timeslots[1],
        operator_id: operatorId,
        product_id: product.productId,
        queued_at: now - 30_000,
        attempts: 1,
        next_attempt_at: now + 600_000,
        last_error: 'HTTP 500',
      },
      {
        channel: 'viator',
        timeslot_id: timeslots[0],
        operator_id: operatorId,
        product_id: 'viator-option',
        queued_at: now - 5_000,
        attempts: 0,
        next_attempt_at: now - 5_000,
        last_error: null,
      },
    ]);
  });

  it("drops GetYourGuide's own table", async () => {
    await expect(sql`SELECT count(*) FROM gyg_pushes`.execute(db.kysely)).rejects.toThrow(/gyg_pushes/);
  });

  it('the shared sender sends the moved push that is due, and keeps the other for its back-off', async () => {
    const sent: { url: string; body: { data: { productId: string; availabilities: unknown[] } } }[] = [];
    const transport: PushTransport = async (url, init) => {
      sent.push({ url, body: JSON.parse(init.body) });
      return { status: 202, retryAfter: null };
    };
    const channel = gygPushChannel(app.instanceKeys, { gygApiUrl: 'http://gyg.invalid' }, transport);
    expect(await sendDuePushes(db, channel, { warn: () => undefined }, now)).toBe(1);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe('http://gyg.invalid/1/notify-availability-update');
    expect(sent[0]!.body.data.productId).toBe(product.productId);
    expect(sent[0]!.body.data.availabilities).toHaveLength(1);
    expect((await queued()).map((row) => `${row.channel} ${row.timeslot_id}`)).toEqual([`getyourguide ${timeslots[1]}`, `viator ${timeslots[0]}`]);
  });
});
