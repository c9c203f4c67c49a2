// A delivery row as the API shows it.
import type { DeliveryRecord } from './store.js';
import type { WebhookDelivery } from './schemas.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

export function toDelivery(row: DeliveryRecord): WebhookDelivery {
  return {
    ID: Number(row.id),
    EndpointID: row.endpoint_id,
    EventID: row.event_public_id,
    EventType: row.event_type,
    Status: row.status,
    Attempts: row.attempts,
    NextAttemptAt: row.status === 'pending' ? iso(Number(row.next_attempt_at) * 1000) : null,
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
