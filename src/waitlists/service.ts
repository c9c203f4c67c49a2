// Waitlists: a customer joins the waitlist of a timeslot that has no room for their party (shop); the
// operator reads and trims it (admin). Offering freed seats is offers.ts, run by the worker.
import type { Kysely } from 'kysely';
import type { Db } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { Conflict, NotFound, ValidationFailed } from '../http/errors.js';
import { requireActivity } from '../catalog/service.js';
import { findTimeslotAt, findZonedTimeslot } from '../availability/store.js';
import { seatsLeft, unixNow } from '../availability/seats.js';
import { requireShop } from '../shop/baskets.js';
import { insertEntry, markRemoved, selectEntries, type WaitlistEntryRecord } from './store.js';
import { audit } from '../audit/log.js';
import type { JoinWaitlistBody, WaitlistEntry, WaitlistStatus } from './schemas.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** An offer whose claim window has passed is expired from that second on, as a lapsed hold is. */
function effectiveStatus(row: WaitlistEntryRecord, now: number): WaitlistStatus {
  if (row.status === 'offered' && row.offer_expires_at !== null && Number(row.offer_expires_at) <= now) return 'expired';
  return row.status;
}

function toEntry(row: WaitlistEntryRecord, now: number, position: number | null): WaitlistEntry {
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
    NotifiedAt: iso(row.notified_at),
    OfferExpiresAt: row.offer_expires_at === null ? null : new Date(Number(row.offer_expires_at) * 1000).toISOString(),
    MultiBookingID: row.basket_id,
  };
}

/**
 * Shop: joins the waitlist. Only a timeslot without room for the party has a waitlist (409 otherwise:
 * book the seats instead), and a customer waits once per timeslot (409 on a second join).
 */
export async function joinWaitlist(db: Db, operatorId: number, body: JoinWaitlistBody): Promise<WaitlistEntry> {
  await requireShop(db.kysely, operatorId);
  const activity = await requireActivity(db.kysely, operatorId, body.ActivityID);
  const timeslot = await findTimeslotAt(db.kysely, activity.id, body.Date, body.Time);
  if (!timeslot) throw new NotFound(`Activity ${body.ActivityID} has no timeslot on ${body.Date} at ${body.Time}`);
  if (body.Participants > activity.max_participants_per_booking) {
    throw ValidationFailed.field('Participants', `Participants must be at most ${activity.max_participants_per_booking} for this activity`);
  }
  const now = unixNow();
  if (timeslot.starts_at <= now) throw ValidationFailed.field('Time', `The timeslot on ${body.Date} at ${body.Time} has already started`);
  const live = (await findZonedTimeslot(db.kysely, operatorId, timeslot.id, now))!;
  const left = seatsLeft({ capacity: live.capacity, booked: live.booked - live.lapsed_hold_seats, startsAt: live.starts_at }, now);
  if (left >= body.Participants) {
    throw new Conflict(`${left} seats are still available on ${body.Date} at ${body.Time}: book them instead of joining the waitlist`);
  }
  const c = body.Customer;
  const entry = await db.write((tx) =>
    insertEntry(tx, {
      operator_id: operatorId,
      timeslot_id: timeslot.id,
      participants: body.Participants,
      customer_first_name: c.FirstName.trim(),
      customer_last_name: c.LastName.trim(),
      customer_email: c.Email.trim(),
      customer_phone: c.Phone,
      status: 'waiting',
      basket_id: null,
      offer_expires_at: null,
      created_at: Date.now(),
      notified_at: null,
    }),
  );
  if (!entry) throw new Conflict(`${c.Email} is already on the waitlist of ${body.Date} at ${body.Time}`);
  const entries = await listWaitlist(db.kysely, operatorId, timeslot.id, now);
  return entries.find((e) => e.ID === entry.id)!;
}

/** Operator: the timeslot's waitlist in the order customers joined, with each waiting one's place. */
export async function listWaitlist(db: Kysely<Database>, operatorId: number, timeslotId: number, now = unixNow()): Promise<WaitlistEntry[]> {
  const slot = await db.selectFrom('timeslots').select('id').where('id', '=', timeslotId).where('operator_id', '=', operatorId).executeTakeFirst();
  if (!slot) throw new NotFound(`No timeslot ${timeslotId}`);
  const rows = await selectEntries(db).where('waitlist_entries.timeslot_id', '=', timeslotId).orderBy('waitlist_entries.id').execute();
  let position = 0;
  return rows.map((row) => toEntry(row, now, effectiveStatus(row, now) === 'waiting' ? ++position : null));
}

/** Operator: takes a waiting customer off the list (an offer already made runs its course). */
export async function removeWaitlistEntry(db: Db, operatorId: number, id: number): Promise<WaitlistEntry> {
  const found = await selectEntries(db.kysely).where('waitlist_entries.id', '=', id).where('waitlist_entries.operator_id', '=', operatorId).executeTakeFirst();
  if (!found) throw new NotFound(`No waitlist entry ${id}`);
  await db.write(async (tx) => {
    if (await markRemoved(tx, operatorId, id)) {
      await audit(tx, { operatorId, action: 'waitlist-entry.remove', resource: { type: 'waitlist-entry', id }, before: { Status: found.status }, after: { Status: 'removed' } });
    }
  });
  const entries = await listWaitlist(db.kysely, operatorId, found.timeslot_id);
  return entries.find((e) => e.ID === id)!;
}
