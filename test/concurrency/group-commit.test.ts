// Group commit (Db.writeGrouped): writes queued together share one transaction and answer after its
// COMMIT; one member's own failure undoes only its writes; a group whose final statements fail stores
// nothing and each member runs again alone. Then the same through POST booking, where a group mixes
// bookings that fit, one that is 422 and some that are 409.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { atCommitValue, dialectOf, readOncePerTransaction, runAtCommit, type Tx } from '../../src/db/connection.js';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { addSeconds, nowMillis, unixNow } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
});
afterAll(() => t.close());

const insertOperator = (tx: Tx, name: string) => tx.insertInto('operators').values({ name, created_at: nowMillis() }).execute();
const operatorsNamed = async (prefix: string) =>
  (await t.db.kysely.selectFrom('operators').select('name').where('name', 'like', `${prefix}%`).orderBy('name').execute()).map((r) => r.name);

describe('Db.writeGrouped', () => {
  it('shares one transaction among the writes queued together; one that fails having only read fails alone', async () => {
    let firstAnswered = false;
    const first = t.db.writeGrouped('g', async (tx) => {
      await insertOperator(tx, 'group-a');
      return 'a';
    });
    void first.then(() => (firstAnswered = true));
    const failing = t.db.writeGrouped('g', async (tx) => {
      await tx.selectFrom('operators').select('id').execute();
      throw new Error('b refused');
    });
    const last = t.db.writeGrouped('g', async (tx) => {
      await insertOperator(tx, 'group-c');
      // The first write is done but not answered yet: its answer waits for the COMMIT this one shares.
      const seen = await tx.selectFrom('operators').select('name').where('name', '=', 'group-a').executeTakeFirst();
      return { seen: seen?.name, firstAnswered };
    });
    await expect(failing).rejects.toThrow('b refused');
    expect(await first).toBe('a');
    expect(await last).toEqual({ seen: 'group-a', firstAnswered: false });
    expect(await operatorsNamed('group-')).toEqual(['group-a', 'group-c']);
  });

  it('undoes the whole group when a member fails after writing; each runs again alone, the failing one fails alone', async () => {
    const runs = new Map<string, number>();
    const member = (name: string, fails: boolean) =>
      t.db.writeGrouped('f', async (tx) => {
        runs.set(name, (runs.get(name) ?? 0) + 1);
        await insertOperator(tx, name);
        if (fails) throw new Error(`${name} refused`);
        return runs.get(name);
      });
    const outcomes = await Promise.allSettled([member('undo-a', false), member('undo-b', true), member('undo-c', false)]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).toEqual([2, 'undo-b refused', 1]);
    expect(await operatorsNamed('undo-')).toEqual(['undo-a', 'undo-c']);
  });

  it('runs every member again alone when a final statement fails the group, storing each once', async () => {
    const existing = await t.db.kysely.selectFrom('operators').select('id').where('id', '=', op.operatorId).executeTakeFirstOrThrow();
    const runs = new Map<string, number>();
    const member = (name: string, failFirstTime: boolean) =>
      t.db.writeGrouped('h', async (tx) => {
        const run = (runs.get(name) ?? 0) + 1;
        runs.set(name, run);
        await insertOperator(tx, name);
        if (failFirstTime && run === 1) {
          // A duplicate primary key: fails at commit time, like a seat count over capacity.
          const query = sql`INSERT INTO operators (id, name, created_at) VALUES (${sql.lit(existing.id)}, 'dup', 0)`.compile(tx);
          runAtCommit(tx, { query, explain: async () => undefined });
        }
        return run;
      });
    const results = await Promise.all([member('rerun-a', false), member('rerun-b', true), member('rerun-c', false)]);
    expect(results).toEqual([2, 2, 2]);
    expect(await operatorsNamed('rerun-')).toEqual(['rerun-a', 'rerun-b', 'rerun-c']);
  });

  it('fails the group, not only the member, when a member error ends the whole transaction', async () => {
    // As SQLite does by itself on a full disk or an I/O error: the transaction is gone, savepoints and all.
    const runs = new Map<string, number>();
    const member = (name: string, endsTransaction: boolean) =>
      t.db.writeGrouped('i', async (tx) => {
        const run = (runs.get(name) ?? 0) + 1;
        runs.set(name, run);
        await insertOperator(tx, name);
        if (endsTransaction && run === 1) {
          await sql`ROLLBACK`.execute(tx);
          throw new Error('transaction lost');
        }
        return run;
      });
    const results = await Promise.all([member('lost-a', false), member('lost-b', true), member('lost-c', false)]);
    // The third had not run yet when the group failed: it runs once, alone.
    expect(results).toEqual([2, 2, 1]);
    expect(await operatorsNamed('lost-')).toEqual(['lost-a', 'lost-b', 'lost-c']);
  });
});

