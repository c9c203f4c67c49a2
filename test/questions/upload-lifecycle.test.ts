// The life of an upload: whose bookings may name it, attached when one does, swept when none does, and
// read back by staff as a sandboxed attachment (issue 11, finding 6).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { sweepUnattachedUploads } from '../../src/questions/upload-sweep.js';
import { fileIdOf, JPEG, PDF, uploadAs } from './files.js';
import { addMillis, nowMillis } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;
let activityId: string;
let questionId: number;
let expediaKey: string;
let secondViatorKey: string;
const date = dateFromToday(20);
const HOUR = 3_600_000;

const customer = { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: '+441234567890' };
const bookingBody = (fileId: string) => ({
  ActivityID: activityId,
  Date: date,
  Time: '10:00',
  Participants: 1,
  Customer: customer,
  WaiverAnswers: [{ QuestionID: questionId, Answer: fileId }],
});
const bookAs = (key: string, partner: string, fileId: string) => call(t.app, key, 'POST', `/api/v2/ota/${partner}/booking`, bookingBody(fileId));
const bookAtDesk = (fileId: string) => call(t.app, op.adminKey, 'POST', '/api/v2/admin/bookings', bookingBody(fileId));
const uploadRow = (fileId: string) =>
  t.db.kysely.selectFrom('uploads').select(['attached_at', 'created_at']).where('public_id', '=', fileId).executeTakeFirst();

async function newKey(admin: string, partner: string): Promise<string> {
  const response = await call(t.app, admin, 'POST', '/api/v2/admin/keys', { Name: `Key ${partner}`, Scopes: ['ota'], Partner: partner });
  expect(response.statusCode).toBe(201);
  return response.json().data.Key;
}

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  other = await t.newOperator();
  activityId = (await createActivity(t, op.adminKey)).ActivityID;
  await createTimeslot(t, op.adminKey, activityId, { Date: date, Time: '10:00', Capacity: 50 });
  const question = await call(t.app, op.adminKey, 'POST', `/api/v2/admin/activities/${activityId}/questions`, {
    Question: 'Photo ID',
    Type: 'file',
    Required: true,
  });
  questionId = question.json().data.ID;
  expediaKey = await newKey(op.adminKey, 'expedia');
  secondViatorKey = await newKey(op.adminKey, 'viator');
});
afterAll(() => t.close());

describe('who may name an upload', () => {
  it('a booking of the marketplace whose key uploaded it (any of its keys), or the operator at the desk; no other marketplace or operator', async () => {
    const file = fileIdOf(await uploadAs(t, op.otaKey, JPEG));
    const refused = problemOf(await bookAs(expediaKey, 'expedia', file), 422, 'validation');
    expect(refused.errors).toEqual([{ field: 'WaiverAnswers[0].Answer', message: expect.stringContaining('with a key of this marketplace') }]);
    expect((await bookAs(secondViatorKey, 'viator', file)).statusCode).toBe(201);
    expect((await bookAtDesk(fileIdOf(await uploadAs(t, expediaKey, PDF, 'application/pdf', 'expedia')))).statusCode).toBe(201);
    const theirs = fileIdOf(await uploadAs(t, other.otaKey, JPEG));
    problemOf(await bookAs(op.otaKey, 'viator', theirs), 422, 'validation');
    problemOf(await bookAtDesk(theirs), 422, 'validation');
  });
});

