// SQL of the balance links: which bookings sold with a deposit are due a link to pay their balance, and
// which were sent one.
import type { Kysely } from 'kysely';
import type { Tx } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { nowMillis, type UnixSeconds } from '../lib/clock.js';

/**
 * Bookings whose balance link is due: sold with a deposit (basket_items.deposit, its partial index),
 * confirmed, of an activity with BalanceDueDays, starting within that many days and not yet started,
 * never handled before (balance_requests). Oldest start first.
 */
export async function balanceLinkCandidates(db: Kysely<Database>, now: UnixSeconds, limit: number) {
  return db
    .selectFrom('basket_items')
    .innerJoin('bookings', 'bookings.id', 'basket_items.booking_id')
    .innerJoin('timeslots', 'timeslots.id', 'bookings.timeslot_id')
    .innerJoin('activities', 'activities.id', 'timeslots.activity_id')
    .leftJoin('balance_requests', 'balance_requests.booking_id', 'bookings.id')
    .select([
      'bookings.id as booking_id',
      'bookings.operator_id',
      'bookings.reference',
      'bookings.customer_email',
      'activities.name as activity_name',
      'timeslots.date',
      'timeslots.time',
    ])
    .where('basket_items.deposit', 'is not', null)
    .where('bookings.status', '=', 'confirmed')
    .where('activities.balance_due_days', 'is not', null)
    .where('balance_requests.booking_id', 'is', null)
    .where('timeslots.starts_at', '>', now)
    .where((eb) =>
      eb('timeslots.starts_at', '<=', eb(eb.val<number>(now), '+', eb('activities.balance_due_days', '*', eb.val(86_400))).$castTo<UnixSeconds>()),
    )
    .orderBy('timeslots.starts_at')
    .limit(limit)
    .execute();
}

/** Marks the booking's balance link handled; false when it was before (another process, an earlier run). */
export async function recordBalanceRequest(tx: Tx, operatorId: number, bookingId: number): Promise<boolean> {
  const inserted = await tx
    .insertInto('balance_requests')
    .values({ booking_id: bookingId, operator_id: operatorId, emailed_at: nowMillis() })
    .onConflict((oc) => oc.column('booking_id').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
}
