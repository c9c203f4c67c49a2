import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday, getTimeslot, type AdminTimeslot } from '../availability/fixtures.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;
let activityId: string;
let slot: AdminTimeslot;
let date: string;
let day = 10;

const customer = { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: '+441234567890' };
const bodyFor = (overrides: Record<string, unknown> = {}) => ({
  ActivityID: activityId,
  Date: date,
  Time: '10:00',
  Participants: 2,
  Customer: customer,
  ...overrides,
});
const book = (body: unknown, key = op.otaKey, partner = 'viator') => call(t.app, key, 'POST', `/api/v2/ota/${partner}/booking`, body);
const fieldsOf = (problem: { errors?: { field: string }[] }) => problem.errors!.map((e) => e.field);

async function countRows() {
  const bookings = await t.db.kysely
    .selectFrom('bookings')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  const answers = await t.db.kysely
    .selectFrom('waiver_answers')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return { bookings: Number(bookings.n), answers: Number(answers.n) };
}

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  other = await t.newOperator();
  activityId = (await createActivity(t, op.adminKey, { MaxParticipantsPerBooking: 4, DurationMinutes: 120 })).ActivityID;
});
afterAll(() => t.close());

// Each test books on a timeslot of its own, on its own date.
beforeEach(async () => {
  date = dateFromToday(day++);
  slot = await createTimeslot(t, op.adminKey, activityId, { Date: date, Time: '10:00', Capacity: 5 });
});

