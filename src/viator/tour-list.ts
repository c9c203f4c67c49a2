// Viator's tour list: every mapped live activity with at least one offered age band, as a tour with one
// option (slotbook has no product options: the productOptionId is also the SupplierProductCode). Viator's
// mapping wizard reads it. The country is the time zone's (countries-and-timezones); the destination code
// wants a UN/LOCODE, which slotbook does not record, so it is left empty for Viator's team to fill.
import type { Kysely } from 'kysely';
import ct from 'countries-and-timezones';
import type { Database } from '../db/schema.js';
import { findProducts, type ViatorCaller } from './products.js';
import { listProductMappings } from './store.js';
import type { TourListResponseData } from './schemas.js';

const MAX_TEXT = 2000;
const clip = (text: string) => (text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT - 1)}…`);
const cityOf = (zone: string) => (zone.split('/').pop() ?? zone).replaceAll('_', ' ');
/** The zone's country (ISO 3166-1 alpha-2); 'ZZ' (unknown) for a zone of no country, such as UTC. */
const countryOf = (zone: string) => ct.getTimezone(zone)?.countries[0] ?? 'ZZ';

export async function tourList(db: Kysely<Database>, caller: ViatorCaller): Promise<NonNullable<TourListResponseData['Tour']>> {
  const mappings = await listProductMappings(db, caller.operatorId);
  const products = await findProducts(
    db,
    caller,
    mappings.map((m) => m.product_option_id),
  );
  return [...products.values()].map(({ optionId, activity }) => ({
    SupplierProductCode: optionId,
    SupplierProductName: clip(activity.name),
    CountryCode: countryOf(activity.timezone),
    DestinationCode: '',
    DestinationName: cityOf(activity.timezone),
    TourDescription: clip(activity.description || activity.name),
    TourOption: [{ productOptionId: optionId, SupplierOptionCode: optionId, SupplierOptionName: clip(activity.name) }],
  }));
}
