// What one public client may hold in one operator's shop at once, so that nobody can hoard the inventory
// (docs/security/shop-and-idempotency.md): seats per basket, seats per client address over all its
// baskets, and baskets opened per client address per hour. Each check runs in the write transaction that
// would exceed it, under a lock on the client (PostgreSQL; SQLite's write transaction is alone anyway),
// so that concurrent requests of one client cannot both pass a check that only one of them fits.
import type { Config } from '../config.js';
import type { Tx } from '../db/connection.js';
import { lockForTransaction } from '../db/advisory-lock.js';
import { RetryLater, ValidationFailed } from '../http/errors.js';
import { basketsOpenedSince, liveHeldSeats } from './store.js';
import { addMillis, type UnixMillis, type UnixSeconds } from '../lib/clock.js';

export type ShopLimits = Pick<Config, 'shopMaxSeatsPerBasket' | 'shopMaxHeldSeatsPerClient' | 'shopMaxBasketsPerClientHour'>;

const HOUR_MS = 60 * 60 * 1000;
const seatsText = (n: number) => (n === 1 ? '1 seat' : `${n} seats`);

/** Serialises the shop writes of one client of one operator until the transaction ends. */
export const lockClient = (tx: Tx, operatorId: number, clientHmac: string) => lockForTransaction(tx, `shop-client:${operatorId}:${clientHmac}`);

/**
 * Refuses an item of `seats` seats that would take the basket beyond its seats (422 on `field`, the
 * item's Participants or Tickets: the request asks too much of this basket) or the client beyond the
 * seats one client may hold at once (429 quota-exceeded, Retry-After until its first hold lapses).
 */
export async function checkHoldLimits(
  tx: Tx,
  limits: ShopLimits,
  item: { operatorId: number; basketId: number; clientHmac: string; seats: number; field: string },
  now: UnixSeconds,
): Promise<void> {
  const basket = await liveHeldSeats(tx, now, { basketId: item.basketId });
  if (basket.seats + item.seats > limits.shopMaxSeatsPerBasket) {
    const room = Math.max(0, limits.shopMaxSeatsPerBasket - basket.seats);
    throw ValidationFailed.field(
      item.field,
      `A basket holds at most ${seatsText(limits.shopMaxSeatsPerBasket)} at once; this one holds ${basket.seats}, so it can take ${room === 0 ? 'no more' : `at most ${room} more`}. Pay for it first, then open another basket.`,
    );
  }
  const client = await liveHeldSeats(tx, now, { operatorId: item.operatorId, clientHmac: item.clientHmac });
  if (client.seats + item.seats > limits.shopMaxHeldSeatsPerClient) {
    throw new RetryLater(
      'quota-exceeded',
      `You already hold ${seatsText(client.seats)} in this shop; one client may hold at most ${seatsText(limits.shopMaxHeldSeatsPerClient)} at once. ` +
        'Pay for a basket, or wait until a hold lapses (Retry-After).',
      (client.firstLapse ?? now) - now,
    );
  }
}

/** Refuses a basket beyond the baskets one client may open per hour in this shop (429, Retry-After). */
export async function checkBasketQuota(tx: Tx, limits: ShopLimits, operatorId: number, clientHmac: string, nowMs: UnixMillis): Promise<void> {
  const { opened, oldest } = await basketsOpenedSince(tx, operatorId, clientHmac, addMillis(nowMs, -HOUR_MS));
  if (opened >= limits.shopMaxBasketsPerClientHour) {
    throw new RetryLater(
      'quota-exceeded',
      `One client may open at most ${limits.shopMaxBasketsPerClientHour} baskets an hour in this shop. Use a basket you have, or retry later (Retry-After).`,
      (Number(oldest) + HOUR_MS - nowMs) / 1000,
    );
  }
}
