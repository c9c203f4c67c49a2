// Migration 021 on a database written by the version before it, where a hold attached the files it named
// for good: the files no confirmed (or cancelled) booking names go back to their uploader, kept until the
// expiry of a hold that still names them, and are then swept like any unused upload (issue 23, finding 4).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/connection.js';
import { migrate } from '../../src/db/migrate.js';
import { createOperator } from '../../src/operators/service.js';
import { sweepUnattachedUploads } from '../../src/questions/upload-sweep.js';
import { createTestDatabase, insertRawRows, migrateBefore } from '../helpers/database.js';
import { dateFromToday } from '../availability/fixtures.js';
import { addMillis, nowMillis } from '../../src/lib/clock.js';

const cleanup: (() => Promise<unknown>)[] = [];
let db: Db;
const now = nowMillis();
const nowSeconds = Math.floor(now / 1000);
const DAY = 86_400_000;
/** Each file's booking: its status and hold expiry (Unix seconds). */
const cases = {
  confirmed: { status: 'confirmed', hold: null },
  cancelled: { status: 'cancelled', hold: null },
  live: { status: 'on_hold', hold: nowSeconds + 600 },
  lapsed: { status: 'on_hold', hold: nowSeconds - 600 },
  expired: { status: 'expired', hold: nowSeconds - 600 },
} as const;
type Case = keyof typeof cases;
const fileOf = (name: Case | 'unused') => `f_${name.padEnd(24, 'X')}`;

beforeAll(async () => {
  const database = await createTestDatabase();
  cleanup.push(() => database.drop());
  db = openDatabase(database.config);
  cleanup.push(() => db.close());
  await migrateBefore(db, '021');

  // The activity, its timeslot and file question as rows of the time: today's API reads columns that later
  // migrations add, so it cannot write a database of before 021.
  const { operatorId } = await createOperator(db, 'Before 021');
  const startsAt = nowSeconds + 9 * 86_400;
  await insertRawRows(db, 'activities', [
    {
      operator_id: operatorId,
      public_id: 's_migration021tour',
      name: 'Tour',
      description: '',
      duration_minutes: 60,
      timezone: 'UTC',
      currency: 'EUR',
      unit_price: 100,
      max_participants_per_booking: 5,
      updated_at: now,
    },
  ]);
  const activity = await db.kysely.selectFrom('activities').select('id').where('public_id', '=', 's_migration021tour').executeTakeFirstOrThrow();
  await insertRawRows(db, 'timeslots', [
    {
      operator_id: operatorId,
      activity_id: activity.id,
      date: dateFromToday(9),
      time: '10:00',
      starts_at: startsAt,
      ends_at: startsAt + 3600,
      capacity: 20,
      booked: 5,
      bookable_until: startsAt,
    },
  ]);
  const slot = await db.kysely.selectFrom('timeslots').select('id').where('activity_id', '=', activity.id).executeTakeFirstOrThrow();
  await insertRawRows(db, 'questions', [
    {
      operator_id: operatorId,
      activity_id: activity.id,
      question: 'ID',
      type: 'file',
      required: 1,
      requires_file_upload: 1,
      options: '[]',
      translations: '{}',
      position: 1,
    },
  ]);
  const question = await db.kysely.selectFrom('questions').select('id').where('activity_id', '=', activity.id).executeTakeFirstOrThrow();

  // Files uploaded two days ago, each attached by the booking that named it, as the version before 021 did.
  const upload = (name: Case | 'unused') => ({
    operator_id: operatorId,
    public_id: fileOf(name),
    content_type: 'image/jpeg',
    size: 3,
    content: Buffer.from([1, 2, 3]),
    created_at: now - 2 * DAY,
    attached_at: name === 'unused' ? null : now - DAY,
  });
  await insertRawRows(db, 'uploads', [...(Object.keys(cases) as Case[]).map(upload), upload('unused')]);
  let n = 0;
  for (const [name, { status, hold }] of Object.entries(cases) as [Case, (typeof cases)[Case]][]) {
    await insertRawRows(db, 'bookings', [
      {
        operator_id: operatorId,
        reference: `BK-MIGR021${n++}`,
        timeslot_id: slot.id,
        status,
        source: 'partner',
        partner: 'viator',
        payment_reference: null,
        participants: 1,
        customer_first_name: 'Old',
        customer_last_name: 'Guest',
        customer_email: 'old@example.com',
        customer_phone: '+441234567890',
        waiver_status: 'complete',
        hold_expires_at: hold,
        created_at: now - DAY,
        cancelled_at: status === 'cancelled' ? now : null,
      },
    ]);
    const booking = await db.kysely.selectFrom('bookings').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow();
    await insertRawRows(db, 'waiver_answers', [{ booking_id: booking.id, question_id: question.id, answer: fileOf(name) }]);
  }
  expect(await migrate(db)).toContain('021_upload_holds.sql');
});
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

const row = (name: Case | 'unused') =>
  db.kysely.selectFrom('uploads').select(['attached_at', 'held_until']).where('public_id', '=', fileOf(name)).executeTakeFirst();

describe('migration 021', () => {
  it("keeps the files of confirmed and cancelled bookings attached; those of holds go back to their uploader, held until the hold's expiry", async () => {
    expect(await row('confirmed')).toEqual({ attached_at: now - DAY, held_until: null });
    expect(await row('cancelled')).toEqual({ attached_at: now - DAY, held_until: null });
    expect(await row('live')).toEqual({ attached_at: null, held_until: cases.live.hold * 1000 });
    expect(await row('lapsed')).toEqual({ attached_at: null, held_until: cases.lapsed.hold * 1000 });
    expect(await row('expired')).toEqual({ attached_at: null, held_until: null });
  });

  it('lets the sweep delete them once their hold is a day past, and never the attached ones', async () => {
    await sweepUnattachedUploads(db, 24, now);
    expect(await row('expired')).toBeUndefined();
    expect(await row('unused')).toBeUndefined();
    expect(await row('live')).toBeDefined();
    expect(await row('lapsed')).toBeDefined();
    await sweepUnattachedUploads(db, 24, addMillis(now, DAY + 20 * 60_000));
    expect(await row('live')).toBeUndefined();
    expect(await row('lapsed')).toBeUndefined();
    expect(await row('confirmed')).toBeDefined();
    expect(await row('cancelled')).toBeDefined();
  });
});
