// The webhook records of the admin API (/api/v2/admin/webhooks, see /openapi.json) and the words the
// dashboard shows for them.

export interface WebhookEndpoint {
  ID: number;
  URL: string;
  Description: string;
  EventTypes: string[];
  Partner: string | null;
  Status: 'enabled' | 'disabled';
  DisabledReason: 'manual' | 'failing' | null;
  DisabledAt: string | null;
  FailingSince: string | null;
  LastSuccessAt: string | null;
  PreviousSecretExpiresAt: string | null;
  CreatedAt: string;
  UpdatedAt: string;
}

export interface WebhookEndpointWithSecret extends WebhookEndpoint {
  Secret: string;
}

export interface WebhookEventType {
  Type: string;
  Description: string;
  OptIn: boolean;
  Marketplaces: boolean;
}

export type DeliveryStatus = 'pending' | 'sending' | 'delivered' | 'failed';

export interface WebhookDelivery {
  ID: number;
  EndpointID: number;
  EventID: string;
  EventType: string;
  Status: DeliveryStatus;
  Attempts: number;
  NextAttemptAt: string | null;
  LastAttemptAt: string | null;
  LastStatusCode: number | null;
  LastDurationMs: number | null;
  LastError: string | null;
  ReplayOf: number | null;
  Test: boolean;
  CreatedAt: string;
  DeliveredAt: string | null;
}

export interface WebhookDeliveryDetail extends WebhookDelivery {
  Event: unknown;
  AttemptLog: { AttemptedAt: string; StatusCode: number | null; DurationMs: number; Error: string | null; ResponseBody: string | null }[];
}

export const WEBHOOKS = '/api/v2/admin/webhooks';

export const DELIVERY_TONES: Record<DeliveryStatus, string> = { pending: 'warning', sending: 'info', delivered: 'success', failed: 'danger' };
export const DELIVERY_LABELS: Record<DeliveryStatus, string> = { pending: 'Retrying', sending: 'Sending', delivered: 'Delivered', failed: 'Failed' };

/** "Every event" for the `*` subscription, else the list. */
export function describeTypes(types: string[]): string {
  const rest = types.filter((type) => type !== '*');
  if (!types.includes('*')) return rest.join(', ');
  return rest.length === 0 ? 'Every event' : `Every event, and ${rest.join(', ')}`;
}

/** The endpoints that slotbook disabled because they kept failing. */
export const failingEndpoints = (endpoints: WebhookEndpoint[]) =>
  endpoints.filter((endpoint) => endpoint.Status === 'disabled' && endpoint.DisabledReason === 'failing');
