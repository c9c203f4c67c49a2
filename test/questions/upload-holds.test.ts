// A file named by a hold is still its uploader's (issue 23, finding 4): it counts against the key's, the
// basket's and the address's quota until a confirmed booking uses it, and once the hold has ended (lapsed,
// released, cancelled) it is swept like any unused upload. Only a confirmed booking keeps a file for good.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer } from '../emails/fixtures.js';
import { sweepUnattachedUploads } from '../../src/questions/upload-sweep.js';
import { GOOD_CARD, openShop } from '../shop/fixtures.js';
import { contact, octoClient } from '../octo/fixtures.js';
import { octoBody } from '../octo/spec.js';
import { fileIdOf, JPEG, uploadAs, uploadToBasket } from './files.js';
import { addMillis, nowMillis } from '../../src/lib/clock.js';

const date = dateFromToday(18);
const HOUR = 3_600_000;
const MINUTE = 60_000;
const ADDRESS = '192.0.2.77';

/** An app with `env`, an operator with an open shop, an activity with a file question and a timeslot. */
async function setUp(env: Record<string, string> = {}) {
  const t = await createTestApp(env);
  const op = await t.newOperator();
  await openShop(t, op.adminKey);
  const activityId = (await createActivity(t, op.adminKey)).ActivityID;
  const slot = await createTimeslot(t, op.adminKey, activityId, { Date: date, Time: '10:00', Capacity: 50 });
  const question = await call(t.app, op.adminKey, 'POST', `/api/v2/admin/activities/${activityId}/questions`, {
    Question: 'Photo ID',
    Type: 'file',
    Required: true,
  });
  return { t, op, activityId, availabilityId: slot.StartsAt, questionId: question.json().data.ID as number };
}
type Setup = Awaited<ReturnType<typeof setUp>>;

const shop = (s: Setup) => `/api/v2/shop/${s.op.operatorId}`;

async function openBasket(s: Setup): Promise<string> {
  const response = await call(s.t.app, undefined, 'POST', `${shop(s)}/baskets`, { Customer: customer() });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.BasketToken;
}

/** A one-seat basket item (a hold) naming the file; answers the booking's reference. */
async function holdInBasket(s: Setup, token: string, fileId: string): Promise<string> {
  const item = await call(s.t.app, undefined, 'POST', `${shop(s)}/baskets/${token}/items`, {
    ActivityID: s.activityId,
    Date: date,
    Time: '10:00',
    Participants: 1,
    WaiverAnswers: [{ QuestionID: s.questionId, Answer: fileId }],
  });
  expect(item.statusCode, item.body).toBe(201);
  return item.json().data.Items.at(-1).BookingReference;
}

/** A partner's booking naming the file: on hold for `holdMinutes`, or confirmed at once without. */
async function partnerBooking(s: Setup, fileId: string, holdMinutes?: number): Promise<string> {
  const booked = await call(s.t.app, s.op.otaKey, 'POST', '/api/v2/ota/viator/booking', {
    ActivityID: s.activityId,
    Date: date,
    Time: '10:00',
    Participants: 1,
    Customer: customer(),
    WaiverAnswers: [{ QuestionID: s.questionId, Answer: fileId }],
    ...(holdMinutes !== undefined && { HoldMinutes: holdMinutes }),
  });
  expect(booked.statusCode, booked.body).toBe(201);
  return booked.json().data.BookingReference;
}

const exists = async (s: Setup, fileId: string) =>
  (await s.t.db.kysely.selectFrom('uploads').select('id').where('public_id', '=', fileId).executeTakeFirst()) !== undefined;

/** Makes the file look uploaded `hours` ago (the sweep and the quota read created_at). */
const age = (s: Setup, fileId: string, hours: number) =>
  s.t.db.kysely
    .updateTable('uploads')
    .set({ created_at: addMillis(nowMillis(), -hours * HOUR) })
    .where('public_id', '=', fileId)
    .execute();

