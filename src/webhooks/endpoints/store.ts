// SQL of webhook endpoints and of reading their deliveries (the worker's side is delivery-store.ts).
// An endpoint is found only through its operator, and a marketplace's key only finds its marketplace's
// endpoints: everything else is simply not found.
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Tx } from '../../db/connection.js';
import type { Database, WebhookDeliveryTable, WebhookEndpointTable } from '../../db/schema.js';

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

/** The endpoint with its deliveries and their attempts (events stay: other endpoints may have them). */
export async function deleteEndpoint(tx: Tx, id: number): Promise<void> {
  await tx
    .deleteFrom('webhook_attempts')
    .where('delivery_id', 'in', (eb) => eb.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', id))
    .execute();
  await tx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
  await tx.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
}

/** Re-enabling an endpoint makes its pending deliveries due at once (they waited while it was disabled). */
export async function makePendingDue(tx: Tx, endpointId: number, now: number): Promise<void> {
  await tx
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: now })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .execute();
}

/** What a delivery shows in a list; the start of the latest answer (up to 4 KiB) only its detail shows. */
function selectDeliveries(db: Kysely<Database>) {
  return db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
    .select([
      'webhook_deliveries.id',
      'webhook_deliveries.endpoint_id',
      'webhook_deliveries.status',
      'webhook_deliveries.attempts',
      'webhook_deliveries.next_attempt_at',
      'webhook_deliveries.last_attempt_at',
      'webhook_deliveries.last_status_code',
      'webhook_deliveries.last_duration_ms',
      'webhook_deliveries.last_error',
      'webhook_deliveries.replay_of',
      'webhook_deliveries.is_test',
      'webhook_deliveries.created_at',
      'webhook_deliveries.delivered_at',
    ])
    .select(['webhook_events.public_id as event_public_id', 'webhook_events.type as event_type']);
}
export type DeliveryRecord = Awaited<ReturnType<ReturnType<typeof selectDeliveries>['execute']>>[number];

export interface DeliveryFilter {
  status?: WebhookDeliveryTable['status'];
  eventType?: string;
  limit: number;
  offset: number;
}

/** The endpoint's deliveries, newest first. */
export async function listDeliveries(db: Kysely<Database>, endpointId: number, filter: DeliveryFilter): Promise<DeliveryRecord[]> {
  let query = selectDeliveries(db).where('webhook_deliveries.endpoint_id', '=', endpointId);
  if (filter.status !== undefined) query = query.where('webhook_deliveries.status', '=', filter.status);
  if (filter.eventType !== undefined) query = query.where('webhook_events.type', '=', filter.eventType);
  return query.orderBy('webhook_deliveries.id', 'desc').limit(filter.limit).offset(filter.offset).execute();
}

export async function findDelivery(db: Kysely<Database>, endpointId: number, id: number) {
  return selectDeliveries(db)
    .select(['webhook_deliveries.operator_id', 'webhook_deliveries.event_id', 'webhook_deliveries.resource', 'webhook_deliveries.last_response_body'])
    .select(['webhook_events.data as event_data', 'webhook_events.created_at as event_created_at'])
    .where('webhook_deliveries.id', '=', id)
    .where('webhook_deliveries.endpoint_id', '=', endpointId)
    .executeTakeFirst();
}

export async function listAttempts(db: Kysely<Database>, deliveryId: number) {
  return db.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('id').execute();
}

/** A new delivery of an event already delivered (or not) to the endpoint, due now. */
export async function insertDelivery(tx: Tx, row: Omit<Insertable<WebhookDeliveryTable>, 'id'>): Promise<number> {
  const inserted = await tx.insertInto('webhook_deliveries').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(inserted.id);
}

export async function operatorContact(db: Kysely<Database>, operatorId: number): Promise<{ name: string; contact_email: string | null } | undefined> {
  return db.selectFrom('operators').select(['name', 'contact_email']).where('id', '=', operatorId).executeTakeFirst();
}

export async function setOperatorContact(tx: Tx, operatorId: number, email: string | null): Promise<void> {
  await tx.updateTable('operators').set({ contact_email: email }).where('id', '=', operatorId).execute();
}
