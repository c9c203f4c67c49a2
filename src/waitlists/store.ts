// SQL of waitlist entries. An entry moves waiting -> offered -> claimed | expired (or removed), each
// step a conditional update, so that two workers can never offer one entry twice. A waiting entry counts
// only once its address is confirmed (confirmed_at); unconfirmed, it lapses at confirm_by.
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Tx } from '../db/connection.js';
import type { Database, WaitlistEntryTable } from '../db/schema.js';
import { lapsedHoldSeatsOf } from '../availability/index.js';
import { nowMillis, type UnixSeconds } from '../lib/clock.js';

export type WaitlistEntryRow = Selectable<WaitlistEntryTable>;

/** Inserts the entry unless the address already waits (or holds an offer) for this timeslot. */
export async function insertEntry(tx: Tx, row: Omit<Insertable<WaitlistEntryTable>, 'id'>): Promise<WaitlistEntryRow | undefined> {
  return (
    tx
      .insertInto('waitlist_entries')
      .values(row)
      // The predicate is literal SQL: both databases match it against the partial unique index's own.
      .onConflict((oc) => oc.columns(['timeslot_id', 'customer_email']).where(sql<boolean>`status IN ('waiting', 'offered')`).doNothing())
      .returningAll()
      .executeTakeFirst()
  );
}

/** Entries with their timeslot's date and time and activity's ID, joined in: the lists order and page in one query. */
export function selectEntries(db: Kysely<Database>) {
  return db
    .selectFrom('waitlist_entries')
    .innerJoin('timeslots', 'timeslots.id', 'waitlist_entries.timeslot_id')
    .innerJoin('activities', 'activities.id', 'timeslots.activity_id')
    .selectAll('waitlist_entries')
    .select(['activities.public_id as activity_public_id', 'timeslots.date', 'timeslots.time']);
}
export type WaitlistEntryRecord = Awaited<ReturnType<ReturnType<typeof selectEntries>['execute']>>[number];

/** The waiting customers of a timeslot whose address is confirmed, in the order they confirmed. */
export async function waitingEntries(db: Kysely<Database>, timeslotId: number): Promise<WaitlistEntryRow[]> {
  return db
    .selectFrom('waitlist_entries')
    .selectAll()
    .where('timeslot_id', '=', timeslotId)
    .where('status', '=', 'waiting')
    .where('confirmed_at', 'is not', null)
    .orderBy('confirmed_at')
    .orderBy('id')
    .execute();
}

/**
 * An unconfirmed place whose confirmation time ran out is over: it becomes expired (unconfirmed), which
 * frees the address to join this timeslot again.
 */
export async function lapseUnconfirmed(tx: Tx, timeslotId: number, email: string, now: UnixSeconds): Promise<void> {
  await tx
    .updateTable('waitlist_entries')
    .set({ status: 'expired' })
    .where('timeslot_id', '=', timeslotId)
    .where('customer_email', '=', email)
    .where('status', '=', 'waiting')
    .where('confirmed_at', 'is', null)
    .where('confirm_by', '<=', now)
    .execute();
}

/** Places that still count against a client or an address: confirmed, or unconfirmed and not lapsed. */
export async function countActivePlaces(
  tx: Tx,
  operatorId: number,
  by: { clientHmac: string } | { unconfirmedEmail: string },
  now: UnixSeconds,
): Promise<number> {
  let query = tx
    .selectFrom('waitlist_entries')
    .select((eb) => eb.fn.countAll<number>().as('places'))
    .where('operator_id', '=', operatorId)
    .where('status', 'in', ['waiting', 'offered'])
    .where((eb) => eb.or([eb('confirmed_at', 'is not', null), eb('confirm_by', '>', now)]));
  query =
    'clientHmac' in by
      ? query.where('client_hmac', '=', by.clientHmac)
      : query.where('customer_email', '=', by.unconfirmedEmail).where('confirmed_at', 'is', null);
  return Number((await query.executeTakeFirst())?.places ?? 0);
}