describe('runAtCommit', () => {
  it('runs the final statements after the rest, those marked first ahead of the others, each in its order', async () => {
    const atCommit = (tx: Tx, name: string, first?: boolean) => {
      const query = sql`INSERT INTO operators (name, created_at) VALUES (${atCommitValue(tx, name)}, ${atCommitValue(tx, Date.now())})`.compile(tx);
      runAtCommit(tx, { query, explain: async () => undefined, first });
    };
    await t.db.write(async (tx) => {
      atCommit(tx, 'final-1');
      atCommit(tx, 'final-2', true);
      atCommit(tx, 'final-3');
      atCommit(tx, 'final-4', true);
      await insertOperator(tx, 'final-0');
    });
    const inserted = await t.db.kysely.selectFrom('operators').select('name').where('name', 'like', 'final-%').orderBy('id').execute();
    expect(inserted.map((row) => row.name)).toEqual(['final-0', 'final-2', 'final-4', 'final-1', 'final-3']);
  });

  it('takes parameters on SQLite (its statement is kept), and only values written in on PostgreSQL', async () => {
    await t.db.write(async (tx) => {
      const query = sql`UPDATE operators SET name = name WHERE id = ${atCommitValue(tx, op.operatorId)}`.compile(tx);
      expect(query.parameters).toEqual(dialectOf(tx) === 'postgres' ? [] : [op.operatorId]);
      runAtCommit(tx, { query, explain: async () => undefined });
      const parameterised = sql`UPDATE operators SET name = name WHERE id = ${op.operatorId}`.compile(tx);
      const queue = () => runAtCommit(tx, { query: parameterised, explain: async () => undefined });
      if (dialectOf(tx) === 'postgres') expect(queue).toThrow('must have its values inlined');
      else queue();
    });
  });
});

describe('readOncePerTransaction', () => {
  it('reads once for the writes of a group, and anew in the next transaction', async () => {
    let reads = 0;
    const read = (tx: Tx) =>
      readOncePerTransaction(tx, 'count', async () => {
        reads += 1;
        return (await tx.selectFrom('operators').select('id').execute()).length;
      });
    const grouped = await Promise.all([t.db.writeGrouped('r', read), t.db.writeGrouped('r', read)]);
    expect(grouped[0]).toBe(grouped[1]);
    expect(reads).toBe(1);
    await t.db.write(read);
    expect(reads).toBe(2);
  });
});

describe('POST booking, grouped', () => {
  it('books what fits, answers 422 and 409 to the others, never above capacity; a retry replays', async () => {
    const activityId = (await createActivity(t, op.adminKey, { MaxParticipantsPerBooking: 3 })).ActivityID;
    const date = dateFromToday(20);
    const slot = await createTimeslot(t, op.adminKey, activityId, { Date: date, Time: '10:00', Capacity: 5 });
    const customer = { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: '+441234567890' };
    const book = (participants: number, key: string) =>
      call(
        t.app,
        op.otaKey,
        'POST',
        '/api/v2/ota/viator/booking',
        { ActivityID: activityId, Date: date, Time: '10:00', Participants: participants, Customer: customer },
        { 'idempotency-key': key },
      );

    const sizes = [1, 1, 4, 2, 1, 1, 2];
    const responses = await Promise.all(sizes.map((n, i) => book(n, `grouped-${i}`)));
    const problem = problemOf(responses[2]!, 422, 'validation');
    expect(problem.errors).toEqual([{ field: 'Participants', message: expect.stringMatching(/at most 3/) }]);
    const others = responses.filter((_, i) => i !== 2);
    expect(others.every((r) => r.statusCode === 201 || r.statusCode === 409)).toBe(true);
    for (const refused of others.filter((r) => r.statusCode === 409)) problemOf(refused, 409, 'insufficient-capacity');
    const taken = others.filter((r) => r.statusCode === 201).reduce((sum, r) => sum + (r.json().data.Participants as number), 0);
    expect(taken).toBeGreaterThan(0);
    expect(taken).toBeLessThanOrEqual(5);
    expect(others.some((r) => r.statusCode === 409)).toBe(true);

    const stored = async () => ({
      booked: (await t.db.kysely.selectFrom('timeslots').select('booked').where('id', '=', slot.ID).executeTakeFirstOrThrow()).booked,
      bookings: await t.db.kysely.selectFrom('bookings').select(['reference', 'participants']).where('timeslot_id', '=', slot.ID).execute(),
    });
    const before = await stored();
    expect(before.booked).toBe(taken);
    expect(before.bookings.reduce((sum, b) => sum + b.participants, 0)).toBe(taken);

    const index = responses.findIndex((r) => r.statusCode === 201);
    const retry = await book(sizes[index]!, `grouped-${index}`);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().data.BookingReference).toBe(responses[index]!.json().data.BookingReference);
    expect(await stored()).toEqual(before);
  });

  it("gives a lapsed hold's seats to a group of bookings, released once", async () => {
    const activityId = (await createActivity(t, op.adminKey, { MaxParticipantsPerBooking: 3 })).ActivityID;
    const date = dateFromToday(21);
    const slot = await createTimeslot(t, op.adminKey, activityId, { Date: date, Time: '10:00', Capacity: 3 });
    const customer = { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: '+441234567890' };
    const body = (extra: Record<string, unknown> = {}) => ({
      ActivityID: activityId,
      Date: date,
      Time: '10:00',
      Participants: 1,
      Customer: customer,
      ...extra,
    });
    const hold = await call(t.app, op.otaKey, 'POST', '/api/v2/ota/viator/booking', body({ Participants: 3, HoldMinutes: 10 }));
    expect(hold.statusCode).toBe(201);
    await t.db.kysely
      .updateTable('bookings')
      .set({ hold_expires_at: addSeconds(unixNow(), -1) })
      .where('reference', '=', hold.json().data.BookingReference)
      .execute();

    const responses = await Promise.all([1, 2, 3].map(() => call(t.app, op.otaKey, 'POST', '/api/v2/ota/viator/booking', body())));
    expect(responses.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    const booked = (await t.db.kysely.selectFrom('timeslots').select('booked').where('id', '=', slot.ID).executeTakeFirstOrThrow()).booked;
    expect(booked).toBe(3);
    const expired = await t.db.kysely
      .selectFrom('bookings')
      .select('status')
      .where('reference', '=', hold.json().data.BookingReference)
      .executeTakeFirstOrThrow();
    expect(expired.status).toBe('expired');
  });
});
