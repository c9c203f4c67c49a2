import type { Kysely, Selectable } from 'kysely';
import type { Tx } from '../db/connection.js';
import type { Database, IdempotencyKeyTable } from '../db/schema.js';

export type IdempotencyRecord = Selectable<IdempotencyKeyTable>;

export async function findRecord(db: Kysely<Database>, operatorId: number, key: string): Promise<IdempotencyRecord | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('operator_id', '=', operatorId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

/** The primary key (operator_id, idempotency_key) is what makes a second write impossible. */
export async function insertRecord(tx: Tx, record: IdempotencyRecord): Promise<void> {
  await tx.insertInto('idempotency_keys').values(record).execute();
}

export async function deleteRecord(tx: Tx, operatorId: number, key: string): Promise<void> {
  await tx.deleteFrom('idempotency_keys').where('operator_id', '=', operatorId).where('idempotency_key', '=', key).execute();
}

export async function deleteRecordsBefore(db: Kysely<Database>, createdBefore: number): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('created_at', '<', createdBefore).executeTakeFirst();
  return Number(result.numDeletedRows);
}
