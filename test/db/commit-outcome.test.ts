// PostgreSQL: when the connection is lost during COMMIT, nobody knows whether the transaction was stored.
// The group commits (Db.writeGrouped for the bookings of one timeslot, usage/group-commit.ts for usage
// entries) rerun a failed group request by request; after such a COMMIT they must not, or a stored write
// could be written twice. Every request of the group fails with CommitOutcomeUnknown, which the API
// answers as a 500 `outcome-unknown` (retry with the Idempotency-Key). A deferred constraint trigger
// ends the backend at COMMIT time to produce the case.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommitOutcomeUnknown } from '../../src/db/connection.js';
import { recordUsageGrouped } from '../../src/usage/group-commit.js';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { testDialect } from '../helpers/database.js';
import { unixNow } from '../../src/lib/clock.js';

describe.runIf(testDialect() === 'postgres')('a COMMIT whose outcome is unknown', () => {
  let t: TestApp;
  let op: TestOperator;
  beforeAll(async () => {
    t = await createTestApp();
    op = await t.newOperator();
    await sql`CREATE TABLE scratch (name TEXT NOT NULL)`.execute(t.db.kysely);
    await sql`CREATE FUNCTION end_my_backend() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); RETURN NULL; END $$`.execute(t.db.kysely);
    for (const [table, condition] of [
      ['scratch', "NEW.name = 'lose-commit'"],
      ['usage_entries', "NEW.meter = 'lose-commit'"],
    ] as const) {
      await sql
        .raw(`CREATE CONSTRAINT TRIGGER lose_commit AFTER INSERT ON ${table} DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW WHEN (${condition}) EXECUTE FUNCTION end_my_backend()`)
        .execute(t.db.kysely);
    }
  });
  afterAll(() => t.close());

  const scratchNames = async () => (await sql<{ name: string }>`SELECT name FROM scratch`.execute(t.db.kysely)).rows.map((r) => r.name);

  it('Db.writeGrouped: no member runs again; each fails with CommitOutcomeUnknown, and the pool goes on', async () => {
    let runs = 0;
    const member = (name: string) =>
      t.db.writeGrouped('lost', async (tx) => {
        runs += 1;
        await sql`INSERT INTO scratch VALUES (${name})`.execute(tx);
      });
    const results = await Promise.allSettled([member('lose-commit'), member('innocent')]);
    expect(results.map((r) => r.status === 'rejected' && r.reason instanceof CommitOutcomeUnknown)).toEqual([true, true]);
    expect(runs).toBe(2);
    expect(await scratchNames()).toEqual([]); // the next queries get a live connection
    await t.db.write((tx) => sql`INSERT INTO scratch VALUES ('after')`.execute(tx));
    expect(await scratchNames()).toEqual(['after']);
  });

  it('usage group commit: no request of the group is written again', async () => {
    const entry = (meter: string) => ({ meter, micros: 1_000_000n, extraInfo: null, occurredAt: unixNow() });
    const results = await Promise.allSettled([
      recordUsageGrouped(t.db, op.operatorId, [entry('lose-commit')]),
      recordUsageGrouped(t.db, op.operatorId, [entry('innocent')]),
    ]);
    expect(results.map((r) => r.status === 'rejected' && r.reason instanceof CommitOutcomeUnknown)).toEqual([true, true]);
    expect(await t.db.kysely.selectFrom('usage_entries').select('meter').where('operator_id', '=', op.operatorId).execute()).toEqual([]);
  });

  it('answers 500 outcome-unknown, saying the write may be stored', async () => {
    const response = await call(t.app, op.usageKey, 'POST', '/api/v2/usage/meters', { Meter: 'lose-commit', Usage: 1 });
    expect(problemOf(response, 500, 'outcome-unknown').detail).toMatch(/may or may not be stored/);
  });
});
