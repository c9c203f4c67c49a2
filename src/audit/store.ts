// SQL of the audit log: appending an entry (services call log.ts's `audit`), and reading, filtered, newest
// first. Nothing updates or deletes an entry.
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Tx } from '../db/connection.js';
import type { AuditLogTable, Database } from '../db/schema.js';
import type { UnixMillis } from '../lib/clock.js';

export type AuditRow = Selectable<AuditLogTable>;

export async function insertAuditEntry(tx: Tx, entry: Insertable<AuditLogTable>): Promise<void> {
  await tx.insertInto('audit_log').values(entry).execute();
}

export interface AuditFilter {
  actorType?: AuditRow['actor_type'];
  actorId?: number;
  /** An exact action (`booking.cancel`) or every action of a resource (`booking.`). */
  action?: string;
  resourceType?: string;
  resourceId?: string;
  /** Unix milliseconds, From inclusive, To exclusive. */
  from?: UnixMillis;
  to?: UnixMillis;
  /** Only entries older than this ID (the next page of a listing). */
  beforeId?: number;
}

export async function listAuditEntries(db: Kysely<Database>, operatorId: number, filter: AuditFilter, limit: number): Promise<AuditRow[]> {
  let query = db.selectFrom('audit_log').selectAll().where('operator_id', '=', operatorId);
  if (filter.actorType !== undefined) query = query.where('actor_type', '=', filter.actorType);
  if (filter.actorId !== undefined) query = query.where('actor_id', '=', filter.actorId);
  if (filter.action !== undefined) {
    query = filter.action.endsWith('.')
      ? query.where('action', '>=', filter.action).where('action', '<', `${filter.action.slice(0, -1)}/`)
      : query.where('action', '=', filter.action);
  }
  if (filter.resourceType !== undefined) query = query.where('resource_type', '=', filter.resourceType);
  if (filter.resourceId !== undefined) query = query.where('resource_id', '=', filter.resourceId);
  if (filter.from !== undefined) query = query.where('at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('at', '<', filter.to);
  if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId);
  return query.orderBy('id', 'desc').limit(limit).execute();
}

/** The actions, resource types and actors the operator's log holds, for the dashboard's filter lists. */
export async function auditVocabulary(db: Kysely<Database>, operatorId: number) {
  const actions = await db.selectFrom('audit_log').select('action').distinct().where('operator_id', '=', operatorId).orderBy('action').execute();
  const types = await db
    .selectFrom('audit_log')
    .select('resource_type')
    .distinct()
    .where('operator_id', '=', operatorId)
    .orderBy('resource_type')
    .execute();
  const actors = await db
    .selectFrom('audit_log')
    .select(['actor_type', 'actor_id', (eb) => eb.fn.max('actor_label').as('label')])
    .where('operator_id', '=', operatorId)
    .where('actor_id', 'is not', null)
    .groupBy(['actor_type', 'actor_id'])
    .orderBy('actor_type')
    .orderBy('actor_id')
    .execute();
  return { actions: actions.map((r) => r.action), resourceTypes: types.map((r) => r.resource_type), actors };
}
