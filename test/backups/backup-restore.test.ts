// `slotbook backup` while a server takes partner bookings as fast as it can, then `slotbook restore` into a
// fresh database and data folder, and a server started on it: every booking acknowledged before the
// backup began is there, with the waiver file, the activity's photo and DATA_DIR's files. On PostgreSQL
// also: pg_dump missing is a clear message. Real processes (the command line and the server through tsx).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/database.js';
import { runCli, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { openDatabase } from '../../src/db/connection.js';
import { createOperator } from '../../src/operators/service.js';
import { createApiKey } from '../../src/auth/service.js';
import { PNG } from '../questions/files.js';
import { picture } from '../catalog/photo-files.js';
import { readMembers } from '../../src/backups/archive.js';

const DATE = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
const customer = { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: '+441234567890' };

let source: TestDatabase;
let fresh: TestDatabase;
let work: string;
let sourceData: string;
let freshData: string;
let server: ServerProcess | undefined;

beforeAll(async () => {
  source = await createTestDatabase();
  fresh = await createTestDatabase();
  work = mkdtempSync(join(tmpdir(), 'slotbook-backup-test-'));
  sourceData = join(work, 'data-source');
  freshData = join(work, 'data-fresh');
});
afterAll(async () => {
  await server?.stop();
  await source.drop();
  await fresh.drop();
  rmSync(work, { recursive: true, force: true });
});

async function json(response: Response, status: number) {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return text ? JSON.parse(text).data : undefined;
}

const send = (base: string, key: string, method: string, path: string, body?: unknown) =>
  fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });

