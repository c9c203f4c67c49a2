// SQL of waitlist entries. An entry moves waiting -> offered -> claimed | expired (or removed), each
// step a conditional update, so that two workers can never offer one entry twice.
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Tx } from '../db/connection.js';
import type { Database, WaitlistEntryTable } from '../db/schema.js';

export type WaitlistEntryRow = Selectable<WaitlistEntryTable>;

/** Inserts the entry unless the customer already waits (or holds an offer) for this timeslot. */
export async function insertEntry(tx: Tx, row: Omit<Insertable<WaitlistEntryTable>, 'id'>): Promise<WaitlistEntryRow | undefined> {
  return tx
    .insertInto('waitlist_entries')
    .values(row)
    // The predicate is literal SQL: both databases match it against the partial unique index's own.
    .onConflict((oc) => oc.columns(['timeslot_id', 'customer_email']).where(sql<boolean>`status IN ('waiting', 'offered')`).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function selectEntries(db: Kysely<Database>) {
  return db
    .selectFrom('waitlist_entries')
    .innerJoin('timeslots', 'timeslots.id', 'waitlist_entries.timeslot_id')
    .innerJoin('activities', 'activities.id', 'timeslots.activity_id')
    .selectAll('waitlist_entries')
    .select(['activities.public_id as activity_public_id', 'timeslots.date', 'timeslots.time']);
}
export type WaitlistEntryRecord = Awaited<ReturnType<ReturnType<typeof selectEntries>['execute']>>[number];

/** The waiting customers of a timeslot in the order they joined. */
export async function waitingEntries(db: Kysely<Database>, timeslotId: number): Promise<WaitlistEntryRow[]> {
  return db.selectFrom('waitlist_entries').selectAll().where('timeslot_id', '=', timeslotId).where('status', '=', 'waiting').orderBy('id').execute();
}

/** waiting -> offered, only if still waiting. */
export async function markOffered(tx: Tx, id: number, basketId: number, offerExpiresAt: number): Promise<boolean> {
  const result = await tx
    .updateTable('waitlist_entries')
    .set({ status: 'offered', basket_id: basketId, offer_expires_at: offerExpiresAt })
    .where('id', '=', id)
    .where('status', '=', 'waiting')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Offers whose claim window has passed are over; their held seats lapse with the hold. */
export async function expireLapsedOffers(tx: Tx, timeslotId: number, now: number): Promise<void> {
  await tx
    .updateTable('waitlist_entries')
    .set({ status: 'expired' })
    .where('timeslot_id', '=', timeslotId)
    .where('status', '=', 'offered')
    .where('offer_expires_at', '<=', now)
    .execute();
}

/** Paying the offered basket claims the offer (called by checkout, in its transaction). */
export async function markOfferClaimed(tx: Tx, basketId: number): Promise<void> {
  await tx.updateTable('waitlist_entries').set({ status: 'claimed' }).where('basket_id', '=', basketId).where('status', '=', 'offered').execute();
}

export async function markRemoved(tx: Tx, operatorId: number, id: number): Promise<boolean> {
  const result = await tx
    .updateTable('waitlist_entries')
    .set({ status: 'removed' })
    .where('id', '=', id)
    .where('operator_id', '=', operatorId)
    .where('status', '=', 'waiting')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
