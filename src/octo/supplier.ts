// GET /supplier and /capabilities: who sells through this OCTo interface, and what it implements.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { SUPPORTED_CAPABILITIES } from './http.js';
import type { Capability, Supplier } from './catalog/schemas.js';

export async function getSupplier(db: Kysely<Database>, operatorId: number, publicUrl: string): Promise<Supplier> {
  const operator = await db.selectFrom('operators').select(['id', 'name']).where('id', '=', operatorId).executeTakeFirstOrThrow();
  // slotbook keeps no contact details for an operator (yet): OCTo allows each of them to be null.
  return {
    id: String(operator.id),
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
