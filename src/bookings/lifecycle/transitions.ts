// A booking's status and hold changing, with what follows from it in the same transaction: the files its
// answers name are kept as the new status asks (questions/upload-store.ts: attached for good once it is
// confirmed, kept from the sweep until a hold's new expiry). Its own row is the store's (store.ts).
import type { Tx } from '../../db/connection.js';
import { keepBookingFiles } from '../../questions/index.js';
import { tallyBooking } from '../../hooks/tallies.js';
import type { BookingStatus } from '../schemas.js';
import type { BookingRow } from '../store.js';
import { updateHoldExpiry, updateStatus } from './store.js';
import { nowMillis, type UnixMillis, type UnixSeconds } from '../../lib/clock.js';

/**
 * Moves the booking to `changes.status` only if it is still in one of `from` (store.ts's updateStatus),
 * and returns it when it did. A booking that becomes confirmed attaches the files its answers name for
 * good; its hold kept them from the sweep until now (it was live), so none is gone.
 */
export async function changeStatus(
  tx: Tx,
  bookingId: number,
  from: BookingStatus[],
  changes: { status: Exclude<BookingStatus, 'on_hold'>; cancelled_at?: UnixMillis; hold_expires_at?: null; payment_reference?: string | null },
): Promise<BookingRow | undefined> {
  const changed = await updateStatus(tx, bookingId, from, changes);
  if (changed?.status === 'confirmed') await keepBookingFiles(tx, changed, nowMillis());
  if (changed && (changed.status === 'confirmed' || changed.status === 'cancelled')) tallyBooking(tx, changed.status, changed);
  return changed;
}

/**
 * Moves a live hold's expiry to `until` (store.ts's updateHoldExpiry); the files it names are kept from
 * the sweep until the new expiry. True when it moved.
 */
export async function extendHoldUntil(tx: Tx, bookingId: number, until: UnixSeconds, now: UnixSeconds): Promise<boolean> {
  const extended = await updateHoldExpiry(tx, bookingId, until, now);
  if (extended) await keepBookingFiles(tx, extended, nowMillis());
  return extended !== undefined;
}
