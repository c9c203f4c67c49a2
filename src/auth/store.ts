import type { Kysely, Selectable } from 'kysely';
import type { ApiKeyTable, Database } from '../db/schema.js';
import { nowMillis, type UnixMillis } from '../lib/clock.js';

export interface ApiKeyRecord {
  id: number;
  operatorId: number;
  name: string;
  scopes: string[];
  partner: string | null;
  secretHash: string;
  createdAt: UnixMillis;
  revokedAt: UnixMillis | null;
}

function toRecord(row: Selectable<ApiKeyTable>): ApiKeyRecord {
  return {
    id: row.id,
    operatorId: row.operator_id,
    name: row.name,
    scopes: row.scopes.split(' ').filter(Boolean),
    partner: row.partner,
    secretHash: row.secret_hash,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

export async function findKeyByLookupId(db: Kysely<Database>, lookupId: string): Promise<ApiKeyRecord | undefined> {
  const row = await db.selectFrom('api_keys').selectAll().where('lookup_id', '=', lookupId).executeTakeFirst();
  return row && toRecord(row);
}

export async function insertKey(
  db: Kysely<Database>,
  key: { operatorId: number; lookupId: string; secretHash: string; name: string; scopes: string[]; partner: string | null },
): Promise<ApiKeyRecord> {
  const row = await db
    .insertInto('api_keys')
    .values({
      operator_id: key.operatorId,
      lookup_id: key.lookupId,
      secret_hash: key.secretHash,
      name: key.name,
      scopes: key.scopes.join(' '),
      partner: key.partner,
      created_at: nowMillis(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

export async function listKeys(db: Kysely<Database>, operatorId: number): Promise<ApiKeyRecord[]> {
  const rows = await db.selectFrom('api_keys').selectAll().where('operator_id', '=', operatorId).orderBy('id').execute();
  return rows.map(toRecord);
}

/**
 * Marks the key revoked: true when it was live, false when it was revoked already (revoking twice keeps the
 * first time), undefined when the operator has no such key.
 */
export async function revokeKey(db: Kysely<Database>, operatorId: number, id: number): Promise<boolean | undefined> {
  const found = await db.selectFrom('api_keys').select('id').where('id', '=', id).where('operator_id', '=', operatorId).executeTakeFirst();
  if (!found) return undefined;
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: nowMillis() })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
