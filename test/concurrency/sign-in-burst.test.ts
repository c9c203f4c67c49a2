// Two `slotbook serve` processes on one database, and a burst of 40 parallel wrong passwords for one
// account split between them: the attempts are counted in the database before any hashing, so together
// the processes check at most 5, lock the account once, and refuse its right password afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { runCli, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { openDatabase, type Db } from '../../src/db/connection.js';
import { hashPassword } from '../../src/staff/users/passwords.js';
import { insertUser } from '../../src/staff/users/store.js';

const EMAIL = 'target@example.com';
const PASSWORD = 'correct horse battery staple';

let database: TestDatabase;
let db: Db;
let servers: ServerProcess[] = [];
let userId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  const operator = JSON.parse(
    (await runCli(['operator', 'create', '--name', 'Burst Kayaks'], { DATABASE_URL: database.url, LOG_LEVEL: 'silent' })).stdout,
  );
  db = openDatabase(database.config);
  const passwordHash = await hashPassword(PASSWORD);
  userId = (await db.write((tx) =>
    insertUser(tx, { operatorId: operator.OperatorID, email: EMAIL, name: 'Target', role: 'manager', status: 'active', passwordHash }),
  ))!.id;
  // The client's address comes from X-Forwarded-For, so that the test can speak from several.
  const env = { LOG_LEVEL: 'warn', TRUST_PROXY: 'loopback' };
  servers = await Promise.all([startServerProcess(database.url, env), startServerProcess(database.url, env)]);
  // Starting two servers from the sources takes minutes when the machine is busy with other test files.
}, 400_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await db?.close();
  await database.drop();
});

async function signIn(server: ServerProcess, address: string, password: string): Promise<number> {
  const response = await fetch(`${server.url}/api/v2/staff/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ Email: EMAIL, Password: password }),
  });
  await response.arrayBuffer();
  return response.status;
}

describe('a password burst across two processes', () => {
  it('40 parallel wrong passwords through two processes: at most 5 checked, one lock, the right password refused afterwards', {
    timeout: 240_000,
  }, async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => signIn(i % 2 === 0 ? a : b, '10.70.0.1', `wrong guess number ${i}`)));
    expect(results.every((status) => status === 401 || status === 429)).toBe(true);
    const log = await db.kysely
      .selectFrom('audit_log')
      .select('action')
      .where('resource_type', '=', 'user')
      .where('resource_id', '=', String(userId))
      .execute();
    const count = (action: string) => log.filter((row) => row.action === action).length;
    expect(count('session.sign-in-failed')).toBeLessThanOrEqual(5);
    expect(count('user.lock')).toBe(1);
    expect(await signIn(b, '10.70.0.2', PASSWORD)).toBe(401);
    expect(await signIn(a, '10.70.0.3', PASSWORD)).toBe(401);
  });
});
