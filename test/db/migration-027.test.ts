// Migration 027 on a database written by the version before it: payments that succeeded before it get
// their last change as the moment they took money (the payment report's day); others none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/connection.js';
import { migrate } from '../../src/db/migrate.js';
import { createOperator } from '../../src/operators/service.js';
import { createTestDatabase, insertRawRows, migrateBefore } from '../helpers/database.js';

const cleanup: (() => Promise<unknown>)[] = [];
let db: Db;

beforeAll(async () => {
  const database = await createTestDatabase();
  cleanup.push(() => database.drop());
  db = openDatabase(database.config);
  cleanup.push(() => db.close());
  await migrateBefore(db, '027');
  const { operatorId } = await createOperator(db, 'Before 027');
  const payment = { operator_id: operatorId, provider: 'stripe', amount: 4500, currency: 'EUR', created_at: 1_700_000_000_000 };
  await insertRawRows(db, 'payments', [
    { ...payment, status: 'succeeded', provider_reference: 'pi_1', updated_at: 1_700_000_600_000 },
    { ...payment, status: 'succeeded', provider_reference: 'test_1', updated_at: null },
    { ...payment, status: 'expired', updated_at: 1_700_000_900_000 },
  ]);
  await migrate(db);
});
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

describe('migration 027', () => {
  it('dates the payments that succeeded before it by their last change, or their creation', async () => {
    const rows = await db.kysely.selectFrom('payments').select(['status', 'succeeded_at']).orderBy('id').execute();
    expect(rows.map((row) => [row.status, row.succeeded_at === null ? null : Number(row.succeeded_at)])).toEqual([
      ['succeeded', 1_700_000_600_000],
      ['succeeded', 1_700_000_000_000],
      ['expired', null],
    ]);
    expect(await db.kysely.selectFrom('disputes').selectAll().execute()).toEqual([]);
  });
});
