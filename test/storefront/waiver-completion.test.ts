// A guest completes a pending waiver through their booking's link (issue 26, item 4): a point-of-sale or
// marketplace booking made without answers. The page reads the questions, uploads go through the link and
// belong to that booking only, the answers are checked like every channel's (a consent must be agreed to),
// and a complete waiver is not changed again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { posBooking } from '../emails/fixtures.js';
import { JPEG, PDF, fileIdOf, uploadToBasket } from '../questions/files.js';
import { openShop } from '../shop/fixtures.js';
import { manageToken } from '../../src/storefront/manage.js';
import { customer } from '../emails/fixtures.js';

let t: TestApp;
let op: TestOperator;
let activityId: string;
let plainId: string;
let consentId: number;
let photoId: number;
const date = dateFromToday(11);

const link = (reference: string, operator = op) =>
  `/api/v2/shop/${operator.operatorId}/bookings/${manageToken(t.app.instanceKeys, operator.operatorId, reference)}`;
const uploadThrough = (reference: string, payload: Buffer, address = '198.51.100.4') =>
  t.app.inject({
    method: 'POST',
    url: `${link(reference)}/uploads`,
    headers: { 'content-type': 'application/octet-stream' },
    payload,
    remoteAddress: address,
  });
const complete = (reference: string, WaiverAnswers: { QuestionID: number; Answer: string }[]) =>
  call(t.app, undefined, 'POST', `${link(reference)}/waiver`, { WaiverAnswers });
const adminBooking = async (reference: string) => (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${reference}`)).json().data;

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  await openShop(t, op.adminKey);
  activityId = (await createActivity(t, op.adminKey, { Name: 'Canyoning' })).ActivityID;
  plainId = (await createActivity(t, op.adminKey, { Name: 'Museum' })).ActivityID;
  for (const id of [activityId, plainId]) await createTimeslot(t, op.adminKey, id, { Date: date, Time: '10:00', Capacity: 40 });
  const add = async (body: Record<string, unknown>) =>
    (await call(t.app, op.adminKey, 'POST', `/api/v2/admin/activities/${activityId}/questions`, body)).json().data.ID as number;
  consentId = await add({
    Question: 'I take part at my own risk.',
    Type: 'consent',
    Required: true,
    Translations: { de: { Question: 'Auf eigene Gefahr.' } },
  });
  photoId = await add({ Question: 'Photo ID', Type: 'file', Required: true, RequiresFileUpload: true });
});
afterAll(() => t.close());

describe("completing a booking's waiver through its link", () => {
  it('reads the questions in the guest language, takes an upload through the link and the answers, then is complete', async () => {
    const { BookingReference } = await posBooking(t, op.adminKey, { ActivityID: activityId, Date: date, Time: '10:00' });
    const page = (await call(t.app, undefined, 'GET', link(BookingReference))).json().data;
    expect(page).toMatchObject({ WaiverStatus: 'pending', WaiverToComplete: true });
    const waiver = (await call(t.app, undefined, 'GET', `${link(BookingReference)}/waiver?Locale=de`)).json().data;
    expect(waiver.WaiverStatus).toBe('pending');
    expect(waiver.Questions.map((q: { ID: number; Question: string; Type: string }) => [q.ID, q.Question, q.Type])).toEqual([
      [consentId, 'Auf eigene Gefahr.', 'consent'],
      [photoId, 'Photo ID', 'file'],
    ]);

    const fileId = fileIdOf(await uploadThrough(BookingReference, JPEG));
    // A refusal of the consent and a missing answer are 422, naming each; nothing is stored.
    const refused = problemOf(await complete(BookingReference, [{ QuestionID: consentId, Answer: 'false' }]), 422, 'validation');
    expect(refused.errors?.map((e) => e.field)).toEqual(['WaiverAnswers[0].Answer', 'WaiverAnswers']);
    expect((await adminBooking(BookingReference)).WaiverStatus).toBe('pending');

    const done = await complete(BookingReference, [
      { QuestionID: consentId, Answer: 'true' },
      { QuestionID: photoId, Answer: fileId },
    ]);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data).toMatchObject({ WaiverStatus: 'complete', WaiverToComplete: false });
    expect((await adminBooking(BookingReference)).WaiverStatus).toBe('complete');
    const answers = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${BookingReference}/waiver-answers`)).json().data;
    expect(answers.map((a: { QuestionID: number; Answer: string }) => [a.QuestionID, a.Answer])).toEqual([
      [consentId, 'true'],
      [photoId, fileId],
    ]);
    // The file is the booking's for good (no longer swept).
    const row = await t.db.kysely
      .selectFrom('uploads')
      .select(['attached_at', 'booking_id'])
      .where('public_id', '=', fileId)
      .executeTakeFirstOrThrow();
    expect(row.attached_at).not.toBeNull();
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'booking.waiver-complete')
      .where('resource_id', '=', BookingReference)
      .execute();
    expect(audit.map((entry) => entry.actor_label)).toEqual(['guest (manage link)']);

    // Complete is complete: no new answers, no more uploads.
    problemOf(
      await complete(BookingReference, [
        { QuestionID: consentId, Answer: 'true' },
        { QuestionID: photoId, Answer: fileId },
      ]),
      409,
      'conflict',
    );
    problemOf(await uploadThrough(BookingReference, PDF), 409, 'conflict');
  });

  it("refuses another booking's upload, a basket's upload, and a cancelled booking", async () => {
    const first = (await posBooking(t, op.adminKey, { ActivityID: activityId, Date: date, Time: '10:00' })).BookingReference;
    const second = (await posBooking(t, op.adminKey, { ActivityID: activityId, Date: date, Time: '10:00' })).BookingReference;
    const firstFile = fileIdOf(await uploadThrough(first, JPEG));
    const basket = (await call(t.app, undefined, 'POST', `/api/v2/shop/${op.operatorId}/baskets`, { Customer: customer() })).json().data.BasketToken;
    const basketFile = fileIdOf(await uploadToBasket(t, op.operatorId, basket, PDF));
    for (const fileId of [firstFile, basketFile]) {
      const refused = problemOf(
        await complete(second, [
          { QuestionID: consentId, Answer: 'true' },
          { QuestionID: photoId, Answer: fileId },
        ]),
        422,
        'validation',
      );
      expect(refused.errors).toEqual([{ field: 'WaiverAnswers[1].Answer', message: expect.stringContaining("through this booking's link") }]);
    }
    expect((await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${second}/cancel`)).statusCode).toBe(200);
    expect((await call(t.app, undefined, 'GET', link(second))).json().data.WaiverToComplete).toBe(false);
    problemOf(await complete(second, [{ QuestionID: consentId, Answer: 'true' }]), 409, 'conflict');
    problemOf(await uploadThrough(second, JPEG), 409, 'conflict');
  });

  it('has nothing to complete for an activity without questions, and 404 for an altered link', async () => {
    const { BookingReference } = await posBooking(t, op.adminKey, { ActivityID: plainId, Date: date, Time: '10:00' });
    expect((await call(t.app, undefined, 'GET', link(BookingReference))).json().data).toMatchObject({
      WaiverStatus: 'pending',
      WaiverToComplete: false,
    });
    const altered = `${link(BookingReference).slice(0, -4)}0000`;
    problemOf(await call(t.app, undefined, 'POST', `${altered}/waiver`, { WaiverAnswers: [] }), 404, 'not-found');
    problemOf(
      await t.app.inject({ method: 'POST', url: `${altered}/uploads`, payload: JPEG, headers: { 'content-type': 'image/jpeg' } }),
      404,
      'not-found',
    );
  });
});
