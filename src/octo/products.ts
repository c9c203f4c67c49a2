// Activities as OCTo products: one product per live activity (id = ActivityID) with the option and unit
// of terms.ts, and START_TIME availability: every timeslot is an availability.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { listActivities, findActivity, type ActivityRow } from '../catalog/store.js';
import { unixNow } from '../availability/seats.js';
import { OctoError } from './errors.js';
import { priceOf } from './pricing.js';
import type { Option, Product, Unit } from './schemas.js';
import { DELIVERY_FORMAT, DELIVERY_METHOD, OPTION_ID, REDEMPTION_METHOD, REQUIRED_CONTACT_FIELDS, UNIT_ID } from './terms.js';

/** The operator's live activity by product id; anything else (archived, another operator's, malformed) is INVALID_PRODUCT_ID. */
export async function requireProduct(db: Kysely<Database>, operatorId: number, productId: string): Promise<ActivityRow> {
  const row = /^s_[A-Za-z0-9]{8,32}$/.test(productId) ? await findActivity(db, operatorId, productId) : undefined;
  if (!row || row.archived) throw OctoError.invalidProduct(productId);
  return row;
}

export function requireOption(optionId: string): void {
  if (optionId !== OPTION_ID) throw OctoError.invalidOption(optionId);
}

function unitOf(activity: ActivityRow, pricing: boolean): Unit {
  return {
    id: UNIT_ID,
    internalName: 'Adult',
    reference: null,
    type: 'ADULT',
    restrictions: {
      minAge: 0,
      maxAge: 99,
      idRequired: false,
      minQuantity: null,
      maxQuantity: activity.max_participants_per_booking,
      paxCount: 1,
      accompaniedBy: [],
    },
    requiredContactFields: [],
    ...(pricing && { pricingFrom: [priceOf(activity)] }),
  };
}

function optionOf(activity: ActivityRow, startTimes: string[], pricing: boolean): Option {
  return {
    id: OPTION_ID,
    default: true,
    internalName: OPTION_ID,
    reference: null,
    // OCTo wants at least one; an activity without upcoming timeslots has no start time to name yet.
    availabilityLocalStartTimes: startTimes.length > 0 ? startTimes : ['00:00'],
    // slotbook lets a booking be cancelled until it starts, like the partner API.
    cancellationCutoff: '0 hours',
    cancellationCutoffAmount: 0,
    cancellationCutoffUnit: 'hour',
    requiredContactFields: [...REQUIRED_CONTACT_FIELDS],
    restrictions: { minUnits: 1, maxUnits: activity.max_participants_per_booking },
    units: [unitOf(activity, pricing)],
    ...(pricing && { pricingFrom: [priceOf(activity)] }),
  };
}

export function toOctoProduct(activity: ActivityRow, startTimes: string[], pricing: boolean): Product {
  return {
    id: activity.public_id,
    internalName: activity.name,
    reference: String(activity.id),
    locale: 'en',
    timeZone: activity.timezone,
    allowFreesale: false,
    instantConfirmation: true,
    instantDelivery: true,
    availabilityRequired: true,
    availabilityType: 'START_TIME',
    deliveryFormats: [DELIVERY_FORMAT],
    deliveryMethods: [DELIVERY_METHOD],
    redemptionMethod: REDEMPTION_METHOD,
    options: [optionOf(activity, startTimes, pricing)],
    ...(pricing && { defaultCurrency: activity.currency, availableCurrencies: [activity.currency], pricingPer: 'UNIT' }),
  };
}

/** The distinct local start times (HH:MM) of each activity's timeslots that have not started yet. */
async function upcomingStartTimes(db: Kysely<Database>, activityIds: number[], now: number): Promise<Map<number, string[]>> {
  const byActivity = new Map<number, string[]>();
  if (activityIds.length === 0) return byActivity;
  const rows = await db
    .selectFrom('timeslots')
    .select(['activity_id', 'time'])
    .distinct()
    .where('activity_id', 'in', activityIds)
    .where('starts_at', '>', now)
    .orderBy('activity_id')
    .orderBy('time')
    .execute();
  for (const row of rows) byActivity.set(row.activity_id, [...(byActivity.get(row.activity_id) ?? []), row.time]);
  return byActivity;
}

export async function listOctoProducts(db: Kysely<Database>, operatorId: number, pricing: boolean): Promise<Product[]> {
  const activities = await listActivities(db, operatorId);
  const times = await upcomingStartTimes(db, activities.map((a) => a.id), unixNow());
  return activities.map((activity) => toOctoProduct(activity, times.get(activity.id) ?? [], pricing));
}

export async function getOctoProduct(db: Kysely<Database>, operatorId: number, productId: string, pricing: boolean): Promise<Product> {
  const activity = await requireProduct(db, operatorId, productId);
  const times = await upcomingStartTimes(db, [activity.id], unixNow());
  return toOctoProduct(activity, times.get(activity.id) ?? [], pricing);
}
