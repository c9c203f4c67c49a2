// Builds the real app on a fresh, migrated database and gives tests an operator with keys of each kind.
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import { wireReactions } from '../../src/reactions.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase, type Db } from '../../src/db/connection.js';
import { migrate } from '../../src/db/migrate.js';
import { createOperator } from '../../src/operators/service.js';
import { createApiKey } from '../../src/auth/service.js';
import { createTestDatabase } from './database.js';
import type { WebhookOverrides } from '../../src/webhooks/runtime.js';
import { TEST_SECRET_KEY } from './server-process.js';

export const PUBLIC_URL = 'http://slotbook.test';
/**
 * The tests' webhook receivers listen on this machine: loopback, which no instance reaches unless told
 * (WEBHOOK_ALLOWED_NETWORKS). A marketplace's endpoints are not allowed it unless a test says so.
 */
export const LOOPBACK_NETWORKS = '127.0.0.0/8, ::1';
export const PROBLEM_BASE = `${PUBLIC_URL}/problems`;

export interface TestOperator {
  operatorId: number;
  adminKey: string;
  /** An ota key for the marketplace `partner`. */
  otaKey: string;
  partner: string;
  usageKey: string;
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  /** The DATABASE_URL of this test's database, for server processes that should share it. */
  databaseUrl: string;
  newOperator(name?: string): Promise<TestOperator>;
  close(): Promise<void>;
}

/** What a test may give the app beyond settings: a log stream to read, stand-ins for DNS or the webhook transport. */
export interface TestAppOptions {
  /** The app logs as in production (LOG_LEVEL from env) into this stream; else it is silent. */
  logStream?: { write(line: string): void };
  webhooks?: WebhookOverrides;
}

/**
 * The app on `db` with the tests' settings (no rate limits, silent, the test processes' SECRET_KEY, webhooks
 * to loopback for the operator's endpoints) and `env`; not ready yet, so a test may add routes or hooks. A second app on a database is another
 * process's view of it.
 */
export function buildTestApp(db: Db, env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<FastifyInstance> {
  const config = loadConfig({
    PUBLIC_URL,
    RATE_LIMIT_PER_MINUTE: '0',
    AUTH_FAILURE_LIMIT_PER_MINUTE: '0',
    LOG_LEVEL: 'silent',
    SECRET_KEY: TEST_SECRET_KEY,
    WEBHOOK_ALLOWED_NETWORKS: LOOPBACK_NETWORKS,
    // The test's own work shares the app's event loop: no overload refusals in app tests.
    OVERLOAD_EVENT_LOOP_DELAY_MS: '0',
    ...env,
  });
  wireReactions();
  return buildApp({ db, config, webhooks: options.webhooks, ...(options.logStream ? { logStream: options.logStream } : { logger: false }) });
}

export async function createTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const db = openDatabase(database.config);
  await migrate(db);
  const app = await buildTestApp(db, env, options);
  await app.ready();
  let count = 0;
  return {
    app,
    db,
    databaseUrl: database.url,
    async newOperator(name = `Operator ${++count}`) {
      const { operatorId, adminKey } = await createOperator(db, name);
      const partner = 'viator';
      const ota = await db.write((tx) => createApiKey(tx, operatorId, { name: 'OTA', scopes: ['ota'], partner }));
      const usage = await db.write((tx) => createApiKey(tx, operatorId, { name: 'Usage', scopes: ['usage:read', 'usage:write'] }));
      return { operatorId, adminKey, otaKey: ota.key, partner, usageKey: usage.key };
    },
    async close() {
      await app.close();
      await db.close();
      await database.drop();
    },
  };
}

/** app.inject with a bearer key; `body` objects are sent as JSON. */
export function call(
  app: FastifyInstance,
  key: string | undefined,
  method: InjectOptions['method'],
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    ...(body !== undefined && { payload: body as InjectOptions['payload'] }),
  });
}

/** Asserts the RFC 7807 shape and returns the parsed problem. */
export function problemOf(response: LightMyRequestResponse, status: number, kind: string) {
  const body = response.json();
  const expected = { type: `${PROBLEM_BASE}/${kind}`, status, instance: response.raw.req.url?.split('?')[0] };
  if (
    response.statusCode !== status ||
    body.type !== expected.type ||
    !String(response.headers['content-type']).startsWith('application/problem+json')
  ) {
    throw new Error(`expected ${status} ${kind} problem, got ${response.statusCode} ${response.headers['content-type']}: ${response.body}`);
  }
  if (typeof body.title !== 'string' || typeof body.detail !== 'string' || body.instance !== expected.instance) {
    throw new Error(`malformed problem body: ${response.body}`);
  }
  // Every problem names its request as its X-Request-Id header does (docs/observability.md).
  if (typeof body.requestId !== 'string' || body.requestId !== response.headers['x-request-id']) {
    throw new Error(`the problem's requestId is not the X-Request-Id header (${response.headers['x-request-id']}): ${response.body}`);
  }
  return body as {
    type: string;
    title: string;
    status: number;
    detail: string;
    instance: string;
    requestId: string;
    errors?: { field: string; message: string }[];
  };
}
