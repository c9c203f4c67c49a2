// The operator's view of held seats: which live holds block a timeslot, an activity or a day, who holds
// them (a shop client, a waitlist offer, a partner, OCTo) and until when; and releasing them, one or all
// of a selection, when a client hoards seats. A released hold ends as a lapsed one does (expired): its
// seats are on sale again at once, nobody is e-mailed, and paying or confirming it is refused.
import type { Kysely } from 'kysely';
import type { Db, Tx } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { Conflict, NotFound, ValidationFailed } from '../http/errors.js';
import { unixNow, type UnixSeconds } from '../lib/clock.js';
import { expireHolds } from '../bookings/lifecycle/commands.js';
import { findBooking } from '../bookings/index.js';
import { getBooking } from '../bookings/service.js';
import { effectiveStatus } from '../bookings/view.js';
import type { Booking } from '../bookings/schemas.js';
import { SHOWN_FINGERPRINT_LENGTH } from '../shop/client.js';
import { selectLiveHolds, type LiveHoldRow } from './store.js';
import type { Hold, HoldChannel, HoldsQuery, ReleaseHoldsBody, ReleasedHolds } from './schemas.js';
import { audit } from '../audit/log.js';

const iso = (seconds: UnixSeconds) => new Date(seconds * 1000).toISOString();

function channelOf(row: LiveHoldRow): HoldChannel {
  if (row.source === 'online') return row.waitlist_entry_id !== null ? 'waitlist-offer' : 'shop';
  if (row.source === 'partner') return row.octo_uuid !== null ? 'octo' : 'partner-api';
  return 'pos';
}

function toHold(row: LiveHoldRow): Hold {
  return {
    BookingReference: row.reference,
    TimeslotID: row.timeslot_id,
    ActivityID: row.activity_public_id,
    ActivityName: row.activity_name,
    Date: row.date,
    Time: row.time,
    Participants: row.participants,
    Seats: row.seats,
    Channel: channelOf(row),
    Partner: row.partner,
    Client: row.client_hmac === null ? null : row.client_hmac.slice(0, SHOWN_FINGERPRINT_LENGTH),
    CheckoutStarted: row.checkout_started_at !== null,
    Customer: { FirstName: row.customer_first_name, LastName: row.customer_last_name, Email: row.customer_email },
    HeldSince: new Date(Number(row.created_at)).toISOString(),
    HoldExpiresAt: iso(row.hold_expires_at!),
  };
}

export async function listHolds(db: Kysely<Database>, operatorId: number, filter: HoldsQuery): Promise<Hold[]> {
  return (await selectLiveHolds(db, operatorId, filter, unixNow()).execute()).map(toHold);
}

/** Ends the holds as lapsed ones end (the lifecycle's expireHolds), with one audit entry per hold released. */
async function release(db: Db, operatorId: number, pick: (tx: Tx, now: UnixSeconds) => Promise<number[]>) {
  const now = unixNow();
  return db.write(async (tx) => {
    const ended = await expireHolds(tx, await pick(tx, now), now);
    for (const hold of ended) {
      await audit(tx, {
        operatorId,
        action: 'hold.release',
        resource: { type: 'booking', id: hold.reference },
        before: { Status: 'on_hold' },
        after: { Status: 'expired', Seats: Number(hold.seats) },
      });
    }
    return ended;
  });
}

/** Releases one live hold (404 unknown, 409 when it is not on live hold); answers the booking, expired. */
export async function releaseHold(db: Db, operatorId: number, reference: string): Promise<Booking> {
  const booking = await findBooking(db.kysely, operatorId, reference);
  if (!booking) throw new NotFound(`No booking ${reference}`);
  const ended = await release(db, operatorId, async () => [booking.id]);
  if (ended.length === 0) {
    const status = effectiveStatus((await findBooking(db.kysely, operatorId, reference)) ?? booking, unixNow());
    throw new Conflict(`Booking ${reference} is ${status}, not on a live hold: there is nothing to release`);
  }
  return getBooking(db.kysely, operatorId, reference);
}

/** Releases every live hold matching the filter (at least one filter: never everything by accident). */
export async function releaseHolds(db: Db, operatorId: number, filter: ReleaseHoldsBody): Promise<ReleasedHolds> {
  if (filter.TimeslotID === undefined && filter.ActivityID === undefined && filter.Date === undefined && filter.Client === undefined) {
    throw ValidationFailed.field('Body', 'Say which holds to release: give TimeslotID, ActivityID, Date or Client');
  }
  const ended = await release(db, operatorId, async (tx, now) => (await selectLiveHolds(tx, operatorId, filter, now).execute()).map((row) => row.id));
  return {
    Released: ended.length,
    Seats: ended.reduce((sum, hold) => sum + Number(hold.seats), 0),
    BookingReferences: ended.map((hold) => hold.reference),
  };
}
