import type { Kysely } from 'kysely';
import type { Db } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { createApiKey } from '../auth/service.js';

export interface NewOperator {
  operatorId: number;
  adminKey: string;
}

/** An operator and its first admin key, together or not at all. */
export async function createOperator(db: Db, name: string): Promise<NewOperator> {
  return db.write((tx) => insertOperator(tx, name));
}

/** For callers that already hold a transaction (the demo seed). */
export async function insertOperator(db: Kysely<Database>, name: string): Promise<NewOperator> {
  const operator = await db.insertInto('operators').values({ name, created_at: Date.now() }).returning('id').executeTakeFirstOrThrow();
  const { key } = await createApiKey(db, operator.id, { name: 'Admin key', scopes: ['admin'] });
  return { operatorId: operator.id, adminKey: key };
}

export async function countOperators(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('operators').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
