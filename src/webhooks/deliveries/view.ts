// A delivery row as the API shows it.
import type { DeliveryRecord } from './store.js';
import type { WebhookDelivery } from './schemas.js';
import { toMillis, type UnixMillis } from '../../lib/clock.js';

const iso = (ms: UnixMillis | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

export function toDelivery(row: DeliveryRecord): WebhookDelivery {
  return {
    ID: Number(row.id),
    EndpointID: row.endpoint_id,
    EventID: row.event_public_id,
    EventType: row.event_type,
    Status: row.status,
    Attempts: row.attempts,
    NextAttemptAt: row.status === 'pending' ? iso(toMillis(row.next_attempt_at)) : null,
    LastAttemptAt: iso(row.last_attempt_at),
    LastStatusCode: row.last_status_code,
    LastDurationMs: row.last_duration_ms,
    LastError: row.last_error,
    ReplayOf: row.replay_of === null ? null : Number(row.replay_of),
    Test: row.is_test === 1,
    CreatedAt: iso(row.created_at)!,
    DeliveredAt: iso(row.delivered_at),
  };
}
