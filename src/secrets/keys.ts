// Keys derived from one master secret, one per purpose, so that a fingerprint made for one use can never
// stand for another: HMACs (fingerprints that must not be reversible, such as idempotency records of a
// card payment) and sealing (secrets slotbook must read back, such as a webhook signing secret).
//
// The master secret is SECRET_KEY when set (production should set it, so that a copy of the database alone
// does not hold it), else a random one kept in the database (src/secrets/store.ts), shared by every process.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { storedMasterSecret } from './store.js';

export interface InstanceKeys {
  /** Hex HMAC-SHA256 of `data` under the key of `purpose`. */
  hmac(purpose: string, data: string | Buffer): string;
  /** Encrypts (AES-256-GCM) under the key of `purpose`; the result is text safe to store. */
  seal(purpose: string, plaintext: string): string;
  /** Decrypts what `seal` made for the same purpose; throws when it was altered or sealed for another. */
  open(purpose: string, sealed: string): string;
}

const SEALED_VERSION = 'v1';

export function instanceKeys(master: string): InstanceKeys {
  const derived = new Map<string, Buffer>();
  const keyOf = (purpose: string): Buffer => {
    let key = derived.get(purpose);
    if (!key) derived.set(purpose, (key = Buffer.from(hkdfSync('sha256', Buffer.from(master, 'utf8'), Buffer.alloc(0), `slotbook:${purpose}`, 32))));
    return key;
  };
  return {
    hmac: (purpose, data) => createHmac('sha256', keyOf(purpose)).update(data).digest('hex'),
    seal(purpose, plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', keyOf(purpose), iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [SEALED_VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    open(purpose, sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== SEALED_VERSION || iv === undefined || tag === undefined || body === undefined) throw new Error('Not a sealed value');
      const decipher = createDecipheriv('aes-256-gcm', keyOf(purpose), Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

/** The instance's keys: from SECRET_KEY when configured, else from the master secret kept in the database. */
export async function loadInstanceKeys(db: Kysely<Database>, configured: string | undefined): Promise<InstanceKeys> {
  const master = configured ?? (await storedMasterSecret(db, () => randomBytes(32).toString('base64url')));
  return instanceKeys(master);
}
