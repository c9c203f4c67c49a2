// Activities as OCTo products: one product per live activity (id = ActivityID) with the option DEFAULT,
// whose units are the activity's ticket types. START_TIME products (every timeslot is an availability)
// or OPENING_HOURS ones (every day's opening hours are one: an attraction with a daily capacity).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { listActivities, findActivity, type ActivityRow } from '../../catalog/store.js';
import { availabilityTypeOf, requiredContactFieldsOf } from '../../catalog/service.js';
import { unixNow } from '../../lib/clock.js';
import { questionsByActivity, type QuestionRow } from '../../questions/store.js';
import { ticketTypesByActivity, type TicketTypeRow } from '../../catalog/tickets/store.js';
import { OctoError } from '../errors.js';
import type { Wants } from '../http.js';
import { lowestPriceOf, pricing } from './pricing.js';
import { toOctoQuestion } from '../bookings/answers.js';
import type { Option, Product, Unit } from './schemas.js';
import { DELIVERY_FORMAT, DELIVERY_METHOD, OPTION_ID, REDEMPTION_METHOD, UNIT_TYPE } from '../terms.js';

/** The operator's live activity by product id; anything else (archived, another operator's, malformed) is INVALID_PRODUCT_ID. */
export async function requireProduct(db: Kysely<Database>, operatorId: number, productId: string): Promise<ActivityRow> {
  const row = /^s_[A-Za-z0-9]{8,32}$/.test(productId) ? await findActivity(db, operatorId, productId) : undefined;
  if (!row || row.archived) throw OctoError.invalidProduct(productId);
  return row;
}

export function requireOption(optionId: string): void {
  if (optionId !== OPTION_ID) throw OctoError.invalidOption(optionId);
}

export const isOpeningHours = (activity: ActivityRow): boolean => availabilityTypeOf(activity) === 'opening_hours';

/** A ticket type as an OCTo unit: its limits per booking, people, and the type it must come with. */
function unitOf(type: TicketTypeRow, activity: ActivityRow, wants: Wants): Unit {
  return {
    id: type.code,
    internalName: type.name,
    reference: String(type.id),
    type: UNIT_TYPE[type.category as keyof typeof UNIT_TYPE] ?? 'OTHER',
    restrictions: {
      minAge: type.min_age ?? 0,
      maxAge: type.max_age ?? 99,
      idRequired: false,
      minQuantity: type.min_per_booking > 0 ? type.min_per_booking : null,
      maxQuantity: type.max_per_booking,
      paxCount: type.people,
      accompaniedBy: type.requires_code === null ? [] : [type.requires_code],
    },
    requiredContactFields: [],
    ...(wants.pricing && { pricingFrom: [pricing(type.price, activity.currency)] }),
    ...(wants.questions && { questions: [] }),
  };
}

interface ProductParts {
  activity: ActivityRow;
  types: TicketTypeRow[];
  questions: QuestionRow[];
  startTimes: string[];
}

function optionOf({ activity, types, questions, startTimes }: ProductParts, wants: Wants): Option {
  return {
    id: OPTION_ID,
    default: true,
    internalName: OPTION_ID,
    reference: null,
    // OCTo wants at least one: "00:00" for opening hours and for an activity without upcoming timeslots.
    availabilityLocalStartTimes: !isOpeningHours(activity) && startTimes.length > 0 ? startTimes : ['00:00'],
    // slotbook lets a booking be cancelled until it starts, like the partner API.
    cancellationCutoff: '0 hours',
    cancellationCutoffAmount: 0,
    cancellationCutoffUnit: 'hour',
    requiredContactFields: requiredContactFieldsOf(activity),
    restrictions: { minUnits: 1, maxUnits: activity.max_participants_per_booking },
    units: types.map((type) => unitOf(type, activity, wants)),
    ...(wants.pricing && { pricingFrom: [lowestPriceOf(activity, types)] }),
    ...(wants.questions && { questions: questions.map(toOctoQuestion) }),
  };
}

function toOctoProduct(parts: ProductParts, wants: Wants): Product {
  const { activity } = parts;
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
    availabilityType: isOpeningHours(activity) ? 'OPENING_HOURS' : 'START_TIME',
    deliveryFormats: [DELIVERY_FORMAT],
    deliveryMethods: [DELIVERY_METHOD],
    redemptionMethod: REDEMPTION_METHOD,
    options: [optionOf(parts, wants)],
    ...(wants.pricing && { defaultCurrency: activity.currency, availableCurrencies: [activity.currency], pricingPer: 'UNIT' }),
  };
}

/** The distinct local start times (HH:MM) of each activity's timeslots that still take bookings. */
async function upcomingStartTimes(db: Kysely<Database>, activityIds: number[], now: number): Promise<Map<number, string[]>> {
  const byActivity = new Map<number, string[]>();
  if (activityIds.length === 0) return byActivity;
  const rows = await db
    .selectFrom('timeslots')
    .select(['activity_id', 'time'])
    .distinct()
    .where('activity_id', 'in', activityIds)
    .where('bookable_until', '>', now)
    .orderBy('activity_id')
    .orderBy('time')
    .execute();
  for (const row of rows) byActivity.set(row.activity_id, [...(byActivity.get(row.activity_id) ?? []), row.time]);
  return byActivity;
}

async function productsOf(db: Kysely<Database>, operatorId: number, activities: ActivityRow[], wants: Wants): Promise<Product[]> {
  const ids = activities.map((activity) => activity.id);
  const [types, questions, times] = await Promise.all([
    ticketTypesByActivity(db, ids),
    wants.questions ? questionsByActivity(db, operatorId, ids) : new Map<number, QuestionRow[]>(),
    upcomingStartTimes(db, ids, unixNow()),
  ]);
  return activities.map((activity) =>
    toOctoProduct(
      { activity, types: types.get(activity.id) ?? [], questions: questions.get(activity.id) ?? [], startTimes: times.get(activity.id) ?? [] },
      wants,
    ),
  );
}

export async function listOctoProducts(db: Kysely<Database>, operatorId: number, wants: Wants): Promise<Product[]> {
  return productsOf(db, operatorId, await listActivities(db, operatorId), wants);
}

export async function getOctoProduct(db: Kysely<Database>, operatorId: number, productId: string, wants: Wants): Promise<Product> {
  const [product] = await productsOf(db, operatorId, [await requireProduct(db, operatorId, productId)], wants);
  return product!;
}
