import type { Kysely } from 'kysely';
import type { Db, Tx } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { createApiKey } from '../auth/service.js';
import { createOwner } from '../staff/accounts.js';
import { uniqueSlug } from './slug.js';
import type { Mailing } from '../staff/emails.js';

export interface NewOperator {
  operatorId: number;
  adminKey: string;
  /** The owner's account, when an e-mail address was given: its one-time link to choose a password. */
  owner?: { userId: number; email: string; signInLink: string };
}

/** An operator, its first admin key and (with `owner`) its owner's account, together or not at all. */
export async function createOperator(db: Db, name: string, owner?: { email: string; mailing: Mailing }): Promise<NewOperator> {
  return db.write(async (tx) => {
    const created = await insertOperator(tx, name);
    if (!owner) return created;
    const { user, link } = await createOwner(tx, created.operatorId, owner.email, { mailing: owner.mailing });
    return { ...created, owner: { userId: user.id, email: user.email, signInLink: link! } };
  });
}

/** For callers that already hold a transaction (the demo seed, which asks for the slug "demo"). */
export async function insertOperator(tx: Tx, name: string, slug?: string): Promise<NewOperator> {
  const values = { name, slug: slug ?? (await uniqueSlug(tx, name)), created_at: Date.now() };
  const operator = await tx.insertInto('operators').values(values).returning('id').executeTakeFirstOrThrow();
  const { key } = await createApiKey(tx, operator.id, { name: 'Admin key', scopes: ['admin'] });
  return { operatorId: operator.id, adminKey: key };
}

export async function countOperators(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('operators')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
