// Viator's product options: an activity the operator maps to a productOptionId (slotbook has no product
// options, so the same ID is the tour's SupplierProductCode), sold through its offered age bands.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ActivityRow } from '../catalog/index.js';
import { listTicketTypes } from '../catalog/index.js';
import { offeredBands, type OfferedBand } from './age-bands.js';
import { bandChoices, findMappedActivities, type ConnectionRow } from './store.js';

/** The connection Viator's key named. */
export interface ViatorCaller {
  operatorId: number;
  connection: ConnectionRow;
}

export interface ViatorProduct {
  optionId: string;
  activity: ActivityRow;
  offered: OfferedBand[];
  /** A product priced per unit sells UNIT only (age-bands.ts). */
  unit: OfferedBand | undefined;
  /** Whether its changes are notified to Viator (after Viator asked its calendar). */
  notified: boolean;
}

/** The mapped live activities with at least one offered band, by option ID; unknown options are left out. */
export async function findProducts(db: Kysely<Database>, caller: ViatorCaller, optionIds: string[]): Promise<Map<string, ViatorProduct>> {
  const activities = await findMappedActivities(db, caller.operatorId, [...new Set(optionIds)]);
  if (activities.size === 0) return new Map();
  const [types, choices] = await Promise.all([
    listTicketTypes(
      db,
      [...activities.values()].map((a) => a.id),
    ),
    bandChoices(db, caller.operatorId),
  ]);
  const products = new Map<string, ViatorProduct>();
  for (const [optionId, { notify, ...activity }] of activities) {
    const offered = offeredBands(
      types.filter((type) => type.activity_id === activity.id),
      choices,
    );
    if (offered.length > 0)
      products.set(optionId, { optionId, activity, offered, unit: offered.find((o) => o.band === 'UNIT'), notified: notify === 1 });
  }
  return products;
}

export async function findProduct(db: Kysely<Database>, caller: ViatorCaller, optionId: string): Promise<ViatorProduct | undefined> {
  return (await findProducts(db, caller, [optionId])).get(optionId);
}
