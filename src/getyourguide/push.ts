// Pushing availability to GetYourGuide (notify-availability-update): when a mapped product's seats change
// for any reason, GYG is told within seconds, never on the booking's request path and never as a full
// dump, through the marketplaces' one push queue (marketplace-push/: its table, sender loop, back-off and
// 429 Retry-After, shared with Viator). Changes are detected by the webhooks' outbox: every writer notes
// the timeslots whose seats or capacity changed (events/outbox.ts noteSeatsChanged), the webhook
// dispatcher coalesces the notes per timeslot (AVAILABILITY_COALESCE_MS) and hands the due timeslots to
// the listeners the composition registered (reactions.ts): queueGygPushes queues one row per timeslot of a
// mapped product on the channel `getyourguide`. This channel's sender (server.ts, every process) renders
// each product's due timeslots as they are when it sends, one request per product, sell-outs first.
// Pushes are off until configured: only a connection that is switched on and holds the credentials GYG
// issued for its API pushes (connection.ts pushesOn). Without them (the demo's, a connection set up for GYG's pulls
// only) nothing is noted, queued or sent: a push GYG would refuse is a request to GYG's real API for
// nothing, from a newcomer's laptop too. The same condition is in the SQL that notes and sweeps for
// such operators (events/store.ts, webhooks/deliveries/store.ts) and queues (store.ts pushTargets).
import { traceOutbound } from '../lib/tracing.js';
import type { Kysely } from 'kysely';
import type { Tx } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import type { InstanceKeys } from '../secrets/keys.js';
import { findZonedTimeslotsById } from '../availability/index.js';
import { listTicketTypes } from '../catalog/index.js';
import type { PushAnswer, PushChannel, PushGroup } from '../marketplace-push/queue.js';
import { queuePushes } from '../marketplace-push/index.js';
import { OUTBOUND_PASSWORD_PURPOSE, pushesOn } from './connection.js';
import { offeredTypes } from './offer.js';
import { toAvailability } from './availability.js';
import type { GygProduct } from './products.js';
import type { Availability, PushAvailability, PushBody } from './schemas.js';
import { categoryChoices, findConnections, findMappedActivity, pushTargets, type ConnectionRow } from './store.js';
import { toSeconds, type UnixMillis } from '../lib/clock.js';

const TIMEOUT_MS = 10_000;
/** GetYourGuide's channel in the marketplaces' push queue (marketplace_pushes.channel). */
export const GYG_CHANNEL = 'getyourguide';

/** The listener of the webhooks' coalesced availability (wired in reactions.ts). */
export async function queueGygPushes(tx: Tx, timeslotIds: number[], nowMs: UnixMillis): Promise<void> {
  if (timeslotIds.length > 0) await queuePushes(tx, GYG_CHANNEL, await pushTargets(tx, timeslotIds), nowMs);
}

/** An entry of GYG's push: get-availabilities' entry without productId and cutoffSeconds, which the push does not carry. */
function pushEntry(availability: Availability): PushAvailability {
  const { productId: _product, cutoffSeconds: _cutoff, ...entry } = availability;
  return entry;
}

const soldOut = (entry: Pick<Availability, 'vacancies' | 'vacanciesByCategory'>): boolean =>
  entry.vacancies === 0 || (entry.vacanciesByCategory?.every((c) => c.vacancies === 0) ?? false);

export interface PushSettings {
  gygApiUrl: string;
}

/** What a push sends: where, with what, and how the answer is taken. Tests give their own. */
export type PushTransport = (url: string, init: { headers: Record<string, string>; body: string }) => Promise<PushAnswer>;

export const fetchTransport: PushTransport = async (url, init) => {
  const response = await fetch(url, { method: 'POST', headers: init.headers, body: init.body, signal: AbortSignal.timeout(TIMEOUT_MS) });
  await response.arrayBuffer();
  return { status: response.status, retryAfter: response.headers.get('retry-after') };
};

async function productOf(db: Kysely<Database>, operatorId: number, productId: string): Promise<GygProduct | undefined> {
  const activity = await findMappedActivity(db, operatorId, productId);
  if (!activity) return undefined;
  const offered = offeredTypes(await listTicketTypes(db, [activity.id]), await categoryChoices(db, operatorId));
  if (offered.length === 0) return undefined;
  return { productId, activity, offered, group: offered.find((o) => o.category === 'GROUP') };
}

/** GYG's Basic credentials for its API: only a connection that pushes (pushesOn) gets here. */
function headersOf(connection: ConnectionRow, keys: InstanceKeys): Record<string, string> {
  const password = keys.open(OUTBOUND_PASSWORD_PURPOSE, connection.outbound_password_sealed!);
  return {
    'content-type': 'application/json',
    authorization: `Basic ${Buffer.from(`${connection.outbound_username}:${password}`).toString('base64')}`,
  };
}

/** GetYourGuide's channel of the push queue: its sender renders and posts each product's due timeslots. */
export function gygPushChannel(keys: InstanceKeys, settings: PushSettings, transport: PushTransport = fetchTransport): PushChannel {
  return {
    name: GYG_CHANNEL,
    label: 'GetYourGuide availability',
    metric: 'gyg_push',
    targets: pushTargets,
    async prepare(db: Kysely<Database>, group: PushGroup, nowMs: UnixMillis) {
      const connection = (await findConnections(db, [group.operatorId])).get(group.operatorId);
      // Switched off, without GYG's credentials, unmapped, or the timeslots gone: nothing to tell GYG any more.
      if (!connection || !pushesOn(connection)) return undefined;
      const product = await productOf(db, group.operatorId, group.productId);
      if (!product) return undefined;
      const now = toSeconds(nowMs);
      const slots = new Map((await findZonedTimeslotsById(db, group.timeslotIds, now)).map((row) => [row.id, row]));
      const rows = group.timeslotIds.map((id) => slots.get(id)).filter((row) => row !== undefined && row.activity_id === product.activity.id);
      if (rows.length === 0) return undefined;
      const entries = rows.map((row) => pushEntry(toAvailability(row!, product, now)));
      const body = JSON.stringify({ data: { productId: group.productId, availabilities: entries } } satisfies PushBody);
      const headers = headersOf(connection, keys);
      return {
        // A sell-out is pushed first: GYG must stop selling before it learns of seats elsewhere.
        urgent: entries.some(soldOut),
        send: () =>
          traceOutbound(
            'GetYourGuide notify-availability-update',
            { 'slotbook.operator_id': group.operatorId, 'slotbook.gyg_product_id': group.productId, 'http.request.method': 'POST' },
            async (span) => {
              const answer = await transport(`${settings.gygApiUrl}/1/notify-availability-update`, {
                headers: { ...headers, ...span.headers },
                body,
              });
              span.annotate({ 'http.response.status_code': answer.status });
              return answer;
            },
          ),
      };
    },
  };
}
