// Uploads (raw bodies up to 10 MiB, only images and PDFs by their content, quotas per API key) and the
// waiver answers that name them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { validateWaiverAnswers } from '../../src/questions/service.js';
import type { FileScope } from '../../src/questions/upload-store.js';
import { ValidationFailed } from '../../src/http/errors.js';
import { fileIdOf, heif, JPEG, PDF, PNG, pngOfSize, uploadAs, WEBP } from './files.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;

const upload = (payload: string | Buffer | undefined, headers: Record<string, string> = {}, key = op.otaKey, partner = 'viator') =>
  t.app.inject({
    method: 'POST',
    url: `/api/v2/ota/${partner}/uploads`,
    headers: { authorization: `Bearer ${key}`, ...headers },
    ...(payload !== undefined && { payload }),
  });

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  other = await t.newOperator();
});
afterAll(() => t.close());

describe('POST /api/v2/ota/{partner}/uploads', () => {
  it('stores the raw body, owned by the key and its marketplace, and answers 201 with FileID, ContentType and Size', async () => {
    const response = await upload(PDF, { 'content-type': 'application/pdf' });
    expect(response.statusCode, response.body).toBe(201);
    const { data } = response.json();
    expect(data).toEqual({ FileID: expect.stringMatching(/^f_[A-Za-z0-9]{24}$/), ContentType: 'application/pdf', Size: PDF.length });
    const row = await t.db.kysely.selectFrom('uploads').selectAll().where('public_id', '=', data.FileID).executeTakeFirstOrThrow();
    expect(Buffer.from(row.content).equals(PDF)).toBe(true);
    expect(row).toMatchObject({ operator_id: op.operatorId, partner: 'viator', basket_id: null, attached_at: null });
    expect(row.api_key_id).toEqual(expect.any(Number));
  });

  it('takes JPEG, PNG, WebP, HEIC/HEIF and PDF by their content, and stores the type the content has', async () => {
    for (const [file, declared, stored] of [
      [JPEG, 'image/jpeg', 'image/jpeg'],
      [JPEG, 'image/jpg', 'image/jpeg'],
      [PNG, 'image/png', 'image/png'],
      [WEBP, 'image/webp', 'image/webp'],
      [heif('heic'), 'image/heic', 'image/heic'],
      [heif('mif1'), 'image/heif', 'image/heif'],
      [PDF, 'application/octet-stream', 'application/pdf'],
      // The bytes win over a declared type that names another accepted one.
      [PNG, 'image/jpeg', 'image/png'],
    ] as const) {
      const response = await upload(file, { 'content-type': declared });
      expect(response.statusCode, `${declared}: ${response.body}`).toBe(201);
      expect(response.json().data.ContentType).toBe(stored);
    }
  });

  it('refuses other content with 415, whatever its Content-Type says, and writes nothing', async () => {
    const count = async () =>
      Number(
        (
          await t.db.kysely
            .selectFrom('uploads')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    for (const [payload, declared] of [
      ['<html><script>alert(document.cookie)</script></html>', 'image/png'],
      ['<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', 'image/svg+xml'],
      ['{"not": "a file"}', 'application/json'],
      ['hello', 'text/plain; charset=utf-8'],
      ['<html></html>', 'text/html'],
      [Buffer.concat([Buffer.from('504b0304', 'hex'), Buffer.alloc(100)]), 'application/pdf'],
      [PDF, 'text/html'],
      [PNG, 'image/svg+xml'],
    ] as const) {
      const problem = problemOf(await upload(payload, { 'content-type': declared }), 415, 'unsupported-media-type');
      expect(problem.detail, declared).toMatch(/JPEG, PNG, WebP or HEIC\/HEIF image, or a PDF/);
    }
    expect(await count()).toBe(before);
  });

  it('accepts exactly 10 MiB and answers 413 above it, writing nothing', async () => {
    const count = async () =>
      Number(
        (
          await t.db.kysely
            .selectFrom('uploads')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const limit = 10 * 1024 * 1024;
    expect((await upload(pngOfSize(limit), { 'content-type': 'image/png' })).statusCode).toBe(201);
    const before = await count();
    problemOf(await upload(pngOfSize(limit + 1), { 'content-type': 'image/png' }), 413, 'payload-too-large');
    expect(await count()).toBe(before);
  });

  it('answers 422 on Body for an empty body', async () => {
    for (const headers of [{ 'content-type': 'image/png' }, {}] as Record<string, string>[]) {
      const problem = problemOf(await upload('', headers), 422, 'validation');
      expect(problem.errors!.map((e) => e.field)).toEqual(['Body']);
    }
  });

  it("needs an ota key for the path's marketplace", async () => {
    problemOf(await upload(PNG, { 'content-type': 'image/png' }, op.usageKey), 403, 'forbidden');
    problemOf(await upload(PNG, { 'content-type': 'image/png' }, op.otaKey, 'expedia'), 403, 'forbidden');
    problemOf(await upload(PNG, { 'content-type': 'image/png' }, 'nope'), 401, 'unauthenticated');
  });

  it('leaves JSON-only endpoints unchanged: other routes still answer 415 for non-JSON', async () => {
    const response = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/activities', 'Name=x', { 'content-type': 'text/plain' });
    problemOf(response, 415, 'unsupported-media-type');
  });
});

describe('the quota of an API key', () => {
  let q: TestApp;
  let owner: TestOperator;
  beforeAll(async () => {
    q = await createTestApp({ UPLOAD_KEY_MAX_FILES: '3', UPLOAD_KEY_MAX_MB: '1' });
    owner = await q.newOperator();
  });
  afterAll(() => q.close());

  it('refuses more unused files than UPLOAD_KEY_MAX_FILES with 429 and Retry-After; another key has its own', async () => {
    for (let i = 0; i < 3; i++) fileIdOf(await uploadAs(q, owner.otaKey, JPEG));
    const refused = await uploadAs(q, owner.otaKey, JPEG);
    expect(problemOf(refused, 429, 'quota-exceeded').detail).toMatch(/3 files .*no confirmed booking names/);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(23 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    const second = await q.app.inject({
      method: 'POST',
      url: '/api/v2/admin/keys',
      headers: { authorization: `Bearer ${owner.adminKey}` },
      payload: { Name: 'Second', Scopes: ['ota'], Partner: 'viator' },
    });
    fileIdOf(await uploadAs(q, second.json().data.Key, JPEG));
  });

  it('refuses more unused bytes than UPLOAD_KEY_MAX_MB', async () => {
    const fresh = await q.newOperator();
    fileIdOf(await uploadAs(q, fresh.otaKey, pngOfSize(700 * 1024)));
    problemOf(await uploadAs(q, fresh.otaKey, pngOfSize(400 * 1024)), 429, 'quota-exceeded');
    fileIdOf(await uploadAs(q, fresh.otaKey, pngOfSize(300 * 1024)));
  });
});

describe('validateWaiverAnswers', () => {
  let activityRowId: number;
  let foreignActivityRowId: number;
  const q: Record<string, number> = {};

  beforeAll(async () => {
    const created = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/activities', {
      Name: 'Skydiving',
      DurationMinutes: 120,
      Timezone: 'Europe/Berlin',
      Currency: 'EUR',
      UnitPrice: 25000,
    });
    activityRowId = created.json().data.ID;
    const activityId = created.json().data.ActivityID;
    const add = async (name: string, body: Record<string, unknown>) => {
      const response = await call(t.app, op.adminKey, 'POST', `/api/v2/admin/activities/${activityId}/questions`, body);
      expect(response.statusCode, response.body).toBe(201);
      q[name] = response.json().data.ID;
    };
    await add('name', { Question: 'Full name', Type: 'text', Required: true });
    await add('fit', { Question: 'Are you fit?', Type: 'boolean', Required: true });
    await add('size', {
      Question: 'Suit size',
      Type: 'select',
      Required: true,
      Options: ['S', 'M', 'L'],
      Translations: { de: { Question: 'Grösse', Options: ['Klein', 'Mittel', 'Gross'] } },
    });
    await add('birth', { Question: 'Date of birth', Type: 'date', Required: false });
    await add('licence', { Question: 'Medical certificate', Type: 'file', Required: true });
    await add('photo', { Question: 'Photo ID (optional)', Type: 'text', Required: false, RequiresFileUpload: true });
    await add('sign', { Question: 'Signature', Type: 'signature', Required: false });
    const foreign = await call(t.app, other.adminKey, 'POST', '/api/v2/admin/activities', {
      Name: 'Foreign',
      DurationMinutes: 60,
      Timezone: 'Europe/Berlin',
      Currency: 'EUR',
      UnitPrice: 100,
    });
    foreignActivityRowId = foreign.json().data.ID;
  });

  const fileOf = async (key: string) => fileIdOf(await upload(PDF, { 'content-type': 'application/pdf' }, key));
  const asViator = (operatorId: number): FileScope => ({ operatorId, by: 'partner', partner: 'viator' });
  const failures = async (answers: { QuestionID: number; Answer: string }[], operatorId = op.operatorId, activity = activityRowId) => {
    const error = await validateWaiverAnswers(t.db.kysely, asViator(operatorId), activity, answers).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationFailed);
    return (error as ValidationFailed).errors!;
  };
  const required = (file: string) => [
    { QuestionID: q.name!, Answer: 'Ada Lovelace' },
    { QuestionID: q.fit!, Answer: 'true' },
    { QuestionID: q.size!, Answer: 'M' },
    { QuestionID: q.licence!, Answer: file },
  ];

  it('is pending without answers', async () => {
    expect(await validateWaiverAnswers(t.db.kysely, asViator(op.operatorId), activityRowId, undefined)).toEqual({
      status: 'pending',
      answers: [],
      fileIds: [],
    });
  });

  it('is complete when every required question is answered, the file answer by an upload of the same operator', async () => {
    const file = await fileOf(op.otaKey);
    const photo = await fileOf(op.otaKey);
    const result = await validateWaiverAnswers(t.db.kysely, asViator(op.operatorId), activityRowId, [
      ...required(file),
      { QuestionID: q.birth!, Answer: '1990-02-28' },
      { QuestionID: q.photo!, Answer: photo },
      { QuestionID: q.sign!, Answer: 'A. Lovelace' },
    ]);
    expect(result.status).toBe('complete');
    expect(result.answers).toContainEqual({ questionId: q.licence, answer: file });
    expect(result.answers).toHaveLength(7);
    expect(result.fileIds.sort()).toEqual([file, photo].sort());
  });

  it('accepts a translated select option and stores the default-language option', async () => {
    const answers = required(await fileOf(op.otaKey)).map((a) => (a.QuestionID === q.size ? { ...a, Answer: 'Gross' } : a));
    const result = await validateWaiverAnswers(t.db.kysely, asViator(op.operatorId), activityRowId, answers);
    expect(result.answers).toContainEqual({ questionId: q.size, answer: 'L' });
  });

  it('names the missing required questions on WaiverAnswers', async () => {
    const errors = await failures([{ QuestionID: q.name!, Answer: 'Ada' }]);
    expect(errors).toEqual([{ field: 'WaiverAnswers', message: expect.stringContaining('Medical certificate') }]);
    expect(errors[0]!.message).toContain('Are you fit?');
    expect(errors[0]!.message).not.toContain('Full name');
    expect((await failures([])).map((e) => e.field)).toEqual(['WaiverAnswers']);
  });

  it("rejects another operator's FileID and an unknown FileID as a file answer", async () => {
    const theirs = await fileOf(other.otaKey);
    for (const answer of [theirs, 'f_doesNotExist000000000000', 'just text']) {
      const errors = await failures(required(answer));
      expect(errors).toEqual([{ field: 'WaiverAnswers[3].Answer', message: expect.stringMatching(/FileID/) }]);
    }
    const photoErrors = await failures([...required(await fileOf(op.otaKey)), { QuestionID: q.photo!, Answer: theirs }]);
    expect(photoErrors.map((e) => e.field)).toEqual(['WaiverAnswers[4].Answer']);
  });

  it('checks each answer by its type and reports every failure at once', async () => {
    const errors = await failures([
      { QuestionID: q.name!, Answer: '   ' },
      { QuestionID: q.fit!, Answer: 'yes' },
      { QuestionID: q.size!, Answer: 'XL' },
      { QuestionID: q.birth!, Answer: '2023-02-29' },
      { QuestionID: q.licence!, Answer: await fileOf(op.otaKey) },
      { QuestionID: 999_999, Answer: 'x' },
      { QuestionID: q.fit!, Answer: 'false' },
    ]);
    expect(errors.map((e) => e.field)).toEqual([
      'WaiverAnswers[0].Answer',
      'WaiverAnswers[1].Answer',
      'WaiverAnswers[2].Answer',
      'WaiverAnswers[3].Answer',
      'WaiverAnswers[5].QuestionID',
      'WaiverAnswers[6].QuestionID',
    ]);
  });

  it('does not accept questions of another activity or another operator', async () => {
    const errors = await failures(required('x'), other.operatorId);
    expect(errors.map((e) => e.field)).toEqual([
      'WaiverAnswers[0].QuestionID',
      'WaiverAnswers[1].QuestionID',
      'WaiverAnswers[2].QuestionID',
      'WaiverAnswers[3].QuestionID',
    ]);
    const elsewhere = await failures([{ QuestionID: q.name!, Answer: 'x' }], other.operatorId, foreignActivityRowId);
    expect(elsewhere).toEqual([{ field: 'WaiverAnswers[0].QuestionID', message: expect.any(String) }]);
    expect(await validateWaiverAnswers(t.db.kysely, asViator(other.operatorId), foreignActivityRowId, [])).toEqual({
      status: 'complete',
      answers: [],
      fileIds: [],
    });
  });
});
