// The partner flow end to end: read the questions, upload the file, book with the answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;
let activityId: string;
const date = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

const uploadAs = async (key: string) => {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v2/ota/viator/uploads',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'image/jpeg' },
    payload: Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.FileID as string;
};
const book = (answers?: { QuestionID: number; Answer: string }[]) =>
  call(t.app, op.otaKey, 'POST', '/api/v2/ota/viator/booking', {
    ActivityID: activityId,
    Date: date,
    Time: '10:00',
    Participants: 1,
    Customer: { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: '+441234567890' },
    ...(answers && { WaiverAnswers: answers }),
  });

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  other = await t.newOperator();
  const activity = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/activities', {
    Name: 'Paragliding',
    DurationMinutes: 60,
    Timezone: 'Europe/Zurich',
    Currency: 'CHF',
    UnitPrice: 18000,
  });
  activityId = activity.json().data.ActivityID;
  const slot = await call(t.app, op.adminKey, 'POST', `/api/v2/admin/activities/${activityId}/timeslots`, {
    Date: date,
    Time: '10:00',
    Capacity: 10,
  });
  expect(slot.statusCode, slot.body).toBe(201);
  for (const body of [
    { Question: 'Weight in kg', Type: 'text', Required: true },
    { Question: 'Medical certificate', Type: 'file', Required: true },
  ]) {
    expect((await call(t.app, op.adminKey, 'POST', `/api/v2/admin/activities/${activityId}/questions`, body)).statusCode).toBe(201);
  }
});
afterAll(() => t.close());

describe('booking with waiver answers', () => {
  it('is complete with every required answer and an uploaded file, pending without answers', async () => {
    const [weight, certificate] = (await call(t.app, op.otaKey, 'GET', `/api/v2/ota/viator/questions/${activityId}`)).json().data;
    const fileId = await uploadAs(op.otaKey);
    const complete = await book([
      { QuestionID: weight.ID, Answer: '72' },
      { QuestionID: certificate.ID, Answer: fileId },
    ]);
    expect(complete.statusCode, complete.body).toBe(201);
    expect(complete.json().data.WaiverStatus).toBe('complete');
    const pending = await book();
    expect(pending.statusCode).toBe(201);
    expect(pending.json().data.WaiverStatus).toBe('pending');
    // Answered by a booking now: the question stays.
    problemOf(await call(t.app, op.adminKey, 'DELETE', `/api/v2/admin/questions/${certificate.ID}`), 409, 'conflict');
  });

  it("is 422 for another operator's FileID or a missing required answer", async () => {
    const [weight, certificate] = (await call(t.app, op.otaKey, 'GET', `/api/v2/ota/viator/questions/${activityId}`)).json().data;
    const theirs = await uploadAs(other.otaKey);
    const foreignFile = problemOf(
      await book([
        { QuestionID: weight.ID, Answer: '72' },
        { QuestionID: certificate.ID, Answer: theirs },
      ]),
      422,
      'validation',
    );
    expect(foreignFile.errors!.map((e) => e.field)).toEqual(['WaiverAnswers[1].Answer']);
    const missing = problemOf(await book([{ QuestionID: weight.ID, Answer: '72' }]), 422, 'validation');
    expect(missing.errors).toEqual([{ field: 'WaiverAnswers', message: expect.stringContaining('Medical certificate') }]);
  });
});
