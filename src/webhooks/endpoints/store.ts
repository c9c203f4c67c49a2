// SQL of webhook endpoints (webhook_endpoints): registration, and the health the delivery worker records.
// An endpoint is found only through its operator, and a marketplace's key only finds its marketplace's
// endpoints: everything else is simply not found.
import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Tx } from '../../db/connection.js';
import type { Database, WebhookEndpointTable } from '../../db/schema.js';
import { nowMillis, type UnixSeconds } from '../../lib/clock.js';

export type EndpointRow = Selectable<WebhookEndpointTable>;

/** Whose endpoints: the operator's, and with `partner` only that marketplace's. */
export interface Owner {
  operatorId: number;
  partner?: string;
}

export async function insertEndpoint(tx: Tx, row: Omit<Insertable<WebhookEndpointTable>, 'id'>): Promise<EndpointRow> {
  return tx.insertInto('webhook_endpoints').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findEndpoint(db: Kysely<Database>, owner: Owner, id: number): Promise<EndpointRow | undefined> {
  let query = db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).where('operator_id', '=', owner.operatorId);
  if (owner.partner !== undefined) query = query.where('partner', '=', owner.partner);
  return query.executeTakeFirst();
}

export async function listEndpoints(db: Kysely<Database>, owner: Owner): Promise<EndpointRow[]> {
  let query = db.selectFrom('webhook_endpoints').selectAll().where('operator_id', '=', owner.operatorId);
  if (owner.partner !== undefined) query = query.where('partner', '=', owner.partner);
  return query.orderBy('id').execute();
}

/** The operator's endpoints, and of them those of `partner` (when given). */
export async function countEndpoints(db: Kysely<Database>, operatorId: number, partner: string | null): Promise<{ all: number; partner: number }> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => [
      eb.fn.countAll<number>().as('all'),
      eb.fn.sum<number>(eb.case().when('partner', '=', partner).then(1).else(0).end()).as('partner'),
    ])
    .where('operator_id', '=', operatorId)
    .executeTakeFirstOrThrow();
  return { all: Number(row.all), partner: Number(row.partner ?? 0) };
}

export async function updateEndpoint(tx: Tx, id: number, changes: Updateable<WebhookEndpointTable>): Promise<EndpointRow> {
  return tx.updateTable('webhook_endpoints').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/**
 * The endpoint with its deliveries and their attempts (events stay: other endpoints may have them). The
 * deliveries' tables (webhook_deliveries, webhook_attempts) are deliveries/store.ts's; their rows go with
 * their endpoint here, in its transaction, as a cascading foreign key would take them (deliveries/ builds
 * on endpoints/, so endpoints/ does not call into it).
 */
export async function deleteEndpoint(tx: Tx, id: number): Promise<void> {
  await tx
    .deleteFrom('webhook_attempts')
    .where('delivery_id', 'in', (eb) => eb.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', id))
    .execute();
  await tx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
  await tx.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
}

/**
 * Re-enabling an endpoint makes its pending deliveries due at once (they waited while it was disabled).
 * Writes webhook_deliveries (deliveries/store.ts's table), for the reason deleteEndpoint says.
 */
export async function makePendingDue(tx: Tx, endpointId: number, now: UnixSeconds): Promise<void> {
  await tx
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: now })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .execute();
}

/** The enabled endpoints of these operators, with what the fan-out needs to choose who gets an event. */
export async function enabledEndpointsOf(db: Kysely<Database>, operatorIds: number[]) {
  return db
    .selectFrom('webhook_endpoints')
    .select(['id', 'operator_id', 'event_types', 'partner', 'created_at'])
    .where('operator_id', 'in', operatorIds)
    .where('status', '=', 'enabled')
    .execute();
}

/** An endpoint accepted a delivery: it is not failing. */
export async function markEndpointHealthy(tx: Tx, endpointId: number, now: UnixSeconds): Promise<void> {
  await tx.updateTable('webhook_endpoints').set({ failing_since: null, last_success_at: now }).where('id', '=', endpointId).execute();
}

/** An endpoint refused or missed a delivery: failing since its first failure after the last success. */
export async function markEndpointFailing(tx: Tx, endpointId: number, now: UnixSeconds): Promise<void> {
  await tx
    .updateTable('webhook_endpoints')
    .set({ failing_since: sql`coalesce(failing_since, ${now})` })
    .where('id', '=', endpointId)
    .execute();
}

/** Disables an enabled endpoint that has accepted nothing since `failingBefore` or earlier; the row when it did. */
export async function disableFailingEndpoint(tx: Tx, endpointId: number, failingBefore: UnixSeconds, now: UnixSeconds) {
  return tx
    .updateTable('webhook_endpoints')
    .set({ status: 'disabled', disabled_reason: 'failing', disabled_at: now, updated_at: nowMillis() })
    .where('id', '=', endpointId)
    .where('status', '=', 'enabled')
    .where('failing_since', '<=', failingBefore)
    .returningAll()
    .executeTakeFirst();
}
