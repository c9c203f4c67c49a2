// Until when a marketplace that sells through its own supplier API (GetYourGuide, Viator) may still cancel
// or change one of its bookings: not once anyone of it was checked in (redeemed), and not once its
// timeslot has started. One check, so that every such channel answers alike and maps the refusal to its
// own error model at its edge.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { findTimeslotById } from '../availability/store.js';
import { checkinsOf } from './checkin.js';

export type MarketplaceRefusal = 'redeemed' | 'started';

/** Why the marketplace may no longer cancel or change the booking; null while it may. */
export async function marketplaceChangeRefusal(
  db: Kysely<Database>,
  booking: { id: number; timeslot_id: number },
  now: number,
): Promise<MarketplaceRefusal | null> {
  const checkins = (await checkinsOf(db, [booking.id])).get(booking.id) ?? [];
  if (checkins.length > 0) return 'redeemed';
  const startsAt = (await findTimeslotById(db, booking.timeslot_id))?.starts_at ?? 0;
  if (startsAt <= now) return 'started';
  return null;
}
