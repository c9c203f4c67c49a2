// GetYourGuide's products: an activity the operator maps to a GYG product ID, sold through its offered
// ticket types (offer.ts). Also the product endpoints GYG reads when a supplier sets a product up.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ActivityRow } from '../catalog/index.js';
import { listTicketTypes } from '../catalog/index.js';
import { listActivities } from '../catalog/index.js';
import { GygError } from './errors.js';
import { offeredTypes, type OfferedType } from './offer.js';
import { categoryChoices, findMappedActivity, listProductMappings, type ConnectionRow } from './store.js';
import type { PricingCategory } from './schemas.js';
import type { Static } from '@sinclair/typebox';
import type { ProductDetailsData, SupplierProductsData } from './schemas.js';

/** The connection GYG's credentials named. */
export interface GygCaller {
  operatorId: number;
  connection: ConnectionRow;
}

export interface GygProduct {
  productId: string;
  activity: ActivityRow;
  offered: OfferedType[];
  /** A GROUP product sells groups only (offer.ts). */
  group: OfferedType | undefined;
}

/** The mapped live activity with at least one offered ticket type, else INVALID_PRODUCT. */
export async function requireProduct(db: Kysely<Database>, caller: GygCaller, productId: string): Promise<GygProduct> {
  const activity = await findMappedActivity(db, caller.operatorId, productId);
  if (!activity) throw GygError.invalidProduct(productId);
  const offered = offeredTypes(await listTicketTypes(db, [activity.id]), await categoryChoices(db, caller.operatorId));
  if (offered.length === 0) {
    throw new GygError('INVALID_PRODUCT', `Product "${productId}" has no ticket type offered to GetYourGuide; the supplier must map one in slotbook`);
  }
  return { productId, activity, offered, group: offered.find((o) => o.category === 'GROUP') };
}

const MAX_TEXT = 512;
const clip = (text: string) => (text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT - 1)}…`);

function requireSupplier(caller: GygCaller, supplierId: string): string {
  const own = caller.connection.supplier_id;
  if (own === null)
    throw new GygError('INVALID_SUPPLIER', 'No GetYourGuide supplier ID is set for this connection; the supplier must enter it in slotbook');
  if (own !== supplierId) throw new GygError('INVALID_SUPPLIER', `Supplier ID "${supplierId}" is not the one of this connection`);
  return own;
}

export async function supplierProducts(
  db: Kysely<Database>,
  caller: GygCaller,
  supplierId: string,
  supplierName: string,
): Promise<Static<typeof SupplierProductsData>> {
  const own = requireSupplier(caller, supplierId);
  const [mappings, activities] = await Promise.all([listProductMappings(db, caller.operatorId), listActivities(db, caller.operatorId)]);
  const byId = new Map(activities.map((a) => [a.id, a]));
  const products = [];
  for (const mapping of mappings) {
    const activity = byId.get(mapping.activity_id);
    if (activity) products.push({ productId: mapping.product_id, productTitle: clip(activity.name) });
  }
  return { supplierId: own, supplierName: clip(supplierName), products };
}

/**
 * GYG's destination is a UN/LOCODE city name and an ISO 3166 alpha-3 country, which slotbook does not
 * record: the city is the time zone's (Europe/Berlin: Berlin), the country left empty for the supplier to fill.
 */
const cityOf = (zone: string) => (zone.split('/').pop() ?? zone).replaceAll('_', ' ');

export async function productDetails(db: Kysely<Database>, caller: GygCaller, productId: string): Promise<Static<typeof ProductDetailsData>> {
  const { activity } = await requireProduct(db, caller, productId);
  return {
    supplierId: caller.connection.supplier_id ?? '',
    productTitle: clip(activity.name),
    productDescription: clip(activity.description),
    destinationLocation: { city: cityOf(activity.timezone), country: '' },
    configuration: { participantsConfiguration: { min: 1, max: activity.max_participants_per_booking } },
  };
}

export async function pricingCategories(db: Kysely<Database>, caller: GygCaller, productId: string): Promise<PricingCategory[]> {
  const { activity, offered } = await requireProduct(db, caller, productId);
  return offered.map(({ type, category }) => ({
    category,
    minTicketAmount: Math.max(type.min_per_booking, 0),
    maxTicketAmount: type.max_per_booking ?? activity.max_participants_per_booking,
    groupSizeMin: category === 'GROUP' ? 1 : null,
    groupSizeMax: category === 'GROUP' ? type.people : null,
    ageFrom: type.min_age,
    ageTo: type.max_age,
    bookingCategory: type.price === 0 ? 'FREE_TICKET_REQUIRED' : 'STANDARD',
    price: [{ priceType: 'RETAIL_PRICE', price: type.price, currency: activity.currency }],
  }));
}
