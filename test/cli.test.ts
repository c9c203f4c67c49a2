// The `slotbook` command line, run as a real process against a fresh database.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';
import { CLI_ARGS, runCli, startServerProcess, TEST_SECRET_KEY } from './helpers/server-process.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { freePort } from './helpers/local.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

// Each command is a process of its own through tsx: several seconds apiece while other tests share the cores.
describe('slotbook command line', { timeout: 90_000 }, () => {
  it('migrates, creates an operator with its owner (printing only its JSON) and a key that works against a server', async () => {
    const env = { DATABASE_URL: database.url, LOG_LEVEL: 'silent', PUBLIC_URL: 'https://book.acme.example' };
    expect((await runCli(['migrate'], env)).code).toBe(0);
    const created = await runCli(['operator', 'create', '--name', 'Acme Kayaks', '--email', 'Owner@Acme.example'], env);
    expect(created.code, created.stderr).toBe(0);
    const operator = JSON.parse(created.stdout);
    expect(Object.keys(operator)).toEqual(['OperatorID', 'AdminKey', 'OwnerEmail', 'SignInLink']);
    expect(created.stdout.trim().split('\n')).toHaveLength(1);
    expect(operator.OwnerEmail).toBe('owner@acme.example');
    expect(operator.SignInLink).toMatch(/^https:\/\/book\.acme\.example\/accept-invitation#token=[A-Za-z0-9_-]{43}$/);
    // Without --email: the same two fields as before, and a hint on stderr.
    const bare = await runCli(['operator', 'create', '--name', 'No Owner Yet'], env);
    expect(Object.keys(JSON.parse(bare.stdout))).toEqual(['OperatorID', 'AdminKey']);
    expect(bare.stderr).toMatch(/no owner/);

    const key = await runCli(
      ['key', 'create', '--operator', String(operator.OperatorID), '--name', 'GYG', '--scopes', 'ota', '--partner', 'getyourguide'],
      env,
    );
    expect(key.code).toBe(0);
    const { Key } = JSON.parse(key.stdout);

    const server = await startServerProcess(database.url);
    try {
      const response = await fetch(`${server.url}/api/v2/ota/getyourguide/products`, { headers: { authorization: `Bearer ${Key}` } });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ data: [] });
      const admin = await fetch(`${server.url}/api/v2/admin/keys`, { headers: { authorization: `Bearer ${operator.AdminKey}` } });
      expect((await admin.json()).data.map((k: { Name: string }) => k.Name)).toEqual(['Admin key', 'GYG']);
      // The printed link lets the owner choose a password and sign in, once.
      const token = operator.SignInLink.split('#token=')[1];
      const accept = (password: string) =>
        fetch(`${server.url}/api/v2/staff/invitations/accept`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ Token: token, Password: password }),
        });
      const accepted = await accept('a strong owner password');
      expect(accepted.status).toBe(200);
      expect((await accepted.json()).data.Me).toMatchObject({
        User: { Email: 'owner@acme.example', Role: 'owner' },
        Operator: { Name: 'Acme Kayaks' },
      });
      expect((await accept('a strong owner password')).status).toBe(401);
    } finally {
      await server.stop();
    }
  });

  it('refuses bad input and bad configuration with a message and exit code 1', async () => {
    const env = { DATABASE_URL: database.url, LOG_LEVEL: 'silent' };
    const noName = await runCli(['operator', 'create'], env);
    expect(noName.code).toBe(1);
    expect(noName.stderr).toMatch(/--name/);
    const badEmail = await runCli(['operator', 'create', '--name', 'X', '--email', 'not-an-address'], env);
    expect(badEmail.code).toBe(1);
    expect(badEmail.stderr).toMatch(/--email/);
    const badScope = await runCli(['key', 'create', '--operator', '1', '--name', 'x', '--scopes', 'root'], env);
    expect(badScope.code).toBe(1);
    expect(badScope.stderr).toMatch(/Unknown scope root/);
    const badPort = await runCli(['serve'], { ...env, PORT: 'eighty' });
    expect(badPort.code).toBe(1);
    expect(badPort.stderr).toMatch(/PORT/);
    const badUrl = await runCli(['migrate'], { ...env, DATABASE_URL: 'mysql://x' });
    expect(badUrl.stderr).toMatch(/DATABASE_URL/);
  });
});

