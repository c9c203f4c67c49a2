// Standard Webhooks signatures (https://www.standardwebhooks.com): the secret is `whsec_` + base64 of
// random bytes; each request carries webhook-id, webhook-timestamp (Unix seconds of this attempt) and
// webhook-signature, a space-separated list of `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}`
// under each secret that is signing (two while a rotated-out secret is still live).
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';
/** What an endpoint's secrets are sealed under (secrets/keys.ts): sealed when made, opened to sign. */
export const SECRET_PURPOSE = 'webhook-signing-secret';
const SECRET_BYTES = 32;

export const newSigningSecret = (): string => PREFIX + randomBytes(SECRET_BYTES).toString('base64');

export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The headers of one attempt, signed by every live secret. */
export function signedHeaders(secrets: readonly string[], id: string, timestamp: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => signature(secret, id, timestamp, body)).join(' '),
  };
}
