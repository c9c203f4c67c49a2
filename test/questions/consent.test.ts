// Consent questions (issue 26, item 4): a statement the guest must agree to. Only "true" is an answer;
// "false" (or anything else) is 422 naming WaiverAnswers[i].Answer on every channel that takes answers:
// the partner API, the point of sale, the shop's basket, and OCTo (BAD_REQUEST, the one option offered).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer } from '../emails/fixtures.js';
import { openShop } from '../shop/fixtures.js';
import { octoClient } from '../octo/fixtures.js';
import { octoBody, octoError } from '../octo/spec.js';

let t: TestApp;
let op: TestOperator;
let activityId: string;
let consentId: number;
let startsAt: string;
const date = dateFromToday(9);
const slot = () => ({ ActivityID: activityId, Date: date, Time: '10:00', Participants: 1, Customer: customer() });
const answer = (Answer: string) => [{ QuestionID: consentId, Answer }];

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  await openShop(t, op.adminKey);
  activityId = (await createActivity(t, op.adminKey, { Name: 'River rafting' })).ActivityID;
  startsAt = (await createTimeslot(t, op.adminKey, activityId, { Date: date, Time: '10:00', Capacity: 30 })).StartsAt;
  const created = await call(t.app, op.adminKey, 'POST', `/api/v2/admin/activities/${activityId}/questions`, {
    Question: 'I can swim and take part at my own risk.',
    Type: 'consent',
    Required: true,
  });
  expect(created.statusCode, created.body).toBe(201);
  expect(created.json().data).toMatchObject({ Type: 'consent', RequiresFileUpload: false });
  consentId = created.json().data.ID;
});
afterAll(() => t.close());

const bookingCount = async () =>
  Number(
    (
      await t.db.kysely
        .selectFrom('bookings')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('operator_id', '=', op.operatorId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('a consent question', () => {
  it('cannot require a file upload (422)', async () => {
    const refused = await call(t.app, op.adminKey, 'POST', `/api/v2/admin/activities/${activityId}/questions`, {
      Question: 'I agree',
      Type: 'consent',
      Required: false,
      RequiresFileUpload: true,
    });
    expect(problemOf(refused, 422, 'validation').errors?.[0]?.field).toBe('RequiresFileUpload');
  });

  it('refuses "false" and anything but "true" on the partner API and at the point of sale, writing nothing', async () => {
    const before = await bookingCount();
    for (const given of ['false', 'yes', 'TRUE ']) {
      for (const [key, path] of [
        [op.otaKey, '/api/v2/ota/viator/booking'],
        [op.adminKey, '/api/v2/admin/bookings'],
      ] as const) {
        const refused = problemOf(await call(t.app, key, 'POST', path, { ...slot(), WaiverAnswers: answer(given) }), 422, 'validation');
        expect(refused.errors).toEqual([{ field: 'WaiverAnswers[0].Answer', message: expect.stringContaining('must be "true"') }]);
      }
    }
    expect(await bookingCount()).toBe(before);
    const agreed = await call(t.app, op.otaKey, 'POST', '/api/v2/ota/viator/booking', { ...slot(), WaiverAnswers: answer('true') });
    expect(agreed.statusCode, agreed.body).toBe(201);
    expect(agreed.json().data.WaiverStatus).toBe('complete');
  });

  it("refuses a refusal in the shop's basket", async () => {
    const basket = await call(t.app, undefined, 'POST', `/api/v2/shop/${op.operatorId}/baskets`, { Customer: customer() });
    const token = basket.json().data.BasketToken;
    const item = { ActivityID: activityId, Date: date, Time: '10:00', Participants: 1 };
    const refused = await call(t.app, undefined, 'POST', `/api/v2/shop/${op.operatorId}/baskets/${token}/items`, {
      ...item,
      WaiverAnswers: answer('false'),
    });
    expect(problemOf(refused, 422, 'validation').errors?.[0]?.field).toBe('WaiverAnswers[0].Answer');
    const agreed = await call(t.app, undefined, 'POST', `/api/v2/shop/${op.operatorId}/baskets/${token}/items`, {
      ...item,
      WaiverAnswers: answer('true'),
    });
    expect(agreed.statusCode, agreed.body).toBe(201);
  });

  it('offers OCTo resellers the one answer "I agree", and refuses another', async () => {
    const octo = octoClient(t, op.otaKey);
    const product = octoBody(await octo('GET', `/products/${activityId}`, undefined, 'octo/questions'), 'Product');
    expect(product.options[0].questions[0]).toMatchObject({
      id: String(consentId),
      inputType: 'select',
      selectOptions: [{ label: 'I agree', value: 'true' }],
    });
    const unit = product.options[0].units[0].id;
    const hold = octoBody(
      await octo(
        'POST',
        '/bookings',
        { productId: activityId, optionId: 'DEFAULT', availabilityId: startsAt, unitItems: [{ unitId: unit }] },
        'octo/questions',
      ),
      'Booking',
    );
    octoError(
      await octo('PATCH', `/bookings/${hold.uuid}`, { questionAnswers: [{ questionId: String(consentId), value: 'false' }] }),
      400,
      'BAD_REQUEST',
    );
  });
});
