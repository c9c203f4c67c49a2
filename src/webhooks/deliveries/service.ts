// Deliveries as the operator (and a marketplace) sees them: listed, inspected with every attempt,
// replayed; and "test an endpoint", which sends a webhook.test event at once and answers how it went.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';
import { NotFound } from '../../http/errors.js';
import { addSeconds, nowMillis, type UnixMillis, unixNow } from '../../lib/clock.js';
import { TEST_EVENT_TYPE } from '../endpoints/subscriptions.js';
import { eventBody, newEventId } from './render.js';
import { deliverClaimed, CLAIM_SECONDS, type DeliveryDeps } from './deliver.js';
import { findDelivery, insertDelivery, insertEvent, listAttempts, listDeliveries, loadOutgoing } from './store.js';
import { toDelivery } from './view.js';
import { requireEndpoint, type Owner } from '../endpoints/service.js';
import type { DeliveryListQuery, WebhookDelivery, WebhookDeliveryDetail } from './schemas.js';
import { audit } from '../../audit/log.js';

const iso = (ms: UnixMillis | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

export async function getDeliveries(db: Kysely<Database>, owner: Owner, endpointId: number, query: DeliveryListQuery): Promise<WebhookDelivery[]> {
  const endpoint = await requireEndpoint(db, owner, endpointId);
  const rows = await listDeliveries(db, endpoint.id, { status: query.Status, eventType: query.EventType, limit: query.Limit, offset: query.Offset });
  return rows.map(toDelivery);
}

export async function getDelivery(db: Kysely<Database>, owner: Owner, endpointId: number, id: number): Promise<WebhookDeliveryDetail> {
  const endpoint = await requireEndpoint(db, owner, endpointId);
  const row = await findDelivery(db, endpoint.id, id);
  if (!row) throw new NotFound(`No delivery ${id} of webhook endpoint ${endpointId}`);
  const attempts = await listAttempts(db, row.id);
  return {
    ...toDelivery(row),
    Event: JSON.parse(eventBody({ public_id: row.event_public_id, type: row.event_type, created_at: row.event_created_at, data: row.event_data })),
    // The earlier attempts, then the latest, which its row holds.
    AttemptLog: [
      ...attempts.map((a) => ({
        AttemptedAt: iso(a.attempted_at)!,
        StatusCode: a.status_code,
        DurationMs: a.duration_ms,
        Error: a.error,
        ResponseBody: a.response_body,
      })),
      ...(row.last_attempt_at === null
        ? []
        : [
            {
              AttemptedAt: iso(row.last_attempt_at)!,
              StatusCode: row.last_status_code,
              DurationMs: row.last_duration_ms ?? 0,
              Error: row.last_error,
              ResponseBody: row.last_response_body,
            },
          ]),
    ],
  };
}

/**
 * Sends the delivery's event again, as a new delivery due now (same event ID: receivers that already have
 * it may drop it). It keeps the order of its resource: later events of it wait until it is delivered.
 */
export async function replayDelivery(db: Db, owner: Owner, endpointId: number, id: number): Promise<WebhookDelivery> {
  const endpoint = await requireEndpoint(db.kysely, owner, endpointId);
  const original = await findDelivery(db.kysely, endpoint.id, id);
  if (!original) throw new NotFound(`No delivery ${id} of webhook endpoint ${endpointId}`);
  const replayId = await db.write(async (tx) => {
    const inserted = await insertDelivery(tx, {
      operator_id: original.operator_id,
      endpoint_id: endpoint.id,
      event_id: original.event_id,
      resource: original.resource,
      status: 'pending',
      next_attempt_at: unixNow(),
      replay_of: Number(original.id),
      is_test: original.is_test,
      created_at: nowMillis(),
    });
    await audit(tx, {
      operatorId: owner.operatorId,
      action: 'webhook.replay',
      resource: { type: 'webhook-delivery', id: inserted },
      after: { ReplayOf: Number(original.id), EndpointID: endpoint.id },
    });
    return inserted;
  });
  return toDelivery((await findDelivery(db.kysely, endpoint.id, replayId))!);
}

/**
 * Sends a webhook.test event to the endpoint now, disabled or not, and answers the delivery with the
 * outcome. It is never retried and says nothing about the endpoint's health (no auto-disabling).
 */
export async function testEndpoint(db: Db, deps: DeliveryDeps, owner: Owner, endpointId: number): Promise<WebhookDelivery> {
  const endpoint = await requireEndpoint(db.kysely, owner, endpointId);
  const now = unixNow();
  const worker = `test:${randomBytes(6).toString('hex')}`;
  const createdAt = nowMillis();
  const data = JSON.stringify({
    EndpointID: endpoint.id,
    Message: 'A test event from slotbook: your endpoint received it, and its signature can be verified.',
  });
  const deliveryId = await db.write(async (tx) => {
    const eventId = await insertEvent(tx, {
      publicId: newEventId(),
      operatorId: owner.operatorId,
      type: TEST_EVENT_TYPE,
      resource: `test:${endpoint.id}:${createdAt}`,
      data,
      createdAt,
    });
    await audit(tx, { operatorId: owner.operatorId, action: 'webhook.test', resource: { type: 'webhook-endpoint', id: endpoint.id } });
    // Claimed by this request from the start: no worker sends it too.
    return insertDelivery(tx, {
      operator_id: owner.operatorId,
      endpoint_id: endpoint.id,
      event_id: eventId,
      resource: `test:${endpoint.id}:${createdAt}`,
      status: 'sending',
      attempts: 1,
      next_attempt_at: now,
      claimed_by: worker,
      claimed_until: addSeconds(now, CLAIM_SECONDS),
      is_test: 1,
      created_at: createdAt,
    });
  });
  await deliverClaimed(db, { ...deps, workerId: worker }, await loadOutgoing(db.kysely, [deliveryId]), now);
  return toDelivery((await findDelivery(db.kysely, endpoint.id, deliveryId))!);
}