describe('POST /api/v2/ota/{partner}/booking', () => {
  it('books the seats (201) and answers the booking with a Location', async () => {
    const response = await book(bodyFor({ PaymentReference: 'viator-pay-123' }));
    expect(response.statusCode, response.body).toBe(201);
    const booking = response.json().data;
    expect(booking).toEqual({
      BookingReference: expect.stringMatching(/^BK-[A-HJ-NP-Z2-9]{8}$/),
      Status: 'confirmed',
      Source: 'partner',
      Partner: 'viator',
      PaymentReference: 'viator-pay-123',
      ActivityID: activityId,
      Date: date,
      Time: '10:00',
      StartsAt: expect.stringMatching(new RegExp(`^${date}T10:00:00\\+0[12]:00$`)),
      Participants: 2,
      Seats: 2,
      Tickets: [{ Type: 'adult', Name: 'Adult', Quantity: 2, UnitPrice: expect.any(Number) }],
      Currency: expect.any(String),
      Total: expect.any(Number),
      Customer: customer,
      WaiverStatus: 'pending',
      Locale: 'en',
      HoldExpiresAt: null,
      CreatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
    });
    expect(response.headers.location).toBe(`/api/v2/ota/viator/booking/${booking.BookingReference}`);
    expect((await getTimeslot(t, op.adminKey, slot.ID)).Booked).toBe(2);
    const read = await call(t.app, op.otaKey, 'GET', response.headers.location as string);
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toEqual(booking);
  });

  it('stores names trimmed and PaymentReference null when not given', async () => {
    const response = await book(bodyFor({ Customer: { ...customer, FirstName: '  Ada ', LastName: ' Lovelace' } }));
    expect(response.json().data).toMatchObject({ Customer: { FirstName: 'Ada', LastName: 'Lovelace' }, PaymentReference: null });
  });

  it('is 409 when fewer seats are left than asked for, and writes nothing', async () => {
    expect((await book(bodyFor({ Participants: 4 }))).statusCode).toBe(201);
    const before = await countRows();
    const problem = problemOf(await book(bodyFor({ Participants: 2 })), 409, 'insufficient-capacity');
    expect(problem.detail).toMatch(/1 left/);
    expect(await countRows()).toEqual(before);
    expect((await getTimeslot(t, op.adminKey, slot.ID)).Booked).toBe(4);
    expect((await book(bodyFor({ Participants: 1 }))).statusCode).toBe(201);
    problemOf(await book(bodyFor({ Participants: 1 })), 409, 'insufficient-capacity');
  });

  it("is 404 for an unknown, archived or other operator's activity, and for a Date and Time without a timeslot", async () => {
    const archived = (await createActivity(t, op.adminKey, { Name: 'Archived' })).ActivityID;
    await createTimeslot(t, op.adminKey, archived, { Date: date, Time: '10:00', Capacity: 5 });
    await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${archived}`, { Archived: true });
    const foreign = (await createActivity(t, other.adminKey, { Name: 'Theirs' })).ActivityID;
    await createTimeslot(t, other.adminKey, foreign, { Date: date, Time: '10:00', Capacity: 5 });
    const before = await countRows();
    for (const id of ['s_DoesNotExist99', archived, foreign]) problemOf(await book(bodyFor({ ActivityID: id })), 404, 'not-found');
    problemOf(await book(bodyFor({ Time: '11:00' })), 404, 'not-found');
    problemOf(await book(bodyFor({ Date: dateFromToday(300) })), 404, 'not-found');
    expect(await countRows()).toEqual(before);
  });
});

describe('validation (422)', () => {
  it('names every failing field at once', async () => {
    const problem = problemOf(
      await book({
        ActivityID: 'kayak',
        Date: '2031-02-30',
        Time: '7:00',
        Participants: 0,
        Customer: { FirstName: '   ', LastName: '', Email: 'not-an-email', Phone: '0301234567' },
        PaymentReference: '',
        HoldMinutes: 61,
      }),
      422,
      'validation',
    );
    expect(fieldsOf(problem).sort()).toEqual([
      'ActivityID',
      'Customer.Email',
      'Customer.FirstName',
      'Customer.LastName',
      'Customer.Phone',
      'Date',
      'HoldMinutes',
      'Participants',
      'PaymentReference',
      'Time',
    ]);
    expect(problem.detail).toBe(problem.errors![0]!.message);
  });

  it('requires every field of the request', async () => {
    const problem = problemOf(await book({}), 422, 'validation');
    expect(fieldsOf(problem).sort()).toEqual(['ActivityID', 'Customer', 'Date', 'Participants', 'Time']);
    const inner = problemOf(await book(bodyFor({ Customer: {} })), 422, 'validation');
    expect(fieldsOf(inner).sort()).toEqual(['Customer.Email', 'Customer.FirstName', 'Customer.LastName', 'Customer.Phone']);
  });

  it('checks each rule on its own', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ Participants: 2.5 }, 'Participants'],
      [{ Participants: '2' }, 'Participants'],
      [{ Time: '24:00' }, 'Time'],
      [{ Date: '31-12-2030' }, 'Date'],
      [{ Customer: { ...customer, Email: 'ada@' } }, 'Customer.Email'],
      [{ Customer: { ...customer, Phone: '+123456' } }, 'Customer.Phone'],
      [{ Customer: { ...customer, Phone: '+1234567890123456' } }, 'Customer.Phone'],
      [{ Customer: { ...customer, Phone: '+49 30 1234567' } }, 'Customer.Phone'],
      [{ PaymentReference: 'x'.repeat(256) }, 'PaymentReference'],
      [{ HoldMinutes: 0 }, 'HoldMinutes'],
      [{ ActivityID: 's_short' }, 'ActivityID'],
      // PostgreSQL refuses NUL in text: these must be 422s, never a 500 from the database.
      [{ Customer: { ...customer, FirstName: 'Ada\u0000' } }, 'Customer.FirstName'],
      [{ Customer: { ...customer, LastName: 'Love\nlace' } }, 'Customer.LastName'],
      [{ PaymentReference: 'pay\u0000' }, 'PaymentReference'],
      [{ WaiverAnswers: [{ QuestionID: 1, Answer: 'yes\u0000' }] }, 'WaiverAnswers[0].Answer'],
      [{ WaiverAnswers: [{ QuestionID: 2147483648, Answer: 'yes' }] }, 'WaiverAnswers[0].QuestionID'],
    ];
    for (const [overrides, field] of cases) {
      expect(fieldsOf(problemOf(await book(bodyFor(overrides)), 422, 'validation')), JSON.stringify(overrides)).toEqual([field]);
    }
    const edge = await book(
      bodyFor({ Customer: { ...customer, FirstName: 'José-Ñoño', LastName: '李', Phone: '+1234567' }, PaymentReference: 'x'.repeat(255) }),
    );
    expect(edge.statusCode, edge.body).toBe(201);
  });

  it("checks Participants against the product's maximum after the activity and timeslot are found", async () => {
    const problem = problemOf(await book(bodyFor({ Participants: 5 })), 422, 'validation');
    expect(problem.errors).toEqual([{ field: 'Participants', message: 'Participants must be at most 4 for this activity' }]);
    problemOf(await book(bodyFor({ Participants: 5, Time: '11:00' })), 404, 'not-found');
  });

  it('is 422 on Time for a timeslot that has started, before checking seats', async () => {
    const past = dateFromToday(-1);
    const started = await createTimeslot(t, op.adminKey, activityId, { Date: past, Time: '10:00', Capacity: 1 });
    const problem = problemOf(await book(bodyFor({ Date: past, Participants: 3 })), 422, 'validation');
    expect(fieldsOf(problem)).toEqual(['Time']);
    expect(problem.detail).toMatch(/started/);
    expect((await getTimeslot(t, op.adminKey, started.ID)).Booked).toBe(0);
    // Participants above the product's maximum is reported first.
    expect(fieldsOf(problemOf(await book(bodyFor({ Date: past, Participants: 9 })), 422, 'validation'))).toEqual(['Participants']);
  });
});

describe('waiver answers', () => {
  it('completes the waiver and stores the answers; without answers it is pending', async () => {
    const id = (await createActivity(t, op.adminKey, { Name: 'With waiver' })).ActivityID;
    await createTimeslot(t, op.adminKey, id, { Date: date, Time: '10:00', Capacity: 5 });
    const question = await call(t.app, op.adminKey, 'POST', `/api/v2/admin/activities/${id}/questions`, {
      Question: 'Can you swim?',
      Type: 'boolean',
      Required: true,
    });
    expect(question.statusCode, question.body).toBe(201);
    const questionId = question.json().data.ID as number;

    const before = await countRows();
    const complete = await book(bodyFor({ ActivityID: id, WaiverAnswers: [{ QuestionID: questionId, Answer: 'true' }] }));
    expect(complete.statusCode, complete.body).toBe(201);
    expect(complete.json().data.WaiverStatus).toBe('complete');
    expect(await countRows()).toEqual({ bookings: before.bookings + 1, answers: before.answers + 1 });

    expect((await book(bodyFor({ ActivityID: id }))).json().data.WaiverStatus).toBe('pending');

    const after = await countRows();
    const missing = problemOf(await book(bodyFor({ ActivityID: id, WaiverAnswers: [] })), 422, 'validation');
    expect(fieldsOf(missing)).toEqual(['WaiverAnswers']);
    const both = problemOf(
      await book(bodyFor({ ActivityID: id, Participants: 30, WaiverAnswers: [{ QuestionID: questionId, Answer: 'maybe' }] })),
      422,
      'validation',
    );
    expect(fieldsOf(both)).toEqual(['Participants', 'WaiverAnswers[0].Answer']);
    expect(await countRows()).toEqual(after);
  });
});

describe('GET /api/v2/ota/{partner}/booking/{BookingReference}', () => {
  it("is 404 for another operator's booking, another marketplace's, a point-of-sale one and an unknown one", async () => {
    const mine = (await book(bodyFor())).json().data.BookingReference;
    const otherKey = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/keys', { Name: 'GYG', Scopes: ['ota'], Partner: 'getyourguide' });
    const gyg = otherKey.json().data.Key as string;
    problemOf(await call(t.app, gyg, 'GET', `/api/v2/ota/getyourguide/booking/${mine}`), 404, 'not-found');
    problemOf(await call(t.app, other.otaKey, 'GET', `/api/v2/ota/viator/booking/${mine}`), 404, 'not-found');
    problemOf(await call(t.app, other.otaKey, 'POST', `/api/v2/ota/viator/booking/${mine}/cancel`), 404, 'not-found');
    const pos = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/bookings', bodyFor());
    expect(pos.statusCode, pos.body).toBe(201);
    problemOf(await call(t.app, op.otaKey, 'GET', `/api/v2/ota/viator/booking/${pos.json().data.BookingReference}`), 404, 'not-found');
    problemOf(await call(t.app, op.otaKey, 'GET', '/api/v2/ota/viator/booking/BK-ZZZZZZZZ'), 404, 'not-found');
    expect((await call(t.app, op.otaKey, 'GET', `/api/v2/ota/viator/booking/${mine}`)).statusCode).toBe(200);
  });

  it('is 400 for a malformed reference, 401 without a key, 403 for another marketplace', async () => {
    problemOf(await call(t.app, op.otaKey, 'GET', '/api/v2/ota/viator/booking/nope'), 400, 'bad-request');
    problemOf(await call(t.app, op.otaKey, 'GET', '/api/v2/ota/viator/booking/BK-0000000O'), 400, 'bad-request');
    problemOf(await call(t.app, undefined, 'GET', '/api/v2/ota/viator/booking/BK-ZZZZZZZZ'), 401, 'unauthenticated');
    problemOf(await call(t.app, op.otaKey, 'GET', '/api/v2/ota/expedia/booking/BK-ZZZZZZZZ'), 403, 'forbidden');
    problemOf(await book(bodyFor(), op.otaKey, 'expedia'), 403, 'forbidden');
    problemOf(await book(bodyFor(), op.adminKey), 403, 'forbidden');
  });
});

describe('POST /api/v2/ota/{partner}/booking/{BookingReference}/cancel', () => {
  it('cancels, frees the seats, and answers the same when cancelled again', async () => {
    const reference = (await book(bodyFor({ Participants: 3 }))).json().data.BookingReference;
    expect((await getTimeslot(t, op.adminKey, slot.ID)).Booked).toBe(3);
    const cancelled = await call(t.app, op.otaKey, 'POST', `/api/v2/ota/viator/booking/${reference}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().data).toMatchObject({ BookingReference: reference, Status: 'cancelled', Participants: 3 });
    expect((await getTimeslot(t, op.adminKey, slot.ID)).Booked).toBe(0);
    const again = await call(t.app, op.otaKey, 'POST', `/api/v2/ota/viator/booking/${reference}/cancel`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(cancelled.json());
    expect((await getTimeslot(t, op.adminKey, slot.ID)).Booked).toBe(0);
    // The freed seats can be booked again, all five of them.
    expect((await book(bodyFor({ Participants: 4 }))).statusCode).toBe(201);
    expect((await book(bodyFor({ Participants: 1 }))).statusCode).toBe(201);
  });
});

describe('Idempotency-Key', () => {
  it('replays the first booking for a retry with the same key and body, and books nothing more', async () => {
    const headers = { 'idempotency-key': `retry-${date}` };
    const first = await call(t.app, op.otaKey, 'POST', '/api/v2/ota/viator/booking', bodyFor(), headers);
    expect(first.statusCode).toBe(201);
    const retry = await call(t.app, op.otaKey, 'POST', '/api/v2/ota/viator/booking', bodyFor(), headers);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect(retry.headers.location).toBe(first.headers.location);
    expect((await getTimeslot(t, op.adminKey, slot.ID)).Booked).toBe(2);
    problemOf(
      await call(t.app, op.otaKey, 'POST', '/api/v2/ota/viator/booking', bodyFor({ Participants: 1 }), headers),
      422,
      'idempotency-key-reuse',
    );
  });
});
