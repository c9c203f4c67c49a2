// The webhook records of the admin API (/api/v2/admin/webhooks; generated from /openapi.json: web/src/api-types)
// and the words the dashboard shows for them.
import type { Schemas } from './api-types';

export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookEndpointWithSecret = Schemas['WebhookEndpointWithSecret'];
export type WebhookEventType = Schemas['WebhookEventType'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type DeliveryStatus = WebhookDelivery['Status'];
export type WebhookDeliveryDetail = Schemas['WebhookDeliveryDetail'];

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
