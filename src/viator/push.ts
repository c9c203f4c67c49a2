// Viator's event notifications (POST {VIATOR_API_URL}/v2/notification/events): when a mapped option's seats
// change for any reason (a booking on another channel, a sell-out, a cancelled departure, a change of
// capacity), Viator is told which dates to read again, through the marketplaces' one push queue
// (marketplace-push/). Viator's rules: notifications only for options Viator has asked the calendar of,
// stopped for an option Viator answers it does not know (422 or a 207 naming it INVALID_PRODUCT_OPTION,
// or INVALID_SUPPLIER) until Viator asks its calendar again; AVAILABILITY when a departure became sold out
// (or sellable again: a change that reaches zero or leaves it is sent as AVAILABILITY, the rest as
// CAPACITY). A product's change (a price, a ticket type) is told as PRICING for every date still to come,
// through its own channel of the queue (viator-pricing), so that it never waits behind or merges with a
// seat change. A connection without Viator's key for this endpoint pushes nothing.
import type { Kysely } from 'kysely';
import type { Db, Tx } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import type { InstanceKeys } from '../secrets/keys.js';
import { findZonedTimeslotsById } from '../availability/index.js';
import { availableSeats } from '../availability/service.js';
import type { PushAnswer, PushChannel, PushGroup } from '../marketplace-push/queue.js';
import { queuePushes } from '../marketplace-push/index.js';
import { OUTBOUND_KEY_PURPOSE } from './connection.js';
import { findProduct } from './products.js';
import { findConnections, futurePushTargets, pushTargets, setNotify } from './store.js';
import type { EventNotificationRequest, EventNotificationResponse, UpdateType } from './schemas.js';
import { toSeconds, type UnixMillis } from '../lib/clock.js';

const TIMEOUT_MS = 10_000;
export const VIATOR_CHANNEL = 'viator';
export const VIATOR_PRICING_CHANNEL = 'viator-pricing';

/** What a push sends and how it is answered. Tests give their own. */
export type ViatorTransport = (url: string, init: { headers: Record<string, string>; body: string }) => Promise<PushAnswer & { body: string }>;

export const fetchTransport: ViatorTransport = async (url, init) => {
  const response = await fetch(url, { method: 'POST', headers: init.headers, body: init.body, signal: AbortSignal.timeout(TIMEOUT_MS) });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() };
};

export interface ViatorPushSettings {
  viatorApiUrl: string;
}

/** Viator's answer, as what to stop notifying: the options it does not know (or all, for an unknown supplier). */
function refusedOptions(answer: PushAnswer & { body: string }, optionId: string): boolean {
  try {
    if (answer.status === 422) {
      const { error } = JSON.parse(answer.body) as { error?: string };
      return error === 'INVALID_PRODUCT_OPTION' || error === 'INVALID_SUPPLIER';
    }
    if (answer.status === 207) {
      const { results } = JSON.parse(answer.body) as EventNotificationResponse;
      return results.some((result) => result.productOptionId === optionId && result.error === 'INVALID_PRODUCT_OPTION');
    }
  } catch {
    // An unreadable answer stops nothing.
  }
  return false;
}

/** The listener of the webhooks' coalesced availability (wired in reactions.ts). */
export const queueViatorPushes = async (tx: Tx, timeslotIds: number[], nowMs: UnixMillis): Promise<void> => {
  if (timeslotIds.length > 0) await queuePushes(tx, VIATOR_CHANNEL, await pushTargets(tx, timeslotIds), nowMs);
};

/** The listener of a product's change (wired in reactions.ts): a mapped option's prices may have changed. */
export const queueViatorPricing = async (tx: Tx, product: { id: number; operator_id: number }, nowMs: UnixMillis): Promise<void> => {
  await queuePushes(tx, VIATOR_PRICING_CHANNEL, await futurePushTargets(tx, product.id, toSeconds(nowMs)), nowMs);
};

/**
 * Viator's channels of the push queue: its sender renders and posts each product's due dates. `seats`: the
 * departures' seats changed (AVAILABILITY or CAPACITY); `pricing`: the product changed (PRICING).
 */
export function viatorPushChannel(
  db: Db,
  keys: InstanceKeys,
  settings: ViatorPushSettings,
  transport: ViatorTransport = fetchTransport,
  kind: 'seats' | 'pricing' = 'seats',
): PushChannel {
  return {
    name: kind === 'pricing' ? VIATOR_PRICING_CHANNEL : VIATOR_CHANNEL,
    label: kind === 'pricing' ? 'Viator pricing notification' : 'Viator event notification',
    targets: pushTargets,
    async prepare(kysely: Kysely<Database>, group: PushGroup, nowMs: UnixMillis) {
      const connection = (await findConnections(kysely, [group.operatorId])).get(group.operatorId);
      if (connection?.enabled !== 1 || connection.outbound_key_sealed === null || connection.supplier_id === null) return undefined;
      const caller = { operatorId: group.operatorId, connection };
      const product = await findProduct(kysely, caller, group.productId);
      if (!product) return undefined;
      const now = toSeconds(nowMs);
      const slots = (await findZonedTimeslotsById(kysely, group.timeslotIds, now)).filter((row) => row.activity_id === product.activity.id);
      if (slots.length === 0) return undefined;
      const dates = slots.map((row) => row.date).sort();
      // A departure with nothing left (sold out, closed, cancelled) changed Viator's availability: that goes first.
      const soldOut = kind === 'seats' && slots.some((row) => availableSeats(row, now) === 0);
      const updateType: UpdateType[] = [kind === 'pricing' ? 'PRICING' : soldOut ? 'AVAILABILITY' : 'CAPACITY'];
      const body: EventNotificationRequest = {
        supplierId: Number(connection.supplier_id),
        updateType,
        productOptionIds: [group.productId],
        startDate: dates[0]!,
        endDate: dates[dates.length - 1]!,
      };
      const headers = { 'content-type': 'application/json', 'x-api-key': keys.open(OUTBOUND_KEY_PURPOSE, connection.outbound_key_sealed) };
      return {
        urgent: soldOut,
        async send() {
          const answer = await transport(`${settings.viatorApiUrl}/v2/notification/events`, { headers, body: JSON.stringify(body) });
          if (refusedOptions(answer, group.productId)) {
            // Viator does not know the option (any more): stop until it asks the calendar again, and drop this push.
            await db.write((tx) => setNotify(tx, group.operatorId, [group.productId], false));
            return { status: 200, retryAfter: null };
          }
          return answer;
        },
      };
    },
  };
}
