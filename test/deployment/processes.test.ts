// The deployment of docs/deployment.md in small: three `slotbook serve` processes on one PostgreSQL
// database reached through Debian's PgBouncer in session mode, behind a round-robin HTTP proxy, racing
// partner bookings for the last seats. No overbooking (exactly the capacity sold, the rest 409), and no
// lost webhook (a booking.created for every booking sold, whichever process's worker sent it). Skipped,
// with the reason, without pgbouncer (.ci/run installs it) or outside the PostgreSQL project.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/database.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { freePort } from '../helpers/local.js';
import { LOOPBACK_NETWORKS } from '../helpers/app.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { openDatabase } from '../../src/db/connection.js';
import { migrate } from '../../src/db/migrate.js';
import { createOperator } from '../../src/operators/service.js';
import { createApiKey } from '../../src/auth/service.js';

const PGBOUNCER = '/usr/sbin/pgbouncer';
const skipped =
  testDialect() !== 'postgres'
    ? 'PgBouncer fronts PostgreSQL only'
    : !existsSync(PGBOUNCER)
      ? `no ${PGBOUNCER}: install Debian's pgbouncer (.ci/run does)`
      : process.getuid?.() === 0 && !existsSync('/usr/sbin/runuser')
        ? 'running as root without runuser (PgBouncer refuses to run as root)'
        : undefined;
if (skipped && testDialect() === 'postgres') console.warn(`skipping the three-process deployment test: ${skipped}`);

const CAPACITY = 12;
const ATTEMPTS = 60;
const DATE = new Date(Date.now() + 15 * 86_400_000).toISOString().slice(0, 10);

interface Proxy {
  url: string;
  hits: number[];
  close(): Promise<void>;
}

