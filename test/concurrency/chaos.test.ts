// Chaos: bookings and usage entries (each with an Idempotency-Key) through three `slotbook serve`
// processes on one PostgreSQL, while the database's backends are terminated again and again and the
// server is restarted once. No process exits; every request is answered 201, 503 `unavailable` or 500
// `outcome-unknown`; the service answers again within seconds; every acknowledged write is stored once
// (its retry replays it), and every unacknowledged one, retried with its key, is stored once. The
// cluster is a private one (test/helpers/private-postgres.ts): the shared server is never restarted.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connection.js';
import { migrate } from '../../src/db/migrate.js';
import { createOperator } from '../../src/operators/service.js';
import { createApiKey } from '../../src/auth/service.js';
import { testDialect } from '../helpers/database.js';
import { privateClusterUnavailable, startPrivateCluster, type PrivateCluster } from '../helpers/private-postgres.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

const LOAD_MS = 6_000;
const RESTART_AT_MS = 2_500;
const TERMINATE_EVERY_MS = 250;
const WORKERS = 12;
const ANSWERS_AGAIN_WITHIN_MS = 10_000;
const DATABASE = 'slotbook_chaos';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const unavailable = privateClusterUnavailable();
if (testDialect() === 'postgres' && unavailable) console.warn(`chaos test skipped: ${unavailable}`);

interface Request {
  key: string;
  path: string;
  idempotencyKey: string;
  body: unknown;
}
interface Answer {
  status: number;
  /** The problem's kind for an error, '' for a success. */
  kind: string;
  replayed: boolean;
  body: unknown;
}

async function post(server: ServerProcess, request: Request): Promise<Answer> {
  const response = await fetch(server.url + request.path, {
    method: 'POST',
    headers: { authorization: `Bearer ${request.key}`, 'content-type': 'application/json', 'idempotency-key': request.idempotencyKey },
    body: JSON.stringify(request.body),
  });
  const body = (await response.json()) as { type?: string };
  return {
    status: response.status,
    kind: response.ok ? '' : String(body.type).split('/').pop()!,
    replayed: response.headers.get('idempotent-replayed') === 'true',
    body,
  };
}