describe('quotas count the files that holds name', () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setUp({ UPLOAD_ADDRESS_MAX_FILES: '2', UPLOAD_BASKET_MAX_FILES: '2', UPLOAD_KEY_MAX_FILES: '2' });
  });
  afterAll(() => s.t.close());

  it('the guests at one address keep at most UPLOAD_ADDRESS_MAX_FILES files, even when each is named by a basket item (429)', async () => {
    for (let i = 0; i < 2; i++) {
      const token = await openBasket(s);
      await holdInBasket(s, token, fileIdOf(await uploadToBasket(s.t, s.op.operatorId, token, JPEG, 'image/jpeg', ADDRESS)));
    }
    const refused = await uploadToBasket(s.t, s.op.operatorId, await openBasket(s), JPEG, 'image/jpeg', ADDRESS);
    expect(problemOf(refused, 429, 'quota-exceeded').detail).toMatch(/This address .* no confirmed booking/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('a basket uploads at most UPLOAD_BASKET_MAX_FILES files, whether its items name them or not (409)', async () => {
    const token = await openBasket(s);
    for (const address of ['198.51.100.31', '198.51.100.32']) {
      await holdInBasket(s, token, fileIdOf(await uploadToBasket(s.t, s.op.operatorId, token, JPEG, 'image/jpeg', address)));
    }
    problemOf(await uploadToBasket(s.t, s.op.operatorId, token, JPEG, 'image/jpeg', '198.51.100.33'), 409, 'conflict');
  });

  it('an API key keeps at most UPLOAD_KEY_MAX_FILES files named only by holds (429); confirming a hold makes room', async () => {
    const held: string[] = [];
    for (let i = 0; i < 2; i++) held.push(await partnerBooking(s, fileIdOf(await uploadAs(s.t, s.op.otaKey, JPEG)), 30));
    problemOf(await uploadAs(s.t, s.op.otaKey, JPEG), 429, 'quota-exceeded');
    const confirmed = await call(s.t.app, s.op.otaKey, 'POST', `/api/v2/ota/viator/booking/${held[0]}/confirm`);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    fileIdOf(await uploadAs(s.t, s.op.otaKey, JPEG));
  });
});

describe('the sweep and files named by holds', () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setUp();
  });
  afterAll(() => s.t.close());

  it('keeps a file while a hold naming it may still be confirmed, and deletes it once the hold has lapsed', async () => {
    const token = await openBasket(s);
    const fileId = fileIdOf(await uploadToBasket(s.t, s.op.operatorId, token, JPEG));
    await holdInBasket(s, token, fileId);
    // Uploaded a day and more ago, named by a hold of 10 minutes (BASKET_HOLD_MINUTES): the live hold keeps it.
    await age(s, fileId, 25);
    await sweepUnattachedUploads(s.t.db, 24);
    expect(await exists(s, fileId)).toBe(true);
    // A day after the hold lapsed, it goes like any unused upload.
    await sweepUnattachedUploads(s.t.db, 24, addMillis(nowMillis(), 24 * HOUR + 15 * MINUTE));
    expect(await exists(s, fileId)).toBe(false);
  });

  it('keeps a file as long as its hold was extended (begin-checkout), and no longer', async () => {
    const token = await openBasket(s);
    const fileId = fileIdOf(await uploadToBasket(s.t, s.op.operatorId, token, JPEG));
    await holdInBasket(s, token, fileId);
    const begun = await call(s.t.app, undefined, 'POST', `${shop(s)}/baskets/${token}/begin-checkout`);
    expect(begun.statusCode, begun.body).toBe(200);
    // Held 20 minutes from now (CHECKOUT_HOLD_MINUTES) instead of 10.
    await sweepUnattachedUploads(s.t.db, 24, addMillis(nowMillis(), 24 * HOUR + 15 * MINUTE));
    expect(await exists(s, fileId)).toBe(true);
    await sweepUnattachedUploads(s.t.db, 24, addMillis(nowMillis(), 24 * HOUR + 25 * MINUTE));
    expect(await exists(s, fileId)).toBe(false);
  });

  it('deletes the files of holds that were released by the operator or cancelled, as of lapsed ones', async () => {
    const released = fileIdOf(await uploadAs(s.t, s.op.otaKey, JPEG));
    const cancelled = fileIdOf(await uploadAs(s.t, s.op.otaKey, JPEG));
    const releasedRef = await partnerBooking(s, released, 30);
    const cancelledRef = await partnerBooking(s, cancelled, 30);
    expect((await call(s.t.app, s.op.adminKey, 'POST', `/api/v2/admin/holds/${releasedRef}/release`)).statusCode).toBe(200);
    expect((await call(s.t.app, s.op.otaKey, 'POST', `/api/v2/ota/viator/booking/${cancelledRef}/cancel`)).statusCode).toBe(200);
    await sweepUnattachedUploads(s.t.db, 24, addMillis(nowMillis(), 25 * HOUR));
    expect(await exists(s, released)).toBe(false);
    expect(await exists(s, cancelled)).toBe(false);
  });

  it("OCTo: the files a reservation's answers name are held, those of the confirmed booking kept; a file answered over is swept", async () => {
    const octo = octoClient(s.t, s.op.otaKey);
    const first = fileIdOf(await uploadAs(s.t, s.op.otaKey, JPEG));
    const second = fileIdOf(await uploadAs(s.t, s.op.otaKey, JPEG));
    const answer = (fileId: string) => ({ questionAnswers: [{ questionId: String(s.questionId), value: fileId }] });
    const hold = octoBody(
      await octo(
        'POST',
        '/bookings',
        { productId: s.activityId, optionId: 'DEFAULT', availabilityId: s.availabilityId, unitItems: [{ unitId: 'adult' }], ...answer(first) },
        'octo/questions',
      ),
      'Booking',
    );
    const changed = await octo('PATCH', `/bookings/${hold.uuid}`, answer(second), 'octo/questions');
    expect(changed.statusCode, changed.body).toBe(200);
    octoBody(await octo('POST', `/bookings/${hold.uuid}/confirm`, { contact, resellerReference: 'V-1' }, 'octo/questions'), 'Booking');

    await sweepUnattachedUploads(s.t.db, 24, addMillis(nowMillis(), 25 * HOUR));
    expect(await exists(s, first)).toBe(false);
    expect(await exists(s, second)).toBe(true);
  });

  it('keeps for good the files of confirmed bookings (paid basket, confirmed hold), also once cancelled: staff may still need them', async () => {
    const token = await openBasket(s);
    const paidFile = fileIdOf(await uploadToBasket(s.t, s.op.operatorId, token, JPEG));
    const paidRef = await holdInBasket(s, token, paidFile);
    const paid = await call(s.t.app, undefined, 'POST', `${shop(s)}/baskets/${token}/checkout`, { Payment: GOOD_CARD });
    expect(paid.statusCode, paid.body).toBe(200);
    const confirmedFile = fileIdOf(await uploadAs(s.t, s.op.otaKey, JPEG));
    const confirmedRef = await partnerBooking(s, confirmedFile, 30);
    expect((await call(s.t.app, s.op.otaKey, 'POST', `/api/v2/ota/viator/booking/${confirmedRef}/confirm`)).statusCode).toBe(200);
    expect((await call(s.t.app, s.op.adminKey, 'POST', `/api/v2/admin/bookings/${paidRef}/cancel`)).statusCode).toBe(200);

    await sweepUnattachedUploads(s.t.db, 24, addMillis(nowMillis(), 30 * 24 * HOUR));
    expect(await exists(s, paidFile)).toBe(true);
    expect(await exists(s, confirmedFile)).toBe(true);
    expect((await call(s.t.app, s.op.adminKey, 'GET', `/api/v2/admin/bookings/${paidRef}/files/${paidFile}`)).statusCode).toBe(200);
  });
});
