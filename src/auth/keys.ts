// API key format: "sbk_<lookup>_<secret>". The lookup part finds the row; only a SHA-256 of the
// 256-bit secret is stored, and it is compared in constant time. A fast hash is right here: the secret
// is random, so there is nothing to guess that a slow hash would protect.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const SCOPES = ['ota', 'usage:read', 'usage:write', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

const KEY_PATTERN = /^sbk_([A-Za-z0-9_-]{16})_([A-Za-z0-9_-]{43})$/;

export interface NewKey {
  key: string;
  lookupId: string;
  secretHash: string;
}

export function generateKey(): NewKey {
  const lookupId = randomBytes(12).toString('base64url');
  const secret = randomBytes(32).toString('base64url');
  return { key: `sbk_${lookupId}_${secret}`, lookupId, secretHash: hashSecret(secret) };
}

export function parseKey(key: string): { lookupId: string; secret: string } | undefined {
  const match = KEY_PATTERN.exec(key);
  return match ? { lookupId: match[1]!, secret: match[2]! } : undefined;
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const given = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
