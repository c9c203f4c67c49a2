// What the webhook routes need beside the database: the URL rules of this configuration (production or
// not, the networks each kind of endpoint may reach, the resolver) and the HTTP transport that test sends
// go through. Tests pass their own resolver (DNS rebinding) or transport.
import type { Config } from '../config.js';
import { parseNetworks, systemResolver, type AddressPolicies, type Resolver } from './endpoints/address.js';
import type { UrlRules } from './endpoints/url.js';
import { createTransport, type Transport } from './deliveries/transport.js';

export interface WebhookRuntime {
  rules: UrlRules;
  transport: Transport;
}

export interface WebhookOverrides {
  resolve?: Resolver;
  transport?: Transport;
}

export function addressPolicies(config: Pick<Config, 'webhookAllowedNetworks' | 'webhookAllowedNetworksForPartners'>): AddressPolicies {
  return {
    operator: { allowed: parseNetworks(config.webhookAllowedNetworks), setting: 'WEBHOOK_ALLOWED_NETWORKS' },
    marketplace: { allowed: parseNetworks(config.webhookAllowedNetworksForPartners), setting: 'WEBHOOK_ALLOWED_NETWORKS_FOR_PARTNERS' },
  };
}

export function createWebhookRuntime(
  config: Pick<Config, 'production' | 'webhookAllowedNetworks' | 'webhookAllowedNetworksForPartners'>,
  overrides: WebhookOverrides = {},
): WebhookRuntime {
  const resolve = overrides.resolve ?? systemResolver;
  const policies = addressPolicies(config);
  return { rules: { production: config.production, policies, resolve }, transport: overrides.transport ?? createTransport({ policies, resolve }) };
}
