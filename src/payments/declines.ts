// Slowing card testing: someone with a list of stolen card numbers tries them against a shop to learn which
// work. Every declined attempt is recorded (payments, with the HMAC of the payer's address), and after a few
// declines for one basket (or one booking's balance, paid through its guest's link), or from one address
// anywhere in the service, the next attempt must wait, longer after each further decline. A guest who mistyped a card twice never notices; a list of cards costs hours.
//
//   declines in the last 24 hours:  1-3   4     5     6     7      8      9      10     11+
//   wait after the last one:        none  30 s  60 s  2 min 4 min  8 min  16 min 32 min 1 hour
//
// (the wait after the n-th decline is 30 s x 2^(n-4), at most one hour; the basket's and the address's
// counts are checked apart, the longer wait wins.)
import type { Tx } from '../db/connection.js';
import { RetryLater } from '../http/errors.js';
import { recentDeclines as declinesSince } from './index.js';
import { addMillis, type UnixMillis } from '../lib/clock.js';

export const FREE_DECLINES = 3;
export const FIRST_WAIT_SECONDS = 30;
export const MAX_WAIT_SECONDS = 60 * 60;
export const DECLINE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Seconds to wait after the last of `declines` declines (0 while they are few). */
export function waitAfter(declines: number): number {
  if (declines < FREE_DECLINES) return 0;
  return Math.min(FIRST_WAIT_SECONDS * 2 ** (declines - FREE_DECLINES), MAX_WAIT_SECONDS);
}

/** What is being paid: a basket, or a booking's balance (through its guest's link). */
export type PaidThing = { basketId: number } | { bookingId: number };

/** Milliseconds still to wait after the recent declines of the basket, booking or address (0 or less: none). */
async function recentDeclines(tx: Tx, by: PaidThing | { clientHmac: string }, nowMs: UnixMillis) {
  const { declines, last } = await declinesSince(tx, by, addMillis(nowMs, -DECLINE_WINDOW_MS));
  return declines === 0 || last === null ? 0 : last + waitAfter(declines) * 1000 - nowMs;
}

/** 429 too-many-declines (Retry-After) while the basket (or booking) or the paying address must still wait. */
export async function refuseWhileDeclining(tx: Tx, paid: PaidThing, clientHmac: string, nowMs: UnixMillis): Promise<void> {
  const wait = Math.max(await recentDeclines(tx, paid, nowMs), await recentDeclines(tx, { clientHmac }, nowMs));
  if (wait > 0) {
    throw new RetryLater(
      'too-many-declines',
      `Several payments were declined in a row; please wait ${Math.ceil(wait / 1000)} seconds before trying again. Each further decline makes the wait longer.`,
      wait / 1000,
    );
  }
}
