// SQL of live holds: bookings on hold whose time has not run out, with what tells their holder apart
// (the shop basket and its client's fingerprint, the waitlist offer, the partner, OCTo).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { MAX_HOLDS, type HoldsQuery } from './schemas.js';
import type { UnixSeconds } from '../lib/clock.js';

export function selectLiveHolds(db: Kysely<Database>, operatorId: number, filter: HoldsQuery, now: UnixSeconds) {
  let query = db
    .selectFrom('bookings')
    .innerJoin('timeslots', 'timeslots.id', 'bookings.timeslot_id')
    .innerJoin('activities', 'activities.id', 'timeslots.activity_id')
    .leftJoin('basket_items', 'basket_items.booking_id', 'bookings.id')
    .leftJoin('baskets', 'baskets.id', 'basket_items.basket_id')
    .leftJoin('octo_bookings', 'octo_bookings.booking_id', 'bookings.id')
    .select([
      'bookings.id',
      'bookings.reference',
      'bookings.timeslot_id',
      'bookings.participants',
      'bookings.seats',
      'bookings.source',
      'bookings.partner',
      'bookings.customer_first_name',
      'bookings.customer_last_name',
      'bookings.customer_email',
      'bookings.created_at',
      'bookings.hold_expires_at',
      'activities.public_id as activity_public_id',
      'activities.name as activity_name',
      'timeslots.date',
      'timeslots.time',
      'basket_items.client_hmac',
      'baskets.waitlist_entry_id',
      'baskets.checkout_started_at',
      'octo_bookings.uuid as octo_uuid',
    ])
    .where('bookings.operator_id', '=', operatorId)
    .where('bookings.status', '=', 'on_hold')
    .where('bookings.hold_expires_at', '>', now);
  if (filter.TimeslotID !== undefined) query = query.where('bookings.timeslot_id', '=', filter.TimeslotID);
  if (filter.ActivityID !== undefined) query = query.where('activities.public_id', '=', filter.ActivityID);
  if (filter.Date !== undefined) query = query.where('timeslots.date', '=', filter.Date);
  // The fingerprint shown is the HMAC's first characters (hex, validated): a prefix match.
  if (filter.Client !== undefined) query = query.where(sql<boolean>`basket_items.client_hmac LIKE ${`${filter.Client}%`}`);
  return query.orderBy('bookings.hold_expires_at').orderBy('bookings.id').limit(MAX_HOLDS);
}
export type LiveHoldRow = Awaited<ReturnType<ReturnType<typeof selectLiveHolds>['execute']>>[number];
