// What the webhook routes need beside the database: the URL rules of this configuration (production or
// not, the allowed networks, the resolver) and the HTTP transport that test sends go through. Tests pass
// their own resolver (DNS rebinding) or transport.
import type { Config } from '../config.js';
import { parseNetworks, systemResolver, type Resolver } from './address.js';
import type { UrlRules } from './endpoint-url.js';
import { createTransport, type Transport } from './transport.js';

export interface WebhookRuntime {
  rules: UrlRules;
  transport: Transport;
}

export interface WebhookOverrides {
  resolve?: Resolver;
  transport?: Transport;
}

export function createWebhookRuntime(config: Pick<Config, 'production' | 'webhookAllowedNetworks'>, overrides: WebhookOverrides = {}): WebhookRuntime {
  const resolve = overrides.resolve ?? systemResolver;
  const policy = { restricted: config.production, allowed: parseNetworks(config.webhookAllowedNetworks) };
  return { rules: { production: config.production, policy, resolve }, transport: overrides.transport ?? createTransport({ policy, resolve }) };
}