// Issue 23, finding 5: without SECRET_KEY the master secret lives in the database, so a copy of the
// database alone would open TOTP secrets, webhook secrets and sealed e-mails, and forge manage links.
describe('production needs SECRET_KEY', { timeout: 90_000 }, () => {
  it('loadConfig refuses production without it, naming it and how to make one', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', SECRET_KEY: '' })).toThrow(/SECRET_KEY.*openssl rand -base64 32/);
    expect(loadConfig({ NODE_ENV: 'production', SECRET_KEY: TEST_SECRET_KEY }).secretKey).toBe(TEST_SECRET_KEY);
    // Outside production the database keeps one, so that `npm start` works as it is.
    expect(loadConfig({ NODE_ENV: 'development' }).secretKey).toBeUndefined();
  });

  it('slotbook serve exits non-zero with the message', async () => {
    const env = {
      ...process.env,
      DATABASE_URL: database.url,
      NODE_ENV: 'production',
      SECRET_KEY: '',
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
    };
    const child = spawn(process.execPath, [...CLI_ARGS, 'serve'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // A server that starts after all is killed rather than left running.
    const killer = setTimeout(() => child.kill('SIGKILL'), 80_000);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    clearTimeout(killer);
    expect(code, stderr).toBe(1);
    expect(stderr).toMatch(/invalid configuration: SECRET_KEY .*production.*openssl rand -base64 32/);
  });
});

describe('first start', { timeout: 90_000 }, () => {
  const FULL_KEY = /sbk_[A-Za-z0-9_-]{16}_[A-Za-z0-9_-]{43}/g;

  it('creates the demo operator on an empty database; outside a terminal its keys and owner sign-in go to a 0600 file, never into the log', async () => {
    const fresh = await createTestDatabase();
    const dataDir = mkdtempSync(join(tmpdir(), 'slotbook-data-'));
    try {
      // At LOG_LEVEL=warn too, the log says where the keys went (issue 23).
      const first = await startServerProcess(fresh.url, { NODE_ENV: 'development', DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
      try {
        const output = first.output();
        expect(output).toMatch(/demo data created/);
        // The log says where the keys are, and names them by their public part only.
        const file = join(dataDir, 'demo-keys.txt');
        expect(output).toContain(file);
        expect(output.match(FULL_KEY)).toBeNull();
        expect(statSync(file).mode & 0o777).toBe(0o600);
        const keys = readFileSync(file, 'utf8');
        const ota = /ota .*?(sbk_\S+)/.exec(keys)![1]!;
        const admin = /admin\s+(sbk_\S+)/.exec(keys)![1]!;
        expect(output).toContain(ota.slice(0, 20));
        // The demo owner's credentials, in the same file, sign in to the dashboard; the password is not in the log.
        const email = /e-mail\s+(\S+@\S+)/.exec(keys)![1]!;
        const password = /password\s+(\S+)/.exec(keys)![1]!;
        expect(output).not.toContain(password);
        const signIn = await fetch(`${first.url}/api/v2/staff/sign-in`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ Email: email, Password: password }),
        });
        expect(signIn.status).toBe(200);
        expect((await signIn.json()).data.Me.User.Role).toBe('owner');
        const products = await (await fetch(`${first.url}/api/v2/ota/demo/products`, { headers: { authorization: `Bearer ${ota}` } })).json();
        // Issue 12: five activities with ticket types, one of them an attraction with opening hours.
        expect(products.data.map((p: { Timezone: string }) => p.Timezone)).toEqual([
          'Europe/Berlin',
          'Europe/Berlin',
          'America/New_York',
          'Asia/Tokyo',
          'Europe/Berlin',
        ]);
        expect(products.data.map((p: { AvailabilityType: string }) => p.AvailabilityType)).toEqual([
          'start_time',
          'start_time',
          'start_time',
          'start_time',
          'opening_hours',
        ]);
        expect(products.data[0].TicketTypes.map((type: { Type: string }) => type.Type)).toEqual(['adult', 'child', 'infant', 'family']);
        const listed = await fetch(`${first.url}/api/v2/admin/keys`, { headers: { authorization: `Bearer ${admin}` } });
        expect(listed.status).toBe(200);
        const usage = /usage .*?(sbk_\S+)/.exec(keys)![1]!;
        const today = new Date().toISOString().slice(0, 10);
        expect(
          (await fetch(`${first.url}/api/v2/usage/meters?from=${today}&to=${today}`, { headers: { authorization: `Bearer ${usage}` } })).status,
        ).toBe(200);

        // 60 days of timeslots for each activity, and waiver questions with a required file upload.
        const get = (path: string) => fetch(`${first.url}${path}`, { headers: { authorization: `Bearer ${ota}` } }).then((r) => r.json());
        const far = new Date(Date.now() + 70 * 86_400_000).toISOString().slice(0, 10);
        for (const product of products.data as { ActivityID: string }[]) {
          const dates = await get(`/api/v2/ota/demo/availability/${product.ActivityID}/dates?StartDate=${today}&EndDate=${far}`);
          expect(dates.data.length).toBeGreaterThanOrEqual(58);
          expect(dates.data.length).toBeLessThanOrEqual(60);
          const questions = await get(`/api/v2/ota/demo/questions/${product.ActivityID}`);
          expect(questions.data.some((q: { Required: boolean; RequiresFileUpload: boolean }) => q.Required && q.RequiresFileUpload)).toBe(true);
        }
        const tokyo = (products.data as { ActivityID: string; Timezone: string }[]).find((p) => p.Timezone === 'Asia/Tokyo')!.ActivityID;
        const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
        const slots = await get(`/api/v2/ota/demo/availability/${tokyo}/timeslots?Date=${tomorrow}`);
        expect(slots.data[0].StartsAt).toMatch(/T14:00:00\+09:00$/);
      } finally {
        await first.stop();
      }
      const second = await startServerProcess(fresh.url, { NODE_ENV: 'development', DATA_DIR: dataDir });
      await second.stop();
      expect(second.output()).not.toMatch(/demo data created/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      await fresh.drop();
    }
  });

  // `npm install && npm start` in a terminal: the README promises the keys on screen. `script` gives the
  // server a terminal for its standard output.
  it.runIf(existsSync('/usr/bin/script'))('prints the keys when its output is a terminal, and writes no file', async () => {
    const fresh = await createTestDatabase();
    const dataDir = mkdtempSync(join(tmpdir(), 'slotbook-data-'));
    const port = await freePort();
    const command = [process.execPath, ...CLI_ARGS, 'serve'].map((part) => `'${part}'`).join(' ');
    const child = spawn('/usr/bin/script', ['-qefc', `exec ${command}`, '/dev/null'], {
      env: {
        ...process.env,
        DATABASE_URL: fresh.url,
        PORT: String(port),
        HOST: '127.0.0.1',
        NODE_ENV: 'development',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_MINUTE: '0',
        DATA_DIR: dataDir,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await expect.poll(() => output, { timeout: 30_000 }).toMatch(/admin\s+sbk_/);
      expect(output.match(FULL_KEY)).toHaveLength(3 + 2); // three keys, and the ota key twice more in the curl lines
      expect(existsSync(join(dataDir, 'demo-keys.txt'))).toBe(false);
    } finally {
      // The server's terminal closes with `script`, and it gets SIGHUP; the health check tells when it is gone.
      child.kill('SIGTERM');
      await exited;
      await expect
        .poll(
          () =>
            fetch(`http://127.0.0.1:${port}/healthz`).then(
              () => 'up',
              () => 'down',
            ),
          { timeout: 15_000 },
        )
        .toBe('down');
      rmSync(dataDir, { recursive: true, force: true });
      await fresh.drop();
    }
  });

  it('creates no demo data in production', async () => {
    const fresh = await createTestDatabase();
    try {
      const server = await startServerProcess(fresh.url, { NODE_ENV: 'production' });
      await server.stop();
      expect(server.output()).not.toMatch(/demo data created/);
      expect(server.child.exitCode).toBe(0);
    } finally {
      await fresh.drop();
    }
  });
});

// Users run the compiled command (bin/slotbook.js over dist/, with its V8 flag in the shebang); the other
// tests run the sources. Building writes dist/, so only the SQLite project does it (the projects run in
// parallel).
describe.runIf(process.env.TEST_DIALECT === 'sqlite')('the compiled command', () => {
  // The build alone takes about 10 s of CPU: on a shared, busy machine that is well over 30 s of wall time.
  it('builds with npm run build:server and serves from dist/ with its V8 heap flags', { timeout: 120_000 }, async () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
    const build = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, encoding: 'utf8' });
    expect(build.status, build.stdout + build.stderr).toBe(0);

    const port = await freePort();
    const child = spawn(fileURLToPath(new URL('../bin/slotbook.js', import.meta.url)), ['serve'], {
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        PORT: String(port),
        HOST: '127.0.0.1',
        NODE_ENV: 'production',
        SECRET_KEY: TEST_SECRET_KEY,
        LOG_LEVEL: 'warn',
      },
      stdio: 'ignore',
    });
    try {
      await expect
        .poll(
          () =>
            fetch(`http://127.0.0.1:${port}/healthz`).then(
              (r) => r.status,
              () => 0,
            ),
          { timeout: 20_000 },
        )
        .toBe(200);
      const commandLine = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0').join(' ');
      expect(commandLine).toMatch(/--max-semi-space-size=4 --max-old-space-size=512 .*bin\/slotbook\.js serve/);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
});
