// A webhook endpoint row as the API shows it: never its secrets.
import { unixNow, type UnixSeconds } from '../../lib/clock.js';
import type { EndpointRow } from './store.js';
import type { WebhookEndpoint } from './schemas.js';

const isoSeconds = (s: UnixSeconds | null) => (s === null ? null : new Date(Number(s) * 1000).toISOString());

export function toEndpoint(row: EndpointRow, now = unixNow()): WebhookEndpoint {
  const previousLive = row.previous_secret_expires_at !== null && Number(row.previous_secret_expires_at) > now;
  return {
    ID: row.id,
    URL: row.url,
    Description: row.description,
    EventTypes: row.event_types.split(' '),
    Partner: row.partner,
    Status: row.status,
    DisabledReason: row.status === 'disabled' ? row.disabled_reason : null,
    DisabledAt: row.status === 'disabled' ? isoSeconds(row.disabled_at) : null,
    FailingSince: isoSeconds(row.failing_since),
    LastSuccessAt: isoSeconds(row.last_success_at),
    PreviousSecretExpiresAt: previousLive ? isoSeconds(row.previous_secret_expires_at) : null,
    CreatedAt: new Date(Number(row.created_at)).toISOString(),
    UpdatedAt: new Date(Number(row.updated_at)).toISOString(),
  };
}
