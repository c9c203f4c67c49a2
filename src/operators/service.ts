import type { Db, Tx } from '../db/connection.js';
import { createApiKey } from '../auth/service.js';
import { uniqueSlug } from './slug.js';
import { insertOperatorRow } from './store.js';
import { operatorCreated } from '../hooks/platform-hooks.js';

// What other domains read of an operator (staff e-mails and sign-in name it; the command line checks it).
export { countOperators, operatorExists, operatorName, operatorNames } from './store.js';

export interface NewOperator {
  operatorId: number;
  adminKey: string;
}

/** An operator and its first admin key, together or not at all (its owner: cli.ts, in the same transaction). */
export async function createOperator(db: Db, name: string): Promise<NewOperator> {
  return db.write((tx) => insertOperator(tx, name));
}

/** For callers that already hold a transaction (the command line with an owner; the demo seed, which asks for the slug "demo"). */
export async function insertOperator(tx: Tx, name: string, slug?: string): Promise<NewOperator> {
  const operatorId = await insertOperatorRow(tx, { name, slug: slug ?? (await uniqueSlug(tx, name)) });
  const { key } = await createApiKey(tx, operatorId, { name: 'Admin key', scopes: ['admin'] });
  // What every operator starts with (its starter workflows: src/reactions.ts), in this transaction.
  await operatorCreated.run(tx, operatorId);
  return { operatorId, adminKey: key };
}