/** A round-robin HTTP proxy, as the load balancer of compose.yaml: each request to the next process. */
async function startProxy(upstreams: string[]): Promise<Proxy> {
  const hits = upstreams.map(() => 0);
  let next = 0;
  const server = http.createServer((request, response) => {
    const index = next++ % upstreams.length;
    hits[index]! += 1;
    const target = new URL(request.url ?? '/', upstreams[index]);
    const forward = http.request(
      target,
      { method: request.method, headers: { ...request.headers, 'x-forwarded-for': request.socket.remoteAddress } },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forward.on('error', () => {
      response.writeHead(502).end();
    });
    request.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** PgBouncer in session mode on a free port, in front of the test's PostgreSQL server. */
async function startPgBouncer(databaseUrl: string): Promise<{ url: string; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'slotbook-pgbouncer-'));
  chmodSync(dir, 0o777);
  const target = new URL(databaseUrl);
  const port = await freePort();
  writeFileSync(join(dir, 'userlist.txt'), `"${target.username}" ""\n`);
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${target.hostname} port=${target.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      'pool_mode = session',
      'max_client_conn = 200',
      'default_pool_size = 60',
      'ignore_startup_parameters = extra_float_digits,options',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
    ].join('\n'),
  );
  const args = [join(dir, 'pgbouncer.ini')];
  const child: ChildProcess =
    process.getuid?.() === 0
      ? spawn('/usr/sbin/runuser', ['-u', 'postgres', '--', PGBOUNCER, ...args], { stdio: 'ignore' })
      : spawn(PGBOUNCER, args, { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = new URL(databaseUrl);
  url.port = String(port);
  // Ready when a query goes through it.
  const deadline = Date.now() + 20_000;
  for (;;) {
    const db = openDatabase({ dialect: 'postgres', url: url.toString() });
    const ok = await sql`SELECT 1`.execute(db.kysely).then(
      () => true,
      () => false,
    );
    await db.close();
    if (ok) break;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('pgbouncer did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url: url.toString(),
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let database: TestDatabase | undefined;
let bouncer: Awaited<ReturnType<typeof startPgBouncer>> | undefined;
let servers: ServerProcess[] = [];
let proxy: Proxy | undefined;
let receiver: Receiver | undefined;
let operator: { operatorId: number; adminKey: string; ota: string };

beforeAll(async () => {
  if (skipped) return;
  database = await createTestDatabase();
  const db = openDatabase(database.config);
  await migrate(db);
  // The operator first: the processes then find a database with data (no first-start demo), and may run
  // outside production, where a webhook endpoint on this machine may use http.
  const { operatorId, adminKey } = await createOperator(db, 'Three Processes Tours');
  const ota = (await db.write((tx) => createApiKey(tx, operatorId, { name: 'OTA', scopes: ['ota'], partner: 'viator' }))).key;
  operator = { operatorId, adminKey, ota };
  await db.close();
  bouncer = await startPgBouncer(database.url);
  receiver = await startReceiver();
  const env = { NODE_ENV: 'test', WEBHOOK_ALLOWED_NETWORKS: LOOPBACK_NETWORKS, TRUST_PROXY: '1', LOG_LEVEL: 'warn' };
  servers = await Promise.all([1, 2, 3].map(() => startServerProcess(bouncer!.url, env)));
  proxy = await startProxy(servers.map((server) => server.url));
}, 240_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await proxy?.close();
  await receiver?.close();
  await bouncer?.stop();
  await database?.drop();
});

describe.skipIf(skipped !== undefined)('three processes behind a proxy and PgBouncer', { timeout: 180_000 }, () => {
  it('sell the last seats once: no overbooking, and a webhook for every booking sold', async () => {
    const db = openDatabase(database!.config);
    const { operatorId, adminKey, ota } = operator;
    const send = async (key: string, method: string, path: string, body?: unknown) => {
      const response = await fetch(`${proxy!.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: await response.json().catch(() => undefined) };
    };
    const endpoint = await send(adminKey, 'POST', '/api/v2/admin/webhooks', { URL: receiver!.url, EventTypes: ['booking.created'] });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    receiver!.secrets = [endpoint.body.data.Secret];
    const activity = await send(adminKey, 'POST', '/api/v2/admin/activities', {
      Name: 'Last seats',
      DurationMinutes: 60,
      Timezone: 'Europe/Berlin',
      Currency: 'EUR',
      UnitPrice: 1000,
    });
    expect(activity.status).toBe(201);
    const activityId = activity.body.data.ActivityID;
    expect(
      (await send(adminKey, 'POST', `/api/v2/admin/activities/${activityId}/timeslots`, { Date: DATE, Time: '09:00', Capacity: CAPACITY })).status,
    ).toBe(201);

    // Everyone at once, spread over the three processes by the proxy.
    const answers = await Promise.all(
      Array.from({ length: ATTEMPTS }, (_, i) =>
        send(ota, 'POST', '/api/v2/ota/viator/booking', {
          ActivityID: activityId,
          Date: DATE,
          Time: '09:00',
          Participants: 1,
          Customer: { FirstName: 'Guest', LastName: String(i), Email: `guest${i}@example.com`, Phone: '+441234567890' },
        }),
      ),
    );
    const sold = answers.filter((a) => a.status === 201).map((a) => a.body.data.BookingReference as string);
    expect(answers.filter((a) => a.status !== 201 && a.status !== 409).map((a) => a.status)).toEqual([]);
    expect(sold).toHaveLength(CAPACITY);
    expect(proxy!.hits.every((count) => count > ATTEMPTS / 6)).toBe(true);
    const { rows } = await sql<{ booked: number; confirmed: number }>`
      SELECT t.booked, (SELECT count(*) FROM bookings b WHERE b.timeslot_id = t.id AND b.status = 'confirmed') AS confirmed
      FROM timeslots t WHERE t.operator_id = ${operatorId}`.execute(db.kysely);
    expect(rows.map((row) => [Number(row.booked), Number(row.confirmed)])).toEqual([[CAPACITY, CAPACITY]]);
    await db.close();

    // The processes' webhook workers deliver one booking.created per booking sold (at least once each).
    const deadline = Date.now() + 60_000;
    const delivered = () => new Set(receiver!.eventsOf('booking.created').map((event) => event.data.BookingReference));
    while (delivered().size < CAPACITY && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    expect([...delivered()].sort()).toEqual([...sold].sort());
    expect(receiver!.received.every((request) => request.verifiedWith.length === 1)).toBe(true);
  });
});
