// Waiver questions: the operator's API, the partner path with Locale, the core path, tenancy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { asUnixSeconds, nowMillis } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;
let activityId: string;
let archivedId: string;
let foreignId: string;

const base = { DurationMinutes: 60, Timezone: 'Europe/Zurich', Currency: 'CHF', UnitPrice: 5000 };
async function newActivity(key: string, name: string): Promise<string> {
  const response = await call(t.app, key, 'POST', '/api/v2/admin/activities', { ...base, Name: name });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.ActivityID;
}
const addQuestion = (body: Record<string, unknown>, id = activityId, key = op.adminKey) =>
  call(t.app, key, 'POST', `/api/v2/admin/activities/${id}/questions`, body);
const partnerQuestions = (query = '', id = activityId, key = op.otaKey) => call(t.app, key, 'GET', `/api/v2/ota/viator/questions/${id}${query}`);

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  other = await t.newOperator();
  activityId = await newActivity(op.adminKey, 'Canyoning');
  archivedId = await newActivity(op.adminKey, 'Old Canyoning');
  await addQuestion({ Question: 'Archived question', Type: 'text', Required: false }, archivedId);
  await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${archivedId}`, { Archived: true });
  foreignId = await newActivity(other.adminKey, 'Foreign Canyoning');
});
afterAll(() => t.close());

describe('operator API: creating questions', () => {
  it('creates a question with defaults: Options [], RequiresFileUpload false, Position after the last', async () => {
    const first = await addQuestion({ Question: '  Can you swim?  ', Type: 'boolean', Required: true });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data).toEqual({
      ID: expect.any(Number),
      Question: 'Can you swim?',
      Type: 'boolean',
      Required: true,
      RequiresFileUpload: false,
      Options: [],
      Position: 1,
      Translations: {},
    });
    const second = await addQuestion({
      Question: 'T-shirt size',
      Type: 'select',
      Required: false,
      Options: ['S', 'M', 'L'],
      Translations: { de: { Question: 'T-Shirt-Grösse', Options: ['Klein', 'Mittel', 'Gross'] }, 'de-ch': { Question: 'Liibli-Grössi' } },
    });
    expect(second.json().data).toMatchObject({
      Position: 2,
      Options: ['S', 'M', 'L'],
      Translations: { de: { Question: 'T-Shirt-Grösse', Options: ['Klein', 'Mittel', 'Gross'] }, 'de-CH': { Question: 'Liibli-Grössi' } },
    });
    const file = await addQuestion({
      Question: 'Upload your diving licence',
      Type: 'file',
      Required: true,
      Translations: { fr: { Question: 'Votre licence' } },
    });
    expect(file.json().data).toMatchObject({ Type: 'file', RequiresFileUpload: true, Position: 3 });
  });

  it('lists by Position, then ID', async () => {
    const early = await addQuestion({ Question: 'Emergency contact', Type: 'text', Required: true, Position: 0 });
    const tie = await addQuestion({ Question: 'Date of birth', Type: 'date', Required: false, Position: 2 });
    const list = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/activities/${activityId}/questions`)).json().data;
    expect(list.map((q: { Question: string }) => q.Question)).toEqual([
      'Emergency contact',
      'Can you swim?',
      'T-shirt size',
      'Date of birth',
      'Upload your diving licence',
    ]);
    expect(early.json().data.Position).toBe(0);
    expect(tie.json().data.ID).toBeGreaterThan(list[2].ID);
  });

  it.each([
    ['a select without options', { Question: 'Size', Type: 'select', Required: true }, ['Options']],
    ['options on a text question', { Question: 'Name', Type: 'text', Required: true, Options: ['a'] }, ['Options']],
    ['duplicate options', { Question: 'Size', Type: 'select', Required: true, Options: ['S', ' S'] }, ['Options']],
    ['a blank question', { Question: '   ', Type: 'text', Required: true }, ['Question']],
    ['a boolean requiring a file', { Question: 'OK?', Type: 'boolean', Required: true, RequiresFileUpload: true }, ['RequiresFileUpload']],
    ['a file question without upload', { Question: 'ID', Type: 'file', Required: true, RequiresFileUpload: false }, ['RequiresFileUpload']],
    ['an unknown type', { Question: 'Q', Type: 'essay', Required: true }, ['Type']],
    ['missing fields', { Question: 'Q' }, ['Required', 'Type']],
    ['a negative position', { Question: 'Q', Type: 'text', Required: true, Position: -1 }, ['Position']],
    [
      'a malformed translation tag',
      { Question: 'Q', Type: 'text', Required: true, Translations: { de_CH: { Question: 'F' } } },
      ['Translations.de_CH'],
    ],
    [
      'two tags for one language',
      { Question: 'Q', Type: 'text', Required: true, Translations: { de: { Question: 'F' }, DE: { Question: 'G' } } },
      ['Translations.DE'],
    ],
    [
      'translated options of another count',
      { Question: 'Size', Type: 'select', Required: true, Options: ['S', 'M'], Translations: { fr: { Question: 'Taille', Options: ['P'] } } },
      ['Translations.fr.Options'],
    ],
    ['a translation without Question', { Question: 'Q', Type: 'text', Required: true, Translations: { fr: {} } }, ['Translations.fr.Question']],
  ])('is 422 for %s', async (_name, body, fields) => {
    const problem = problemOf(await addQuestion(body), 422, 'validation');
    expect(problem.errors!.map((e) => e.field).sort()).toEqual(fields);
  });

  it('reports every failing rule at once', async () => {
    const problem = problemOf(
      await addQuestion({ Question: ' ', Type: 'date', Required: true, RequiresFileUpload: true, Options: ['x'] }),
      422,
      'validation',
    );
    expect(problem.errors!.map((e) => e.field).sort()).toEqual(['Options', 'Question', 'RequiresFileUpload']);
  });

  it("is 404 for another operator's activity, 400 for a malformed ActivityID, 403 for a non-admin key", async () => {
    problemOf(await addQuestion({ Question: 'Q', Type: 'text', Required: true }, foreignId), 404, 'not-found');
    problemOf(await call(t.app, op.adminKey, 'GET', `/api/v2/admin/activities/${foreignId}/questions`), 404, 'not-found');
    problemOf(await addQuestion({ Question: 'Q', Type: 'text', Required: true }, 'not-an-id'), 400, 'bad-request');
    problemOf(await addQuestion({ Question: 'Q', Type: 'text', Required: true }, activityId, op.otaKey), 403, 'forbidden');
  });
});

