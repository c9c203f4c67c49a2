// Offering freed seats to waitlisted customers. The worker of every process runs offerFreedSeats on
// each tick. It needs no signal from the code that frees seats: it looks for timeslots that have waiting
// customers and room, whatever made the room (a cancellation by any API, a hold that lapsed without
// anyone writing, a capacity increase), so no seat-freeing path can be forgotten.
//
// For each such timeslot, in one write transaction: release lapsed holds, expire lapsed offers, then in
// the order customers confirmed their place offer each waiting party that fits the seats left (only
// confirmed places count: joining.ts): open a basket for them
// (the multi-booking), hold their seats in it for the claim window (a booking of Source online, on hold),
// and queue the e-mail that tells them; its sending writes the waitlist-notified entry (worker.ts).
// Parties too large for the seats left keep their place, and smaller parties behind them are offered.
import type { Config } from '../config.js';
import type { Db, Tx } from '../db/connection.js';
import { releaseLapsedHolds } from '../bookings/index.js';
import { findTimeslotWithActivity, lockTimeslot } from '../availability/index.js';
import { holdItem } from '../shop/baskets.js';
import { requireShopProfile } from '../settings/profile.js';
import { claimPageUrl } from '../settings/links.js';
import { insertBasket } from '../shop/index.js';
import { queueEmail } from '../emails/outbox.js';
import { operatorListens, recordEvents } from '../events/outbox.js';
import { expireLapsedOffers, markOffered, selectEntries, timeslotsToOffer, waitingEntries, type WaitlistEntryRow } from './store.js';
import { toEntry } from './service.js';
import { addSeconds, type UnixSeconds } from '../lib/clock.js';

/** Offers the free seats of every timeslot that has room for someone waiting. Returns the offers made. */
export async function offerFreedSeats(db: Db, config: Pick<Config, 'waitlistClaimMinutes' | 'publicUrl'>, now: UnixSeconds): Promise<number> {
  let offers = 0;
  for (const slot of await timeslotsToOffer(db.kysely, now)) {
    const made = await db.write((tx) => offerSeats(tx, config, slot.id, now));
    offers += made;
  }
  return offers;
}

async function offerSeats(tx: Tx, config: Pick<Config, 'waitlistClaimMinutes' | 'publicUrl'>, timeslotId: number, now: UnixSeconds): Promise<number> {
  // Bookings rows first, the timeslot row after: the lock order of every booking writer (bookings/lifecycle/seat-ledger.ts).
  await releaseLapsedHolds(tx, timeslotId, now);
  await expireLapsedOffers(tx, timeslotId, now);
  await lockTimeslot(tx, timeslotId);
  const slot = await findTimeslotWithActivity(tx, timeslotId);
  if (!slot) throw new Error(`Timeslot ${timeslotId} vanished`);
  if (slot.bookable_until <= now) return 0;
  let free = slot.capacity - slot.booked;
  let offers = 0;
  for (const entry of await waitingEntries(tx, timeslotId)) {
    if (free <= 0) break;
    if (entry.participants > free) continue;
    await offer(tx, config, entry, slot, now);
    free -= entry.participants;
    offers += 1;
  }
  return offers;
}

type OfferedSlot = { date: string; time: string; public_id: string; name: string; timezone: string };

async function offer(
  tx: Tx,
  config: Pick<Config, 'waitlistClaimMinutes' | 'publicUrl'>,
  entry: WaitlistEntryRow,
  slot: OfferedSlot,
  now: UnixSeconds,
): Promise<void> {
  const customer = {
    firstName: entry.customer_first_name,
    lastName: entry.customer_last_name,
    email: entry.customer_email,
    phone: entry.customer_phone,
  };
  const basket = await insertBasket(tx, { operatorId: entry.operator_id, customer, waitlistEntryId: entry.id });
  await holdItem(
    tx,
    basket,
    { ActivityID: slot.public_id, Date: slot.date, Time: slot.time, Participants: entry.participants },
    config.waitlistClaimMinutes,
    now,
    null,
  );
  const expiresAt = addSeconds(now, config.waitlistClaimMinutes * 60);
  if (!(await markOffered(tx, entry.id, basket.id, expiresAt))) throw new Error(`Waitlist entry ${entry.id} is no longer waiting`);
  const until = `${new Date(expiresAt * 1000).toISOString().replace('T', ' ').slice(0, 16)} UTC`;
  const seats = entry.participants === 1 ? '1 seat' : `${entry.participants} seats`;
  await queueEmail(tx, {
    operatorId: entry.operator_id,
    kind: 'waitlist',
    waitlistEntryId: entry.id,
    to: entry.customer_email,
    subject: `Seats are free: ${slot.name} on ${slot.date} at ${slot.time}`,
    // No greeting by name: the name is what a stranger typed into the shop, and this e-mail speaks for the operator.
    body:
      'Hello,\n\n' +
      `good news: ${seats} for ${slot.name} on ${slot.date} at ${slot.time} opened up, and we are holding them for you until ${until}.\n\n` +
      `Claim them by paying for them on this page:\n${claimPageUrl(config.publicUrl, (await requireShopProfile(tx, entry.operator_id, '')).slug, basket.token)}\n\n` +
      `If you do not, they go to the next person on the waitlist.\n`,
    sendAt: now,
    meter: 'waitlist-notified',
    meterExtraInfo: JSON.stringify({ WaitlistID: entry.id, MultiBookingID: basket.id }),
  });
  await recordOffered(tx, entry, now);
}

/** waitlist.offered (webhooks): the entry as the operator's waitlist shows it, now offered. */
async function recordOffered(tx: Tx, entry: WaitlistEntryRow, now: UnixSeconds): Promise<void> {
  if (!(await operatorListens(tx, entry.operator_id))) return;
  const offered = await selectEntries(tx).where('waitlist_entries.id', '=', entry.id).executeTakeFirstOrThrow();
  const data = JSON.stringify(toEntry(offered, now, null));
  await recordEvents(tx, entry.operator_id, [{ type: 'waitlist.offered', resource: `waitlist:${entry.id}`, audience: 'operator', data }]);
}
