import type { Db, Tx } from '../db/connection.js';
import { audit } from '../audit/log.js';
import { NotFound, ValidationFailed } from '../http/errors.js';
import { generateKey, SCOPES, type Scope } from './keys.js';
import { insertKey, listKeys, revokeKey, type ApiKeyRecord } from './store.js';
import { forgetRevokedKey } from './key-cache.js';
import { MARKETPLACE_PATTERN } from '../lib/marketplaces.js';

export interface KeyRequest {
  name: string;
  scopes: string[];
  partner?: string | null;
}

/** Creates a key and returns its secret, which exists only in this return value. */
export async function createApiKey(tx: Tx, operatorId: number, request: KeyRequest): Promise<{ record: ApiKeyRecord; key: string }> {
  const scopes = [...new Set(request.scopes)];
  const errors = [];
  const unknown = scopes.filter((scope) => !SCOPES.includes(scope as Scope));
  if (request.name.trim() === '') errors.push({ field: 'Name', message: 'Name must not be empty' });
  if (scopes.length === 0) errors.push({ field: 'Scopes', message: `Scopes must name at least one of ${SCOPES.join(', ')}` });
  if (unknown.length > 0) errors.push({ field: 'Scopes', message: `Unknown scope ${unknown.join(', ')}; use ${SCOPES.join(', ')}` });
  const partner = request.partner ?? null;
  if (scopes.includes('ota') && partner === null) {
    errors.push({ field: 'Partner', message: 'Partner (the marketplace name) is required for an ota key' });
  } else if (partner !== null && !scopes.includes('ota')) {
    errors.push({ field: 'Partner', message: 'Partner is only for keys with the ota scope' });
  } else if (partner !== null && (!MARKETPLACE_PATTERN.test(partner) || partner === 'core')) {
    errors.push({ field: 'Partner', message: 'Partner must be lower-case letters, digits and dashes (and not "core")' });
  }
  if (errors.length > 0) throw new ValidationFailed(errors);
  const generated = generateKey();
  const record = await insertKey(tx, {
    operatorId,
    lookupId: generated.lookupId,
    secretHash: generated.secretHash,
    name: request.name.trim(),
    scopes,
    partner,
  });
  await audit(tx, {
    operatorId,
    action: 'key.create',
    resource: { type: 'key', id: record.id },
    after: { ID: record.id, Name: record.name, Scopes: record.scopes, Partner: record.partner },
  });
  return { record, key: generated.key };
}

export const listApiKeys = listKeys;

export async function revokeApiKey(db: Db, operatorId: number, id: number): Promise<void> {
  await db.write(async (tx) => {
    const revoked = await revokeKey(tx, operatorId, id);
    if (revoked === undefined) throw new NotFound(`No API key ${id}`);
    if (revoked)
      await audit(tx, {
        operatorId,
        action: 'key.revoke',
        resource: { type: 'key', id },
        before: { RevokedAt: null },
        after: { RevokedAt: new Date().toISOString() },
      });
  });
  // After the commit: a request in between may re-read the key, but it reads it revoked.
  forgetRevokedKey(db, id);
}