describe('operator API: changing and deleting questions', () => {
  it('changes fields, resets options when leaving select, and validates the merged result', async () => {
    const created = (
      await addQuestion({
        Question: 'Diet',
        Type: 'select',
        Required: false,
        Options: ['none', 'vegan'],
        Translations: { fr: { Question: 'Régime', Options: ['aucun', 'végan'] } },
      })
    ).json().data;
    const url = `/api/v2/admin/questions/${created.ID}`;
    const renamed = await call(t.app, op.adminKey, 'PATCH', url, { Question: 'Diet?', Required: true });
    expect(renamed.json().data).toMatchObject({ Question: 'Diet?', Required: true, Options: ['none', 'vegan'] });
    const text = await call(t.app, op.adminKey, 'PATCH', url, { Type: 'text' });
    expect(text.json().data).toMatchObject({ Type: 'text', Options: [], Translations: { fr: { Question: 'Régime' } } });
    problemOf(await call(t.app, op.adminKey, 'PATCH', url, { Type: 'select' }), 422, 'validation');
    problemOf(await call(t.app, op.adminKey, 'PATCH', url, {}), 422, 'validation');
    const fileAnswer = await call(t.app, op.adminKey, 'PATCH', url, { RequiresFileUpload: true });
    expect(fileAnswer.json().data.RequiresFileUpload).toBe(true);
    const asFile = await call(t.app, op.adminKey, 'PATCH', url, { Type: 'file' });
    expect(asFile.json().data).toMatchObject({ Type: 'file', RequiresFileUpload: true });
    const asDate = await call(t.app, op.adminKey, 'PATCH', url, { Type: 'date', Position: 50 });
    expect(asDate.json().data).toMatchObject({ Type: 'date', RequiresFileUpload: false, Position: 50 });
  });

  it('deletes (204) and then answers 404; another operator cannot touch it', async () => {
    const created = (await addQuestion({ Question: 'Temporary', Type: 'text', Required: false })).json().data;
    const url = `/api/v2/admin/questions/${created.ID}`;
    problemOf(await call(t.app, other.adminKey, 'PATCH', url, { Question: 'Mine' }), 404, 'not-found');
    problemOf(await call(t.app, other.adminKey, 'DELETE', url), 404, 'not-found');
    const deleted = await call(t.app, op.adminKey, 'DELETE', url);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    problemOf(await call(t.app, op.adminKey, 'DELETE', url), 404, 'not-found');
    problemOf(await call(t.app, op.adminKey, 'PATCH', url, { Question: 'Back' }), 404, 'not-found');
    problemOf(await call(t.app, op.adminKey, 'DELETE', '/api/v2/admin/questions/abc'), 400, 'bad-request');
  });

  it('keeps a question that a booking has answered (409), so the answer keeps its question', async () => {
    const created = (await addQuestion({ Question: 'Answered', Type: 'text', Required: false })).json().data;
    await t.db.write(async (tx) => {
      const activity = await tx.selectFrom('activities').select('id').where('public_id', '=', activityId).executeTakeFirstOrThrow();
      const slot = await tx
        .insertInto('timeslots')
        .values({
          operator_id: op.operatorId,
          activity_id: activity.id,
          date: '2030-01-01',
          time: '10:00',
          starts_at: asUnixSeconds(1_893_488_400),
          ends_at: asUnixSeconds(1_893_492_000),
          capacity: 5,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const booking = await tx
        .insertInto('bookings')
        .values({
          operator_id: op.operatorId,
          reference: 'BK-TESTQ409',
          timeslot_id: slot.id,
          status: 'confirmed',
          source: 'pos',
          partner: null,
          payment_reference: null,
          participants: 1,
          customer_first_name: 'A',
          customer_last_name: 'B',
          customer_email: 'a@example.com',
          customer_phone: '+41790000000',
          waiver_status: 'complete',
          hold_expires_at: null,
          created_at: nowMillis(),
          cancelled_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await tx.insertInto('waiver_answers').values({ booking_id: booking.id, question_id: created.ID, answer: 'yes' }).execute();
    });
    problemOf(await call(t.app, op.adminKey, 'DELETE', `/api/v2/admin/questions/${created.ID}`), 409, 'conflict');
    expect((await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/questions/${created.ID}`, { Required: false })).statusCode).toBe(200);
  });
});

describe('partner and core paths', () => {
  const texts = (response: { json(): { data: { Question: string }[] } }) => response.json().data.map((q) => q.Question);

  it('lists the questions in the default language without Translations', async () => {
    const response = await partnerQuestions();
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data[0]).toEqual({
      ID: expect.any(Number),
      Question: 'Emergency contact',
      Type: 'text',
      Required: true,
      RequiresFileUpload: false,
      Options: [],
      Position: 0,
    });
    expect(data.every((q: object) => !('Translations' in q))).toBe(true);
  });

  it('answers in the exact locale, else its language, else the default text', async () => {
    const byLocale = async (locale: string) =>
      (await partnerQuestions(`?Locale=${locale}`)).json().data.find((q: { Type: string }) => q.Type === 'select');
    expect(await byLocale('de-CH')).toMatchObject({ Question: 'Liibli-Grössi', Options: ['S', 'M', 'L'] });
    expect(await byLocale('de-ch')).toMatchObject({ Question: 'Liibli-Grössi' });
    expect(await byLocale('de')).toMatchObject({ Question: 'T-Shirt-Grösse', Options: ['Klein', 'Mittel', 'Gross'] });
    expect(await byLocale('de-AT')).toMatchObject({ Question: 'T-Shirt-Grösse', Options: ['Klein', 'Mittel', 'Gross'] });
    expect(await byLocale('fr')).toMatchObject({ Question: 'T-shirt size', Options: ['S', 'M', 'L'] });
    expect(texts(await partnerQuestions('?Locale=fr-CH'))).toContain('Votre licence');
    expect(texts(await partnerQuestions('?Locale=en'))).toContain('Upload your diving licence');
  });

  it('is 422 on Locale for a malformed tag', async () => {
    for (const locale of ['de_CH', 'x', '123', '%20']) {
      const problem = problemOf(await partnerQuestions(`?Locale=${locale}`), 422, 'validation');
      expect(problem.errors!.map((e) => e.field)).toEqual(['Locale']);
    }
  });

  it("is 400 for a malformed ActivityID and 404 for unknown, archived or another operator's activity", async () => {
    problemOf(await partnerQuestions('', 'bogus'), 400, 'bad-request');
    problemOf(await partnerQuestions('', 's_doesNotExist123'), 404, 'not-found');
    problemOf(await partnerQuestions('', archivedId), 404, 'not-found');
    problemOf(await partnerQuestions('', foreignId), 404, 'not-found');
  });

  it("needs an ota key for the path's marketplace", async () => {
    problemOf(await partnerQuestions('', activityId, op.usageKey), 403, 'forbidden');
    problemOf(await call(t.app, op.otaKey, 'GET', `/api/v2/ota/expedia/questions/${activityId}`), 403, 'forbidden');
    problemOf(await partnerQuestions('', activityId, ''), 401, 'unauthenticated');
  });

  it('core path: any key of the operator, the same questions, 400/404 as the partner path', async () => {
    const partner = (await partnerQuestions()).json().data;
    for (const key of [op.otaKey, op.usageKey, op.adminKey]) {
      const response = await call(t.app, key, 'GET', `/api/v2/ota/core/questions/${activityId}`);
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toEqual(partner);
    }
    problemOf(await call(t.app, op.otaKey, 'GET', '/api/v2/ota/core/questions/bogus'), 400, 'bad-request');
    problemOf(await call(t.app, other.otaKey, 'GET', `/api/v2/ota/core/questions/${activityId}`), 404, 'not-found');
    problemOf(await call(t.app, op.otaKey, 'GET', `/api/v2/ota/core/questions/${archivedId}`), 404, 'not-found');
    problemOf(await call(t.app, undefined, 'GET', `/api/v2/ota/core/questions/${activityId}`), 401, 'unauthenticated');
  });
});