/** The entry a confirmation link names, with what its page shows (its timeslot, activity and operator, in one query). */
export async function findByConfirmToken(db: Kysely<Database>, tokenHash: string) {
  return db
    .selectFrom('waitlist_entries')
    .innerJoin('timeslots', 'timeslots.id', 'waitlist_entries.timeslot_id')
    .innerJoin('activities', 'activities.id', 'timeslots.activity_id')
    .innerJoin('operators', 'operators.id', 'waitlist_entries.operator_id')
    .select([
      'waitlist_entries.id',
      'waitlist_entries.status',
      'waitlist_entries.participants',
      'waitlist_entries.confirmed_at',
      'waitlist_entries.confirm_by',
      'timeslots.date',
      'timeslots.time',
      'timeslots.starts_at',
      'activities.name as activity_name',
      'activities.timezone',
      'operators.name as operator_name',
    ])
    .where('waitlist_entries.confirm_token_hash', '=', tokenHash)
    .executeTakeFirst();
}
export type ConfirmableEntry = NonNullable<Awaited<ReturnType<typeof findByConfirmToken>>>;

/** Unconfirmed and live -> confirmed; false when the link's place is not (or no longer) confirmable. */
export async function markConfirmed(tx: Tx, tokenHash: string, now: UnixSeconds): Promise<boolean> {
  const result = await tx
    .updateTable('waitlist_entries')
    .set({ confirmed_at: nowMillis() })
    .where('confirm_token_hash', '=', tokenHash)
    .where('status', '=', 'waiting')
    .where('confirmed_at', 'is', null)
    .where('confirm_by', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** waiting -> offered, only if still waiting. */
export async function markOffered(tx: Tx, id: number, basketId: number, offerExpiresAt: UnixSeconds): Promise<boolean> {
  const result = await tx
    .updateTable('waitlist_entries')
    .set({ status: 'offered', basket_id: basketId, offer_expires_at: offerExpiresAt })
    .where('id', '=', id)
    .where('status', '=', 'waiting')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Offers whose claim window has passed are over; their held seats lapse with the hold. */
export async function expireLapsedOffers(tx: Tx, timeslotId: number, now: UnixSeconds): Promise<void> {
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

/** The guest was e-mailed their offer (called as the e-mail is marked sent). */
export async function markNotified(tx: Tx, id: number): Promise<void> {
  await tx.updateTable('waitlist_entries').set({ notified_at: nowMillis() }).where('id', '=', id).execute();
}

/**
 * Timeslots (not yet started) with a waiting party that fits the live free seats (offers.ts). One query over
 * the timeslots, which are availability's (the lapsed holds' seats are its published expression): the
 * worker runs it every few seconds for every operator, so it is not split into a query per timeslot.
 */
export async function timeslotsToOffer(db: Kysely<Database>, now: UnixSeconds): Promise<{ id: number; operatorId: number }[]> {
  const rows = await db
    .selectFrom('timeslots')
    .select(['timeslots.id', 'timeslots.operator_id', 'timeslots.capacity', 'timeslots.booked'])
    .select((eb) => lapsedHoldSeatsOf(eb, now).as('lapsed_hold_seats'))
    .select((eb) =>
      eb
        .selectFrom('waitlist_entries')
        .select((w) => w.fn.min<number>('waitlist_entries.participants').as('smallest'))
        .whereRef('waitlist_entries.timeslot_id', '=', 'timeslots.id')
        .where('waitlist_entries.status', '=', 'waiting')
        .where('waitlist_entries.confirmed_at', 'is not', null)
        .as('smallest_party'),
    )
    .where('timeslots.bookable_until', '>', now)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('waitlist_entries')
          .select('waitlist_entries.id')
          .whereRef('waitlist_entries.timeslot_id', '=', 'timeslots.id')
          .where('waitlist_entries.status', '=', 'waiting')
          .where('waitlist_entries.confirmed_at', 'is not', null),
      ),
    )
    .orderBy('timeslots.id')
    .execute();
  return rows
    .filter((row) => row.smallest_party !== null && row.capacity - row.booked + Number(row.lapsed_hold_seats ?? 0) >= Number(row.smallest_party))
    .map((row) => ({ id: row.id, operatorId: row.operator_id }));
}