describe('attached and swept', () => {
  it('a booking attaches the files it names; the sweep deletes the others once UPLOAD_UNATTACHED_HOURS old, and never an attached one', async () => {
    const named = fileIdOf(await uploadAs(t, op.otaKey, JPEG));
    const unused = fileIdOf(await uploadAs(t, op.otaKey, JPEG));
    const booked = await bookAs(op.otaKey, 'viator', named);
    expect(booked.statusCode, booked.body).toBe(201);
    expect((await uploadRow(named))?.attached_at).toEqual(expect.any(Number));
    expect((await uploadRow(unused))?.attached_at).toBeNull();

    // An hour later nothing is due; a day and a bit later the unused file goes, by any number of sweepers at once.
    expect(await sweepUnattachedUploads(t.db, 24, addMillis(nowMillis(), HOUR))).toBe(0);
    const sweeps = await Promise.all([1, 2, 3].map(() => sweepUnattachedUploads(t.db, 24, addMillis(nowMillis(), 25 * HOUR))));
    expect(sweeps.reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(1);
    expect(await uploadRow(unused)).toBeUndefined();
    expect(await uploadRow(named)).toBeDefined();

    // The swept file can no longer be named; the attached one still can (a second booking of the same guest).
    problemOf(await bookAs(op.otaKey, 'viator', unused), 422, 'validation');
    expect((await bookAs(op.otaKey, 'viator', named)).statusCode).toBe(201);
    const reference = booked.json().data.BookingReference;
    expect((await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${reference}/files/${named}`)).statusCode).toBe(200);
  });

  it("counts only unused files against the key's quota: naming one in a booking makes room", async () => {
    const q = await createTestApp({ UPLOAD_KEY_MAX_FILES: '2' });
    try {
      const owner = await q.newOperator();
      const activity = (await createActivity(q, owner.adminKey)).ActivityID;
      await createTimeslot(q, owner.adminKey, activity, { Date: date, Time: '10:00', Capacity: 5 });
      const question = (
        await call(q.app, owner.adminKey, 'POST', `/api/v2/admin/activities/${activity}/questions`, { Question: 'ID', Type: 'file', Required: true })
      ).json().data.ID;
      const first = fileIdOf(await uploadAs(q, owner.otaKey, JPEG));
      fileIdOf(await uploadAs(q, owner.otaKey, JPEG));
      problemOf(await uploadAs(q, owner.otaKey, JPEG), 429, 'quota-exceeded');
      const booking = await call(q.app, owner.otaKey, 'POST', '/api/v2/ota/viator/booking', {
        ActivityID: activity,
        Date: date,
        Time: '10:00',
        Participants: 1,
        Customer: customer,
        WaiverAnswers: [{ QuestionID: question, Answer: first }],
      });
      expect(booking.statusCode, booking.body).toBe(201);
      fileIdOf(await uploadAs(q, owner.otaKey, JPEG));
    } finally {
      await q.close();
    }
  });
});

describe('staff read the answers and their files', () => {
  let reference: string;
  let fileId: string;
  beforeAll(async () => {
    fileId = fileIdOf(await uploadAs(t, op.otaKey, PDF, 'application/pdf'));
    const booked = await bookAs(op.otaKey, 'viator', fileId);
    expect(booked.statusCode, booked.body).toBe(201);
    reference = booked.json().data.BookingReference;
  });

  it("lists a booking's answers with the file's type, size and download address", async () => {
    const answers = await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${reference}/waiver-answers`);
    expect(answers.statusCode).toBe(200);
    expect(answers.headers['cache-control']).toBe('no-store');
    expect(answers.json().data).toEqual([
      {
        QuestionID: questionId,
        Question: 'Photo ID',
        Type: 'file',
        Answer: fileId,
        File: { FileID: fileId, ContentType: 'application/pdf', Size: PDF.length, Download: `/api/v2/admin/bookings/${reference}/files/${fileId}` },
      },
    ]);
    problemOf(await call(t.app, other.adminKey, 'GET', `/api/v2/admin/bookings/${reference}/waiver-answers`), 404, 'not-found');
    problemOf(await call(t.app, op.otaKey, 'GET', `/api/v2/admin/bookings/${reference}/waiver-answers`), 403, 'forbidden');
  });

  it('serves the file as a sandboxed attachment of the type its content has, never to be rendered or stored', async () => {
    const response = await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${reference}/files/${fileId}`);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(PDF)).toBe(true);
    expect(response.headers).toMatchObject({
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename="${reference}-${fileId}.pdf"`,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': 'no-store',
    });
  });

  it('serves a file stored before the allow-list as bytes, whatever type it was sent as', async () => {
    await t.db.kysely.updateTable('uploads').set({ content_type: 'text/html' }).where('public_id', '=', fileId).execute();
    try {
      const response = await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${reference}/files/${fileId}`);
      expect(response.headers['content-type']).toBe('application/octet-stream');
      expect(response.headers['content-disposition']).toMatch(/^attachment; filename=".*\.bin"$/);
    } finally {
      await t.db.kysely.updateTable('uploads').set({ content_type: 'application/pdf' }).where('public_id', '=', fileId).execute();
    }
  });

  it("is a 404 for a file the booking did not answer with, another operator's booking, or an unknown file; 400 for a malformed FileID", async () => {
    const unrelated = fileIdOf(await uploadAs(t, op.otaKey, JPEG));
    problemOf(await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${reference}/files/${unrelated}`), 404, 'not-found');
    problemOf(await call(t.app, other.adminKey, 'GET', `/api/v2/admin/bookings/${reference}/files/${fileId}`), 404, 'not-found');
    problemOf(await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/BK-AAAAAAAA/files/${fileId}`), 404, 'not-found');
    problemOf(await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${reference}/files/f_${'A'.repeat(24)}`), 404, 'not-found');
    problemOf(await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${reference}/files/nope`), 400, 'bad-request');
    problemOf(await call(t.app, undefined, 'GET', `/api/v2/admin/bookings/${reference}/files/${fileId}`), 401, 'unauthenticated');
  });
});
