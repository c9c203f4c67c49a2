// Guests of the public shop upload their waiver files to their basket and name them in its items; a
// basket's files are its own, and quotas per basket and per address bound what one guest can store
// (issue 11, finding 6).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer } from '../emails/fixtures.js';
import { fileIdOf, JPEG, PDF, uploadAs, uploadToBasket } from '../questions/files.js';
import { openShop } from './fixtures.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;
let activityId: string;
let questionId: number;
const date = dateFromToday(15);
const shop = (operatorId = op.operatorId) => `/api/v2/shop/${operatorId}`;

async function openBasket(app = t, operatorId = op.operatorId): Promise<string> {
  const response = await call(app.app, undefined, 'POST', `${shop(operatorId)}/baskets`, { Customer: customer() });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.BasketToken;
}

const addItem = (token: string, fileId: string) =>
  call(t.app, undefined, 'POST', `${shop()}/baskets/${token}/items`, {
    ActivityID: activityId,
    Date: date,
    Time: '10:00',
    Participants: 1,
    WaiverAnswers: [{ QuestionID: questionId, Answer: fileId }],
  });

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  other = await t.newOperator();
  await openShop(t, op.adminKey);
  await openShop(t, other.adminKey);
  activityId = (await createActivity(t, op.adminKey)).ActivityID;
  await createTimeslot(t, op.adminKey, activityId, { Date: date, Time: '10:00', Capacity: 50 });
  questionId = (
    await call(t.app, op.adminKey, 'POST', `/api/v2/admin/activities/${activityId}/questions`, { Question: 'Photo ID', Type: 'file', Required: true })
  ).json().data.ID;
});
afterAll(() => t.close());

describe('POST /api/v2/shop/{OperatorID}/baskets/{BasketToken}/uploads', () => {
  it("stores a guest's file for the basket (no key), which the basket's items then name; staff see it on the booking", async () => {
    const token = await openBasket();
    const upload = await uploadToBasket(t, op.operatorId, token, PDF, 'application/pdf');
    expect(upload.headers['cache-control']).toBe('no-store');
    const fileId = fileIdOf(upload);
    const row = await t.db.kysely.selectFrom('uploads').selectAll().where('public_id', '=', fileId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      operator_id: op.operatorId,
      api_key_id: null,
      partner: null,
      basket_id: expect.any(Number),
      client_fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(row.client_fingerprint).not.toContain('203.0.113.7');

    const item = await addItem(token, fileId);
    expect(item.statusCode, item.body).toBe(201);
    const reference = item.json().data.Items[0].BookingReference;
    const answers = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${reference}/waiver-answers`)).json().data;
    expect(answers[0].File).toMatchObject({ FileID: fileId, ContentType: 'application/pdf' });
    expect((await call(t.app, op.adminKey, 'GET', answers[0].File.Download)).rawPayload.equals(PDF)).toBe(true);
  });

  it("a file of one basket cannot be named by another basket, by a partner, or in another operator's shop", async () => {
    const token = await openBasket();
    const fileId = fileIdOf(await uploadToBasket(t, op.operatorId, token, JPEG));
    const elsewhere = problemOf(await addItem(await openBasket(), fileId), 422, 'validation');
    expect(elsewhere.errors).toEqual([{ field: 'WaiverAnswers[0].Answer', message: expect.stringContaining('to this basket') }]);
    const partner = await call(t.app, op.otaKey, 'POST', '/api/v2/ota/viator/booking', {
      ActivityID: activityId,
      Date: date,
      Time: '10:00',
      Participants: 1,
      Customer: customer(),
      WaiverAnswers: [{ QuestionID: questionId, Answer: fileId }],
    });
    problemOf(partner, 422, 'validation');
    // Nor can a basket name a partner's upload.
    problemOf(await addItem(token, fileIdOf(await uploadAs(t, op.otaKey, JPEG))), 422, 'validation');
    // Another operator's shop does not know the basket; an unknown basket is a 404 too.
    problemOf(await uploadToBasket(t, other.operatorId, token, JPEG), 404, 'not-found');
    problemOf(await uploadToBasket(t, op.operatorId, 'A'.repeat(22), JPEG), 404, 'not-found');
    problemOf(await uploadToBasket(t, op.operatorId, 'short', JPEG), 400, 'bad-request');
  });

  it('takes only images and PDFs by their content (415), not empty bodies (422), not after payment (409)', async () => {
    const token = await openBasket();
    problemOf(await uploadToBasket(t, op.operatorId, token, '<html><script>alert(1)</script></html>', 'image/jpeg'), 415, 'unsupported-media-type');
    problemOf(await uploadToBasket(t, op.operatorId, token, '', 'image/jpeg'), 422, 'validation');
    const fileId = fileIdOf(await uploadToBasket(t, op.operatorId, token, JPEG, 'image/jpeg'));
    expect((await addItem(token, fileId)).statusCode).toBe(201);
    const paid = await call(t.app, undefined, 'POST', `${shop()}/baskets/${token}/checkout`, {
      Payment: { Provider: 'test', CardNumber: '4242424242424242' },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    problemOf(await uploadToBasket(t, op.operatorId, token, JPEG), 409, 'conflict');
  });
});

describe('shop upload quotas', () => {
  let q: TestApp;
  let owner: TestOperator;
  beforeAll(async () => {
    q = await createTestApp({ UPLOAD_BASKET_MAX_FILES: '2', UPLOAD_ADDRESS_MAX_FILES: '3', UPLOAD_BASKET_MAX_MB: '5' });
    owner = await q.newOperator();
    await openShop(q, owner.adminKey);
  });
  afterAll(() => q.close());

  it('a basket takes UPLOAD_BASKET_MAX_FILES files in its life (409 after)', async () => {
    const token = await openBasket(q, owner.operatorId);
    fileIdOf(await uploadToBasket(q, owner.operatorId, token, JPEG, 'image/jpeg', '198.51.100.1'));
    fileIdOf(await uploadToBasket(q, owner.operatorId, token, JPEG, 'image/jpeg', '198.51.100.2'));
    expect(problemOf(await uploadToBasket(q, owner.operatorId, token, JPEG, 'image/jpeg', '198.51.100.3'), 409, 'conflict').detail).toMatch(/basket/);
  });

  it('the guests at one address hold UPLOAD_ADDRESS_MAX_FILES unused files across baskets (429 with Retry-After); another address is not held back', async () => {
    for (let i = 0; i < 3; i++) {
      const token = await openBasket(q, owner.operatorId);
      fileIdOf(await uploadToBasket(q, owner.operatorId, token, JPEG, 'image/jpeg', '192.0.2.50'));
    }
    const token = await openBasket(q, owner.operatorId);
    const refused = await uploadToBasket(q, owner.operatorId, token, JPEG, 'image/jpeg', '192.0.2.50');
    problemOf(refused, 429, 'quota-exceeded');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    fileIdOf(await uploadToBasket(q, owner.operatorId, token, JPEG, 'image/jpeg', '192.0.2.51'));
  });
});