describe('backup and restore', { timeout: 300_000 }, () => {
  it('restores every booking acknowledged before the backup began, with its files, into a fresh database', async () => {
    const env = { DATA_DIR: sourceData, LOG_LEVEL: 'warn' };
    server = await startServerProcess(source.url, env);
    const base = server.url;
    // The operator and its keys, written straight into the database the server migrated.
    const db = openDatabase(source.config);
    const { operatorId, adminKey } = await createOperator(db, 'Backup Tours');
    const ota = (await db.write((tx) => createApiKey(tx, operatorId, { name: 'OTA', scopes: ['ota'], partner: 'viator' }))).key;
    await db.close();
    mkdirSync(sourceData, { recursive: true });
    writeFileSync(join(sourceData, 'demo-keys.txt'), 'keys of the first start\n');

    const activity = await json(
      await send(base, adminKey, 'POST', '/api/v2/admin/activities', {
        Name: 'Harbour tour',
        DurationMinutes: 60,
        Timezone: 'Europe/Berlin',
        Currency: 'EUR',
        UnitPrice: 2500,
      }),
      201,
    );
    await json(
      await send(base, adminKey, 'POST', `/api/v2/admin/activities/${activity.ActivityID}/timeslots`, {
        Date: DATE,
        Time: '10:00',
        Capacity: 100_000,
      }),
      201,
    );
    const question = await json(
      await send(base, adminKey, 'POST', `/api/v2/admin/activities/${activity.ActivityID}/questions`, {
        Question: 'Your certificate',
        Type: 'file',
        Required: false,
      }),
      201,
    );
    const photo = await fetch(`${base}/api/v2/admin/activities/${activity.ActivityID}/photos`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'image/jpeg' },
      body: new Uint8Array(await picture(400, 300)),
    });
    await json(photo, 201);
    const upload = await json(
      await fetch(`${base}/api/v2/ota/viator/uploads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ota}`, 'content-type': 'image/png' },
        body: new Uint8Array(PNG),
      }),
      201,
    );
    const book = (answers?: unknown) =>
      send(base, ota, 'POST', '/api/v2/ota/viator/booking', {
        ActivityID: activity.ActivityID,
        Date: DATE,
        Time: '10:00',
        Participants: 1,
        Customer: customer,
        ...(answers !== undefined && { WaiverAnswers: answers }),
      });
    const withFile = (await json(await book([{ QuestionID: question.ID, Answer: upload.FileID }]), 201)).BookingReference as string;

    // Bookings written without a pause by four clients, each acknowledged at a moment we note.
    const acknowledged: { reference: string; at: number }[] = [];
    let writing = true;
    const writers = Array.from({ length: 4 }, async () => {
      while (writing) {
        const response = await book();
        if (response.status === 201) acknowledged.push({ reference: (await response.json()).data.BookingReference, at: Date.now() });
        else throw new Error(`booking failed: ${response.status} ${await response.text()}`);
      }
    });
    while (acknowledged.length < 20) await new Promise((resolve) => setTimeout(resolve, 50));

    const file = join(work, 'slotbook.backup');
    const began = Date.now();
    const made = await runCli(['backup', file], { DATABASE_URL: source.url, ...env });
    const ended = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 300));
    writing = false;
    await Promise.all(writers);
    expect(made.code, made.stderr).toBe(0);
    const manifest = JSON.parse(made.stdout);
    expect(manifest).toMatchObject({ Format: 1, Dialect: testDialect(), Files: ['data/demo-keys.txt'] });
    expect(manifest.Migrations).toContain('041_guest_data.sql');
    // A tar file: the manifest, the database, the data folder's files.
    expect((await readMembers(file)).map((m) => m.name)).toEqual([
      'slotbook-backup.json',
      testDialect() === 'sqlite' ? 'database.sqlite' : 'database.pgdump',
      'data/demo-keys.txt',
    ]);
    const before = acknowledged.filter((booking) => booking.at < began);
    // The service kept taking bookings while the backup ran.
    expect(acknowledged.filter((booking) => booking.at > began && booking.at < ended).length).toBeGreaterThan(0);
    await server.stop();
    server = undefined;

    // A second backup never overwrites the first.
    const again = await runCli(['backup', file], { DATABASE_URL: source.url, ...env });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/exists already/);

    // Restore into an empty database and data folder, then serve it.
    const restored = await runCli(['restore', file], { DATABASE_URL: fresh.url, DATA_DIR: freshData, LOG_LEVEL: 'warn' });
    expect(restored.code, restored.stderr).toBe(0);
    expect(JSON.parse(restored.stdout).RestoredFiles).toEqual(['data/demo-keys.txt']);
    expect(readFileSync(join(freshData, 'demo-keys.txt'), 'utf8')).toBe('keys of the first start\n');
    // Restoring over it again is refused without --force.
    const over = await runCli(['restore', file], { DATABASE_URL: fresh.url, DATA_DIR: freshData, LOG_LEVEL: 'warn' });
    expect(over.code).toBe(1);
    expect(over.stderr).toMatch(/--force/);

    server = await startServerProcess(fresh.url, { DATA_DIR: freshData, LOG_LEVEL: 'warn' });
    const restoredBase = server.url;
    const missing: string[] = [];
    for (const { reference } of [{ reference: withFile, at: 0 }, ...before]) {
      const response = await send(restoredBase, ota, 'GET', `/api/v2/ota/viator/booking/${reference}`);
      if (response.status !== 200) missing.push(reference);
      else expect((await response.json()).data.Status).toBe('confirmed');
    }
    expect(missing, `of ${before.length} bookings acknowledged before the backup`).toEqual([]);
    // Nothing appears that was never acknowledged (or was acknowledged after the backup ended).
    const restoredDb = openDatabase(fresh.config);
    const { rows } = await sql<{ reference: string }>`SELECT reference FROM bookings`.execute(restoredDb.kysely);
    await restoredDb.close();
    const known = new Set([withFile, ...acknowledged.map((b) => b.reference)]);
    expect(rows.filter((row) => !known.has(row.reference))).toEqual([]);
    expect(rows.length).toBeGreaterThanOrEqual(before.length + 1);
    // The waiver file and the photo came back with the database.
    const bytes = await send(restoredBase, adminKey, 'GET', `/api/v2/admin/bookings/${withFile}/files/${upload.FileID}`);
    expect(bytes.status).toBe(200);
    expect(Buffer.from(await bytes.arrayBuffer())).toEqual(PNG);
    const restoredActivity = await json(await send(restoredBase, adminKey, 'GET', `/api/v2/admin/activities/${activity.ActivityID}`), 200);
    expect(restoredActivity.Photos).toHaveLength(1);
    expect((await fetch(`${restoredBase}${new URL(restoredActivity.Photos[0].Url).pathname}`)).status).toBe(200);
    await server.stop();
    server = undefined;
  });

  it.runIf(testDialect() === 'postgres')('says what to install when pg_dump is not on PATH', async () => {
    const result = await runCli(['backup', join(work, 'nothing.backup')], {
      DATABASE_URL: source.url,
      DATA_DIR: sourceData,
      // No program at all on PATH (node itself is started by its full path).
      PATH: mkdtempSync(join(work, 'empty-bin-')),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/pg_dump was not found on PATH: install the PostgreSQL client programs/);
  });
});
