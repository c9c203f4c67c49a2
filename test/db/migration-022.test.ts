// Migration 022 on a database written by the version before it: the payments recorded then (succeeded and
// declined attempts of the test provider) are kept as they were, and the table takes Stripe's states.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/connection.js';
import { migrate } from '../../src/db/migrate.js';
import { createOperator } from '../../src/operators/service.js';
import { createTestDatabase, insertRawRows, migrateBefore } from '../helpers/database.js';
import { nowMillis } from '../../src/lib/clock.js';

const cleanup: (() => Promise<unknown>)[] = [];
let db: Db;
let operatorId: number;

beforeAll(async () => {
  const database = await createTestDatabase();
  cleanup.push(() => database.drop());
  db = openDatabase(database.config);
  cleanup.push(() => db.close());
  await migrateBefore(db, '022');
  ({ operatorId } = await createOperator(db, 'Before 022'));
  const basket = {
    operator_id: operatorId,
    token: 'AAAAAAAAAAAAAAAAAAAAAA',
    status: 'paid',
    currency: 'EUR',
    customer_first_name: 'Ada',
    customer_last_name: 'Lovelace',
    customer_email: 'ada@example.com',
    customer_phone: '+441234567890',
    created_at: 1_700_000_000_000,
  };
  await insertRawRows(db, 'baskets', [basket]);
  const basketId = (await db.kysely.selectFrom('baskets').select('id').executeTakeFirstOrThrow()).id;
  const payment = { operator_id: operatorId, basket_id: basketId, provider: 'test', amount: 4500, currency: 'EUR', created_at: 1_700_000_000_000 };
  await insertRawRows(db, 'payments', [
    { ...payment, status: 'declined', failure: 'Your card was declined.', client_hmac: 'abc' },
    { ...payment, status: 'succeeded', provider_reference: 'test_1', client_hmac: 'abc' },
  ]);
  await migrate(db);
});
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

describe('migration 022', () => {
  it('keeps the payments made before it, with their ids, statuses and stamps', async () => {
    const rows = await db.kysely.selectFrom('payments').selectAll().orderBy('id').execute();
    expect(rows).toMatchObject([
      {
        status: 'declined',
        failure: 'Your card was declined.',
        provider: 'test',
        amount: 4500,
        client_hmac: 'abc',
        checkout_session_id: null,
        booking_id: null,
      },
      { status: 'succeeded', provider_reference: 'test_1', updated_at: 1_700_000_000_000 },
    ]);
  });

  it("takes Stripe's states, one payment per session of an operator, and payments without a basket", async () => {
    const base = { operator_id: operatorId, provider: 'stripe', amount: 100, currency: 'EUR', created_at: nowMillis() };
    await insertRawRows(db, 'payments', [
      { ...base, status: 'pending', checkout_session_id: 'cs_test_1' },
      { ...base, status: 'refunding', checkout_session_id: 'cs_test_2' },
    ]);
    await expect(insertRawRows(db, 'payments', [{ ...base, status: 'pending', checkout_session_id: 'cs_test_1' }])).rejects.toThrow();
    await expect(insertRawRows(db, 'payments', [{ ...base, status: 'lost' }])).rejects.toThrow();
    expect(await db.kysely.selectFrom('stripe_accounts').selectAll().execute()).toEqual([]);
  });
});
