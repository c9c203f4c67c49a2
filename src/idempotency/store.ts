import type { Kysely, Selectable } from 'kysely';
import type { Tx } from '../db/connection.js';
import type { Database, IdempotencyKeyTable } from '../db/schema.js';
import type { UnixMillis } from '../lib/clock.js';

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

// ---- records written before migration 008 (legacy.ts) ----

/** When the newest legacy record was written (Unix ms), or undefined when there are none. */
export async function newestLegacyRecord(db: Kysely<Database>): Promise<number | undefined> {
  const row = await db
    .selectFrom('idempotency_keys_before_008')
    .select((eb) => eb.fn.max('created_at').as('newest'))
    .executeTakeFirst();
  return row?.newest == null ? undefined : Number(row.newest);
}

/** The operator's legacy record of this key written after `since`, if any. */
export async function findLegacyRecord(db: Kysely<Database>, operatorId: number, key: string, since: UnixMillis) {
  return db
    .selectFrom('idempotency_keys_before_008')
    .selectAll()
    .where('operator_id', '=', operatorId)
    .where('idempotency_key', '=', key)
    .where('created_at', '>', since)
    .executeTakeFirst();
}

export async function deleteLegacyRecordsBefore(db: Kysely<Database>, createdBefore: UnixMillis): Promise<void> {
  await db.deleteFrom('idempotency_keys_before_008').where('created_at', '<', createdBefore).execute();
}

export async function deleteRecordsBefore(db: Kysely<Database>, createdBefore: UnixMillis): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('created_at', '<', createdBefore).executeTakeFirst();
  return Number(result.numDeletedRows);
}
