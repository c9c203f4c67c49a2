// The Idempotency-Key rules of the contract that hold for both idempotent POSTs (booking, usage).
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { startServerProcess } from '../helpers/server-process.js';
import { addMillis, nowMillis } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;
const guest = { FirstName: 'Cross', LastName: 'Route', Email: 'cross@example.com', Phone: '+4915112345678' };
let day = 2;

/** A new activity with a timeslot at 12:00 on a date of its own. */
async function bookable(Name: string) {
  const activity = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/activities', {
    Name,
    DurationMinutes: 60,
    Timezone: 'UTC',
    Currency: 'EUR',
    UnitPrice: 100,
  });
  const ActivityID = activity.json().data.ActivityID as string;
  const date = new Date(Date.now() + day++ * 86_400_000).toISOString().slice(0, 10);
  expect(
    (await call(t.app, op.adminKey, 'POST', `/api/v2/admin/activities/${ActivityID}/timeslots`, { Date: date, Time: '12:00', Capacity: 50 }))
      .statusCode,
  ).toBe(201);
  return { ActivityID, date };
}
const usage = (key: string, body: unknown, headers: Record<string, string>) => call(t.app, key, 'POST', '/api/v2/usage/meters', body, headers);

async function entries(operatorId: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM usage_entries WHERE operator_id = ${operatorId}`.execute(t.db.kysely);
  return Number(rows[0]!.n);
}

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  other = await t.newOperator();
});
afterAll(() => t.close());

describe('Idempotency-Key', () => {
  it('must be 1 to 255 characters: a longer key is a 422 on the field Idempotency-Key, and nothing is written', async () => {
    const problem = problemOf(await usage(op.usageKey, { Meter: 'm', Usage: 1 }, { 'idempotency-key': 'k'.repeat(256) }), 422, 'validation');
    expect(problem.errors).toEqual([{ field: 'Idempotency-Key', message: expect.stringMatching(/255/) }]);
    expect(await entries(op.operatorId)).toBe(0);
    expect((await usage(op.usageKey, { Meter: 'm', Usage: 1 }, { 'idempotency-key': 'k'.repeat(255) })).statusCode).toBe(201);
  });

  it('answers a concurrent duplicate with 409 idempotency-in-flight and writes once', async () => {
    const headers = { 'idempotency-key': 'concurrent-1' };
    const body = { Meter: 'concurrent', Usage: 2 };
    const before = await entries(op.operatorId);
    const responses = await Promise.all([usage(op.usageKey, body, headers), usage(op.usageKey, body, headers), usage(op.usageKey, body, headers)]);
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses[0]).toBe(201);
    for (const response of responses.filter((r) => r.statusCode !== 201)) problemOf(response, 409, 'idempotency-in-flight');
    expect(responses.filter((r) => r.statusCode === 201 && r.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    expect(await entries(op.operatorId)).toBe(before + 1);
    // Once the first has finished, a retry replays it.
    const retry = await usage(op.usageKey, body, headers);
    expect(retry.headers['idempotent-replayed']).toBe('true');
  });

  it("is scoped to the operator: another operator's same key is a separate request", async () => {
    const headers = { 'idempotency-key': 'shared-name' };
    const mine = await usage(op.usageKey, { Meter: 'scoped', Usage: 1 }, headers);
    const theirs = await usage(other.usageKey, { Meter: 'scoped', Usage: 5 }, headers);
    expect(mine.statusCode).toBe(201);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json().data.Usage).toBe(5);
  });

  it('is scoped to the route: the same key on another route is another request', async () => {
    const headers = { 'idempotency-key': 'cross-route' };
    expect((await usage(op.usageKey, { Meter: 'cross', Usage: 1 }, headers)).statusCode).toBe(201);
    const batch = await call(t.app, op.usageKey, 'POST', '/api/v2/usage/meters/batch', { Entries: [{ Meter: 'cross', Usage: 2 }] }, headers);
    expect(batch.statusCode, batch.body).toBe(201);
    expect(batch.headers['idempotent-replayed']).toBeUndefined();
    const { ActivityID, date } = await bookable('Cross Tour');
    const booking = await call(
      t.app,
      op.otaKey,
      'POST',
      '/api/v2/ota/viator/booking',
      { ActivityID, Date: date, Time: '12:00', Participants: 1, Customer: guest },
      headers,
    );
    expect(booking.statusCode, booking.body).toBe(201);
    problemOf(await usage(op.usageKey, { Meter: 'cross', Usage: 9 }, headers), 422, 'idempotency-key-reuse'); // same route, another body
  });

  it('keeps a key 24 hours: after that the same key is a new request', async () => {
    const headers = { 'idempotency-key': 'day-old' };
    const body = { Meter: 'expiry', Usage: 1 };
    const first = await usage(op.usageKey, body, headers);
    await t.db.kysely
      .updateTable('idempotency_keys')
      .set({ created_at: addMillis(nowMillis(), -(24 * 60 * 60 * 1000 + 1000)) })
      .where('idempotency_key', '=', 'day-old')
      .execute();
    const later = await usage(op.usageKey, body, headers);
    expect(later.statusCode).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(later.json().data.ID).not.toBe(first.json().data.ID);
  });
});

describe("Idempotency-Key belongs to its holder (the review's collisions)", () => {
  it('two marketplaces of one operator never collide: each order-77 is its own booking', async () => {
    const { ActivityID, date } = await bookable('Two Markets');
    const demo = (await call(t.app, op.adminKey, 'POST', '/api/v2/admin/keys', { Name: 'Demo', Scopes: ['ota'], Partner: 'demo' })).json().data.Key;
    const body = { ActivityID, Date: date, Time: '12:00', Participants: 1, Customer: guest };
    const headers = { 'idempotency-key': 'order-77' };
    const first = await call(t.app, demo, 'POST', '/api/v2/ota/demo/booking', body, headers);
    const second = await call(t.app, op.otaKey, 'POST', '/api/v2/ota/viator/booking', body, headers);
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.json().data.BookingReference).not.toBe(first.json().data.BookingReference);
    expect(second.json().data.Partner).toBe('viator');
  });

  it('a retry through a rotated key of the same marketplace replays', async () => {
    const { ActivityID, date } = await bookable('Rotation');
    const body = { ActivityID, Date: date, Time: '12:00', Participants: 2, Customer: guest };
    const headers = { 'idempotency-key': 'rotate-1' };
    const first = await call(t.app, op.otaKey, 'POST', '/api/v2/ota/viator/booking', body, headers);
    const rotated = (await call(t.app, op.adminKey, 'POST', '/api/v2/admin/keys', { Name: 'Viator 2', Scopes: ['ota'], Partner: 'viator' })).json()
      .data.Key;
    const retry = await call(t.app, rotated, 'POST', '/api/v2/ota/viator/booking', body, headers);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
  });

  it("another API key posting the same usage body with the same key gets its own entry, never the other's", async () => {
    const body = { Meter: 'holder-scope', Usage: 3 };
    const headers = { 'idempotency-key': 'usage-shared' };
    const before = await entries(op.operatorId);
    const fromUsageKey = await usage(op.usageKey, body, headers);
    const fromAdmin = await usage(op.adminKey, body, headers);
    expect([fromUsageKey.statusCode, fromAdmin.statusCode]).toEqual([201, 201]);
    expect(fromAdmin.headers['idempotent-replayed']).toBeUndefined();
    expect(fromAdmin.json().data.ID).not.toBe(fromUsageKey.json().data.ID);
    expect(await entries(op.operatorId)).toBe(before + 2);
    const adminRetry = await usage(op.adminKey, body, headers);
    expect(adminRetry.headers['idempotent-replayed']).toBe('true');
    expect(adminRetry.json().data.ID).toBe(fromAdmin.json().data.ID);
  });

  it("a partner cannot probe the shop's records, nor the shop a partner's", async () => {
    const { ActivityID, date } = await bookable('Probe');
    expect((await call(t.app, op.adminKey, 'PATCH', '/api/v2/admin/shop', { Open: true })).statusCode).toBe(200);
    const shop = `/api/v2/shop/${op.operatorId}`;
    const token = (await call(t.app, undefined, 'POST', `${shop}/baskets`, { Customer: guest })).json().data.BasketToken;
    await call(t.app, undefined, 'POST', `${shop}/baskets/${token}/items`, { ActivityID, Date: date, Time: '12:00', Participants: 1 });
    const headers = { 'idempotency-key': 'probe-1' };
    expect(
      (
        await call(
          t.app,
          undefined,
          'POST',
          `${shop}/baskets/${token}/checkout`,
          { Payment: { Provider: 'test', CardNumber: '4242424242424242' } },
          headers,
        )
      ).statusCode,
    ).toBe(200);
    const basketId = (await t.db.kysely.selectFrom('baskets').select('id').where('token', '=', token).executeTakeFirstOrThrow()).id;
    const body = { ActivityID, Date: date, Time: '12:00', Participants: 1, Customer: guest };
    for (const key of ['probe-1', `shop:${basketId}:${createHash('sha256').update('probe-1').digest('hex')}`]) {
      const probe = await call(t.app, op.otaKey, 'POST', '/api/v2/ota/viator/booking', body, { 'idempotency-key': key });
      expect(probe.statusCode, probe.body).toBe(201);
      expect(probe.headers['idempotent-replayed']).toBeUndefined();
      expect(probe.json().data.BookingReference).toMatch(/^BK-/);
    }
  });

  it('keeps keyed fingerprints: the table alone cannot test a guess of what a request held', async () => {
    const body = { Meter: 'guessable', Usage: 5 };
    expect((await usage(op.usageKey, body, { 'idempotency-key': 'keyed-hash' })).statusCode).toBe(201);
    const record = await t.db.kysely.selectFrom('idempotency_keys').selectAll().where('idempotency_key', '=', 'keyed-hash').executeTakeFirstOrThrow();
    expect(record.request_hash).toMatch(/^[0-9a-f]{64}$/);
    for (const guess of [[{}, body], ['POST', '/api/v2/usage/meters', {}, body], body]) {
      expect(record.request_hash).not.toBe(createHash('sha256').update(JSON.stringify(guess)).digest('hex'));
    }
    expect(record.request_hash).toBe(t.app.instanceKeys.hmac('idempotency-fingerprint', JSON.stringify([{}, body])));
  });

  it('detects a request in flight within its own scope only: twins of two holders both run', async () => {
    const headers = { 'idempotency-key': 'flight-scope' };
    const body = { Meter: 'flight', Usage: 1 };
    const responses = await Promise.all([usage(op.usageKey, body, headers), usage(op.adminKey, body, headers), usage(op.usageKey, body, headers)]);
    const [usageKey, admin, twin] = responses;
    expect(admin!.statusCode).toBe(201);
    expect(admin!.headers['idempotent-replayed']).toBeUndefined();
    expect([usageKey!.statusCode, twin!.statusCode]).toContain(201);
    for (const response of [usageKey!, twin!]) {
      if (response.statusCode !== 201) problemOf(response, 409, 'idempotency-in-flight');
    }
  });
});

describe('Idempotency-Key across two server processes', () => {
  it('stores a booking once when its retries race on both processes', async () => {
    const setup = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/activities', {
      Name: 'Twin Tour',
      DurationMinutes: 60,
      Timezone: 'UTC',
      Currency: 'EUR',
      UnitPrice: 100,
    });
    const ActivityID = setup.json().data.ActivityID;
    const date = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    await call(t.app, op.adminKey, 'POST', `/api/v2/admin/activities/${ActivityID}/timeslots`, { Date: date, Time: '12:00', Capacity: 100 });
    const servers = await Promise.all([startServerProcess(t.databaseUrl), startServerProcess(t.databaseUrl)]);
    try {
      const body = JSON.stringify({
        ActivityID,
        Date: date,
        Time: '12:00',
        Participants: 1,
        Customer: { FirstName: 'Twin', LastName: 'Request', Email: 'twin@example.com', Phone: '+4915112345678' },
      });
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          fetch(`${servers[i % 2]!.url}/api/v2/ota/viator/booking`, {
            method: 'POST',
            headers: { authorization: `Bearer ${op.otaKey}`, 'content-type': 'application/json', 'idempotency-key': 'twin-race' },
            body,
          }).then(async (r) => ({ status: r.status, replayed: r.headers.get('idempotent-replayed') === 'true', body: await r.json() })),
        ),
      );
      expect(responses.every((r) => r.status === 201 || (r.status === 409 && r.body.type.endsWith('/idempotency-in-flight')))).toBe(true);
      const created = responses.filter((r) => r.status === 201);
      expect(created.filter((r) => !r.replayed)).toHaveLength(1);
      expect(new Set(created.map((r) => r.body.data.BookingReference)).size).toBe(1);
      const { rows } = await sql<{
        n: number;
      }>`SELECT COUNT(*) AS n FROM bookings WHERE operator_id = ${op.operatorId} AND customer_first_name = 'Twin'`.execute(t.db.kysely);
      expect(Number(rows[0]!.n)).toBe(1);
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  }, 60_000);
});
