import type { Kysely, Selectable } from 'kysely';
import type { Tx } from '../db/connection.js';
import type { Database, IdempotencyKeyTable } from '../db/schema.js';

export type IdempotencyRecord = Selectable<IdempotencyKeyTable>;

/** Whose record: the operator, the key holder within it and the route (method and pattern), then the key. */
export interface RecordScope {
  operatorId: number;
  holder: string;
  route: string;
  key: string;
}

export async function findRecord(db: Kysely<Database>, scope: RecordScope): Promise<IdempotencyRecord | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('operator_id', '=', scope.operatorId)
    .where('holder', '=', scope.holder)
    .where('route', '=', scope.route)
    .where('idempotency_key', '=', scope.key)
    .executeTakeFirst();
}

/** The primary key (operator_id, holder, route, idempotency_key) is what makes a second write impossible. */
export async function insertRecord(tx: Tx, record: IdempotencyRecord): Promise<void> {
  await tx.insertInto('idempotency_keys').values(record).execute();
}

export async function deleteRecord(tx: Tx, scope: RecordScope): Promise<void> {
  await tx
    .deleteFrom('idempotency_keys')
    .where('operator_id', '=', scope.operatorId)
    .where('holder', '=', scope.holder)
    .where('route', '=', scope.route)
    .where('idempotency_key', '=', scope.key)
    .execute();
}

export async function deleteRecordsBefore(db: Kysely<Database>, createdBefore: number): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('created_at', '<', createdBefore).executeTakeFirst();
  return Number(result.numDeletedRows);
}
