// Hostile photos against a real server process, its memory read from outside (/proc/<pid>/status): a
// PNG with a second IHDR, a JPEG whose frame hides behind an `FF 00`, an interlaced PNG that inflates to
// 300 MB, a progressive JPEG whose coefficients alone would take 180 MB. Each is answered 422 naming
// Photo, and the server's resident memory rises by far less than they would have cost (+500 to +800 MB
// each before the decoders were bounded). A large legitimate photo still goes through, within its budget.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHOTO_DECODE_BUDGET } from '../../src/catalog/photos/rules.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { runCli, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { flatJpeg, hiddenFrameJpeg, inflationBombPng, twoHeaderPng } from './photo-files.js';

const MB = 1024 * 1024;
/** A refused photo costs the worker thread (its isolate, jimp's code) and a header's worth of decoding. */
const REFUSED_GROWTH = 64 * MB;

let database: TestDatabase;
let server: ServerProcess;
let admin: string;
let activityId: string;

/** Bytes of the process's memory: VmRSS now, VmHWM its peak since the last reset. */
function memory(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match![1]) * 1024;
}

/** Uploads the photo and answers how far the server's resident memory rose meanwhile (its peak). */
async function uploadMeasured(content: Buffer): Promise<{ status: number; body: any; growth: number }> {
  const pid = server.child.pid!;
  // Writing 5 to clear_refs resets the peak (VmHWM) to the current resident size (Linux).
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
  const before = memory(pid, 'VmRSS');
  const response = await fetch(`${server.url}/api/v2/admin/activities/${activityId}/photos`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/octet-stream' },
    body: new Uint8Array(content),
  });
  const body = await response.json();
  return { status: response.status, body, growth: memory(pid, 'VmHWM') - before };
}

function expectRefusal(result: { status: number; body: any }, message: RegExp) {
  expect(result.status, JSON.stringify(result.body)).toBe(422);
  expect(result.body.errors[0].field).toBe('Photo');
  expect(result.body.errors[0].message).toMatch(message);
}

beforeAll(async () => {
  database = await createTestDatabase();
  const env = { DATABASE_URL: database.url, LOG_LEVEL: 'silent' };
  admin = JSON.parse((await runCli(['operator', 'create', '--name', 'Memory Kayaks'], env)).stdout).AdminKey;
  server = await startServerProcess(database.url, { LOG_LEVEL: 'warn' });
  const created = await fetch(`${server.url}/api/v2/admin/activities`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({ Name: 'Sunset Kayak', DurationMinutes: 120, Timezone: 'Europe/Berlin', Currency: 'EUR', UnitPrice: 4500 }),
  });
  activityId = (await created.json()).data.ActivityID;
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

// Decoding is pure JavaScript and WebAssembly: on a machine busy with other test files, seconds each.
describe('photos that would exhaust memory, against a real server process', { timeout: 120_000 }, () => {
  it('judges a PNG by the IHDR its decoder uses (the last), not the first', async () => {
    const result = await uploadMeasured(await twoHeaderPng());
    expectRefusal(result, /6000×6000 pixels; at most 30 megapixels/);
    expect(result.growth).toBeLessThan(REFUSED_GROWTH);
  });

  it('judges a JPEG by the frame its decoder finds, even behind an FF 00 a walk over the segments trips on', async () => {
    const result = await uploadMeasured(hiddenFrameJpeg());
    expectRefusal(result, /6000×6000 pixels; at most 30 megapixels/);
    expect(result.growth).toBeLessThan(REFUSED_GROWTH);
  });

  it('stops an interlaced PNG whose data inflates to 300 MB at the size its header needs', async () => {
    const bomb = await inflationBombPng(300 * MB);
    expect(bomb.length).toBeLessThan(MB); // 0.3 MB on the wire
    const result = await uploadMeasured(bomb);
    expectRefusal(result, /damaged/);
    expect(result.growth).toBeLessThan(REFUSED_GROWTH);
  });

  it('stops a progressive JPEG at the ceiling of its decoder memory (its coefficients alone: 180 MB)', async () => {
    const result = await uploadMeasured(flatJpeg(6000, 5000, '4:4:4', true));
    expectRefusal(result, /too large to process/);
    expect(result.growth).toBeLessThan(REFUSED_GROWTH);
  });

  it('still takes a 12-megapixel progressive JPEG, within the decode budget', async () => {
    const result = await uploadMeasured(flatJpeg(4000, 3000, '4:2:0', true));
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    expect(result.body.data).toMatchObject({ Width: 4000, Height: 3000 });
    expect(result.body.data.Sizes.map((size: { Width: number; Height: number }) => [size.Width, size.Height])).toEqual([
      [480, 360],
      [960, 720],
      [1600, 1200],
    ]);
    // The budget, and the worker's own memory (its isolate, jimp's code: REFUSED_GROWTH bounds it).
    expect(result.growth).toBeLessThan(PHOTO_DECODE_BUDGET + REFUSED_GROWTH);
  });
});