describe.runIf(testDialect() === 'postgres' && !unavailable)('chaos: three processes, terminated backends and a restarted server', () => {
  let cluster: PrivateCluster;
  let servers: ServerProcess[] = [];
  let keys: { admin: string; ota: string; usage: string };

  beforeAll(async () => {
    cluster = await startPrivateCluster();
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${DATABASE}`);
    await admin.end();
    const db = openDatabase({ dialect: 'postgres', url: cluster.database(DATABASE) });
    try {
      await migrate(db);
      const operator = await createOperator(db, 'Chaos Tours');
      const ota = await db.write((tx) => createApiKey(tx, operator.operatorId, { name: 'ota', scopes: ['ota'], partner: 'viator' }));
      const usage = await db.write((tx) => createApiKey(tx, operator.operatorId, { name: 'usage', scopes: ['usage:read', 'usage:write'] }));
      keys = { admin: operator.adminKey, ota: ota.key, usage: usage.key };
    } finally {
      await db.close();
    }
    servers = await Promise.all([0, 1, 2].map(() => startServerProcess(cluster.database(DATABASE), { LOG_LEVEL: 'warn' })));
  }, 90_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await cluster?.destroy();
  });

  it('no process exits, the service answers again within seconds, and every write is stored exactly once', async () => {
    const admin = { authorization: `Bearer ${keys.admin}`, 'content-type': 'application/json' };
    const activity = await fetch(`${servers[0]!.url}/api/v2/admin/activities`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({
        Name: 'Chaos Tour',
        DurationMinutes: 60,
        Timezone: 'UTC',
        Currency: 'EUR',
        UnitPrice: 100,
        MaxParticipantsPerBooking: 2,
      }),
    }).then((r) => r.json());
    const ActivityID = activity.data.ActivityID;
    const date = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    const slot = await fetch(`${servers[0]!.url}/api/v2/admin/activities/${ActivityID}/timeslots`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ Date: date, Time: '09:00', Capacity: 100_000 }),
    });
    expect(slot.status).toBe(201);

    // Two usage entries for every booking.
    const requestOf = (i: number): Request =>
      i % 3 === 2
        ? {
            key: keys.ota,
            path: '/api/v2/ota/viator/booking',
            idempotencyKey: `booking-${i}`,
            body: {
              ActivityID,
              Date: date,
              Time: '09:00',
              Participants: 1,
              Customer: { FirstName: 'C', LastName: 'H', Email: 'c@example.com', Phone: '+4915112345678' },
            },
          }
        : { key: keys.usage, path: '/api/v2/usage/meters', idempotencyKey: `usage-${i}`, body: { Meter: 'chaos', Usage: 1 } };

    const sent: Request[] = [];
    const acknowledged = new Map<string, unknown>();
    const statuses = new Map<string, number>();
    const started = Date.now();
    let next = 0;
    const worker = async () => {
      while (Date.now() - started < LOAD_MS) {
        const i = next++;
        const request = requestOf(i);
        sent.push(request);
        let answer: Answer;
        try {
          answer = await post(servers[i % servers.length]!, request);
        } catch (error) {
          answer = { status: 0, kind: `no answer: ${(error as Error).message}`, replayed: false, body: null };
        }
        const label = `${answer.status} ${answer.kind}`.trim();
        statuses.set(label, (statuses.get(label) ?? 0) + 1);
        if (answer.status === 201) acknowledged.set(request.idempotencyKey, answer.body);
      }
    };

    let terminated = 0;
    let restartedAt = 0;
    const chaos = async () => {
      await sleep(TERMINATE_EVERY_MS);
      while (Date.now() - started < LOAD_MS) {
        if (!restartedAt && Date.now() - started >= RESTART_AT_MS) {
          await cluster.restart();
          restartedAt = Date.now();
        } else {
          const client = new pg.Client({ connectionString: cluster.url });
          try {
            await client.connect();
            const { rows } = await client.query<{ n: number }>(
              'SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
              [DATABASE],
            );
            terminated += rows[0]!.n;
          } catch {
            // the server is restarting
          } finally {
            await client.end().catch(() => undefined);
          }
        }
        await sleep(TERMINATE_EVERY_MS);
      }
    };
    await Promise.all([...Array.from({ length: WORKERS }, worker), chaos()]);

    // Every process is alive, and each answers (ready: the database takes writes) within seconds.
    for (const server of servers) expect(server.child.exitCode ?? server.child.signalCode, server.output().slice(-3000)).toBeNull();
    for (const server of servers) {
      const since = Date.now();
      while (
        !(await fetch(`${server.url}/readyz`).then(
          (r) => r.ok,
          () => false,
        ))
      ) {
        expect(Date.now() - since).toBeLessThan(ANSWERS_AGAIN_WITHIN_MS);
        await sleep(50);
      }
    }
    expect(restartedAt).toBeGreaterThan(0);
    expect(terminated).toBeGreaterThan(0);
    // Only these answers, never a 500 `internal` or a lost connection to our own service.
    const labels = [...statuses.keys()];
    expect(
      labels.filter((label) => !['201', '503 unavailable', '500 outcome-unknown'].includes(label)),
      JSON.stringify([...statuses]),
    ).toEqual([]);
    expect(statuses.get('503 unavailable') ?? 0).toBeGreaterThan(0);
    expect(acknowledged.size).toBeGreaterThan(0);

    // Retries with the same keys: an acknowledged write replays its answer; an unacknowledged one is
    // either replayed (it was stored) or stored now. A 503 left over is retried.
    let retry = 0;
    const retryWorker = async () => {
      while (retry < sent.length) {
        const request = sent[retry++]!;
        let answer: Answer | undefined;
        for (let attempt = 0; attempt < 50 && answer?.status !== 201; attempt++) {
          if (attempt > 0) await sleep(100);
          answer = await post(servers[attempt % servers.length]!, request);
        }
        expect(answer!.status, JSON.stringify(answer)).toBe(201);
        if (acknowledged.has(request.idempotencyKey)) {
          expect(answer!.replayed).toBe(true);
          expect(answer!.body).toEqual(acknowledged.get(request.idempotencyKey));
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, retryWorker));

    const bookings = sent.filter((request) => request.idempotencyKey.startsWith('booking-')).length;
    const entries = sent.length - bookings;
    const client = new pg.Client({ connectionString: cluster.database(DATABASE) });
    await client.connect();
    try {
      const count = async (query: string) => (await client.query<{ n: number }>(query)).rows[0]!.n;
      expect(await count("SELECT count(*)::int AS n FROM usage_entries WHERE meter = 'chaos'")).toBe(entries);
      expect(await count("SELECT count(*)::int AS n FROM bookings WHERE status = 'confirmed'")).toBe(bookings);
      expect(await count('SELECT booked::int AS n FROM timeslots')).toBe(bookings);
    } finally {
      await client.end();
    }
  }, 90_000);
});
