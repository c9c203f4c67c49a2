// GET /supplier and /capabilities: who sells through this OCTo interface, and what it implements.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { readSettingsRow } from '../settings/index.js';
import { SUPPORTED_CAPABILITIES } from './http.js';
import type { Capability, Supplier } from './schemas.js';

export async function getSupplier(db: Kysely<Database>, operatorId: number, publicUrl: string): Promise<Supplier> {
  // The key's operator: it exists (the auth hook found the key through it).
  const operator = await readSettingsRow(db, operatorId);
  if (!operator) throw new Error(`Operator ${operatorId} of an authenticated key is gone`);
  // slotbook keeps no contact details for an operator (yet): OCTo allows each of them to be null.
  return {
    id: String(operatorId),
    name: operator.name,
    endpoint: `${publicUrl}/octo`,
    contact: { website: null, email: null, telephone: null, address: null },
  };
}

export const CAPABILITIES: Capability[] = SUPPORTED_CAPABILITIES.map((id) => ({
  id,
  revision: 1,
  required: false,
  dependencies: [],
  docs: 'https://docs.octo.travel/',
}));
