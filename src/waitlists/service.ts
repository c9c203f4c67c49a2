// Waitlists: the operator reads and trims a timeslot's waitlist (admin). Joining and confirming a place
// is joining.ts (the shop and the confirmation page); offering freed seats is offers.ts, run by the worker.
import type { Kysely } from 'kysely';
import type { Db } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { NotFound } from '../http/errors.js';
import { type UnixMillis, unixNow, type UnixSeconds } from '../lib/clock.js';
import { findTimeslotById } from '../availability/index.js';
import { markRemoved, selectEntries, type WaitlistEntryRecord } from './store.js';
import { audit } from '../audit/log.js';
import type { WaitlistEntry, WaitlistStatus } from './schemas.js';

const iso = (ms: UnixMillis | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/**
 * The status the operator sees. An unconfirmed place is pending until its confirmation time runs out,
 * then lapsed; an offer whose claim window has passed is expired from that second on, as a lapsed hold is.
 */
function effectiveStatus(
  row: Pick<WaitlistEntryRecord, 'status' | 'confirmed_at' | 'confirm_by' | 'offer_expires_at'>,
  now: UnixSeconds,
): WaitlistStatus {
  if (row.confirmed_at === null && row.status === 'waiting') return row.confirm_by !== null && Number(row.confirm_by) <= now ? 'lapsed' : 'pending';
  if (row.confirmed_at === null && row.status === 'expired') return 'lapsed';
  if (row.status === 'offered' && row.offer_expires_at !== null && Number(row.offer_expires_at) <= now) return 'expired';
  return row.status;
}

export function toEntry(row: WaitlistEntryRecord, now: UnixSeconds, position: number | null): WaitlistEntry {
  const status = effectiveStatus(row, now);
  return {
    ID: row.id,
    TimeslotID: row.timeslot_id,
    ActivityID: row.activity_public_id,
    Date: row.date,
    Time: row.time,
    Participants: row.participants,
    Customer: { FirstName: row.customer_first_name, LastName: row.customer_last_name, Email: row.customer_email, Phone: row.customer_phone },
    Status: status,
    Position: status === 'waiting' ? position : null,
    CreatedAt: iso(row.created_at)!,
    ConfirmedAt: iso(row.confirmed_at),
    NotifiedAt: iso(row.notified_at),
    OfferExpiresAt: row.offer_expires_at === null ? null : new Date(Number(row.offer_expires_at) * 1000).toISOString(),
    MultiBookingID: row.basket_id,
  };
}

/**
 * Operator: the timeslot's waitlist in the order customers joined, with each waiting one's place in the
 * queue, which is the order they confirmed their address in (offers.ts offers in that order).
 */
export async function listWaitlist(db: Kysely<Database>, operatorId: number, timeslotId: number, now = unixNow()): Promise<WaitlistEntry[]> {
  const slot = await findTimeslotById(db, timeslotId, operatorId);
  if (!slot) throw new NotFound(`No timeslot ${timeslotId}`);
  const rows = await selectEntries(db).where('waitlist_entries.timeslot_id', '=', timeslotId).orderBy('waitlist_entries.id').execute();
  const queue = rows
    .filter((row) => effectiveStatus(row, now) === 'waiting')
    .sort((a, b) => Number(a.confirmed_at) - Number(b.confirmed_at) || a.id - b.id)
    .map((row) => row.id);
  return rows.map((row) => toEntry(row, now, queue.includes(row.id) ? queue.indexOf(row.id) + 1 : null));
}

/** Operator: takes a waiting customer off the list (an offer already made runs its course). */
export async function removeWaitlistEntry(db: Db, operatorId: number, id: number): Promise<WaitlistEntry> {
  const found = await selectEntries(db.kysely)
    .where('waitlist_entries.id', '=', id)
    .where('waitlist_entries.operator_id', '=', operatorId)
    .executeTakeFirst();
  if (!found) throw new NotFound(`No waitlist entry ${id}`);
  await db.write(async (tx) => {
    if (await markRemoved(tx, operatorId, id)) {
      await audit(tx, {
        operatorId,
        action: 'waitlist-entry.remove',
        resource: { type: 'waitlist-entry', id },
        before: { Status: found.status },
        after: { Status: 'removed' },
      });
    }
  });
  const entries = await listWaitlist(db.kysely, operatorId, found.timeslot_id);
  return entries.find((e) => e.ID === id)!;
}
