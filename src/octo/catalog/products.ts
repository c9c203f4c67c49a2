// Activities as OCTo products: one product per live activity (id = ActivityID) with the option DEFAULT,
// whose units are the activity's ticket types. START_TIME products (every timeslot is an availability)
// or OPENING_HOURS ones (every day's opening hours are one: an attraction with a daily capacity).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { listActivities, findActivity, type ActivityRow } from '../../catalog/index.js';
import { unixNow } from '../../lib/clock.js';
import { questionsByActivity, type QuestionRow } from '../../questions/index.js';
import { ticketTypesByActivity } from '../../catalog/index.js';
import { OctoError } from '../errors.js';
import type { Wants } from '../http.js';
import type { Product } from './schemas.js';
import { upcomingStartTimes } from './store.js';
import { OPTION_ID } from '../terms.js';
import { toOctoProduct } from './view.js';
import { activityPhotos } from '../../catalog/photos/service.js';
import type { ActivityPhoto } from '../../catalog/photos/schemas.js';

/** The operator's live activity by product id; anything else (archived, another operator's, malformed) is INVALID_PRODUCT_ID. */
export async function requireProduct(db: Kysely<Database>, operatorId: number, productId: string): Promise<ActivityRow> {
  const row = /^s_[A-Za-z0-9]{8,32}$/.test(productId) ? await findActivity(db, operatorId, productId) : undefined;
  if (!row || row.archived) throw OctoError.invalidProduct(productId);
  return row;
}

export function requireOption(optionId: string): void {
  if (optionId !== OPTION_ID) throw OctoError.invalidOption(optionId);
}

async function productsOf(db: Kysely<Database>, operatorId: number, activities: ActivityRow[], wants: Wants, publicUrl: string): Promise<Product[]> {
  const ids = activities.map((activity) => activity.id);
  const [types, questions, times, photos] = await Promise.all([
    ticketTypesByActivity(db, ids),
    wants.questions ? questionsByActivity(db, operatorId, ids) : new Map<number, QuestionRow[]>(),
    upcomingStartTimes(db, ids, unixNow()),
    wants.content ? activityPhotos(db, ids, publicUrl) : new Map<number, ActivityPhoto[]>(),
  ]);
  return activities.map((activity) =>
    toOctoProduct(
      {
        activity,
        types: types.get(activity.id) ?? [],
        questions: questions.get(activity.id) ?? [],
        startTimes: times.get(activity.id) ?? [],
        photos: photos.get(activity.id) ?? [],
      },
      wants,
    ),
  );
}

/** publicUrl goes before the photo addresses (octo/content). */
export async function listOctoProducts(db: Kysely<Database>, operatorId: number, wants: Wants, publicUrl: string): Promise<Product[]> {
  return productsOf(db, operatorId, await listActivities(db, operatorId), wants, publicUrl);
}

export async function getOctoProduct(db: Kysely<Database>, operatorId: number, productId: string, wants: Wants, publicUrl: string): Promise<Product> {
  const [product] = await productsOf(db, operatorId, [await requireProduct(db, operatorId, productId)], wants, publicUrl);
  return product!;
}
