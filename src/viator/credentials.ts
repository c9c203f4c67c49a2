// The key Viator sends in X-Api-Key: 192 random bits behind a recognisable prefix, unique over the
// instance, so the key alone names one operator's connection. Only its SHA-256 is kept and looked up; a
// fast hash is right for a random secret, as for API keys.
import { createHash, randomBytes } from 'node:crypto';

export interface NewKey {
  key: string;
  keyHash: string;
  /** The first characters, shown to tell keys apart. */
  hint: string;
}

export function generateKey(): NewKey {
  const key = `vtr_${randomBytes(24).toString('base64url')}`;
  return { key, keyHash: hashKey(key), hint: `${key.slice(0, 8)}…` };
}

export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');
