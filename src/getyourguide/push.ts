// Pushing availability to GetYourGuide (notify-availability-update): when a mapped product's seats change
// for any reason, GYG is told within seconds, never on the booking's request path and never as a full
// dump. Changes are detected by the webhooks' outbox: every writer notes the timeslots whose seats or
// capacity changed (events/outbox.ts noteSeatsChanged), the webhook dispatcher coalesces the notes per
// timeslot (AVAILABILITY_COALESCE_MS) and hands the due timeslots to the listeners the composition
// registered (reactions.ts): queueGygPushes keeps one row per timeslot of a mapped product. The sender
// (startGygPushes, every process) renders each timeslot as it is when it sends, one request per product,
// sell-outs first, retried with back-off and after a 429 when GYG's Retry-After says.
// Pushes are off until configured: only a connection that is switched on and holds the credentials GYG
// issued for its API pushes (connection.ts pushesOn). Without them (the demo's, a connection set up for GYG's pulls
// only) nothing is noted, queued or sent: a push GYG would refuse is a request to GYG's real API for
// nothing, from a newcomer's laptop too. The same condition is in the SQL that notes and sweeps for
// such operators (events/store.ts, webhooks/deliveries/store.ts) and queues (store.ts queuePushes).
import { traceOutbound } from '../lib/tracing.js';
import { tallyQueue } from '../events/tallies.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Db, Tx } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import type { InstanceKeys } from '../secrets/keys.js';
import { startPeriodic } from '../lib/periodic.js';
import { findZonedTimeslotsById } from '../availability/store.js';
import { listTicketTypes } from '../catalog/tickets/store.js';
import { OUTBOUND_PASSWORD_PURPOSE, pushesOn } from './connection.js';
import { offeredTypes } from './offer.js';
import { toAvailability } from './availability.js';
import type { GygProduct } from './products.js';
import type { Availability, PushAvailability, PushBody } from './schemas.js';
import {
  categoryChoices,
  duePushes,
  findConnections,
  findMappedActivity,
  finishPushes,
  postponePushes,
  queuePushes,
  type ConnectionRow,
  type PushRow,
} from './store.js';

const BATCH = 200;
const EVERY_MS = 2_000;
const TIMEOUT_MS = 10_000;
/** Back-off after a failure: 10 s, doubling, at most an hour; after MAX_ATTEMPTS the change is dropped. */
const FIRST_RETRY_MS = 10_000;
const MAX_RETRY_MS = 3_600_000;
export const MAX_ATTEMPTS = 10;

/** The listener of the webhooks' coalesced availability (wired in reactions.ts). */
export async function queueGygPushes(tx: Tx, timeslotIds: number[], nowMs: number): Promise<void> {
  await queuePushes(tx, timeslotIds, nowMs);
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
export type PushTransport = (
  url: string,
  init: { headers: Record<string, string>; body: string },
) => Promise<{ status: number; retryAfter: string | null }>;

export const fetchTransport: PushTransport = async (url, init) => {
  const response = await fetch(url, { method: 'POST', headers: init.headers, body: init.body, signal: AbortSignal.timeout(TIMEOUT_MS) });
  await response.arrayBuffer();
  return { status: response.status, retryAfter: response.headers.get('retry-after') };
};

interface Group {
  operatorId: number;
  productId: string;
  pushes: PushRow[];
}

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

const retryDelay = (attempts: number, retryAfter: string | null): number => {
  const seconds = retryAfter === null ? Number.NaN : Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(MAX_RETRY_MS, seconds * 1000);
  const date = retryAfter === null ? Number.NaN : Date.parse(retryAfter);
  if (Number.isFinite(date)) return Math.min(MAX_RETRY_MS, Math.max(0, date - Date.now()));
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** attempts);
};

/** One pass: sends what is due, one request per product, products with a sell-out first. Returns the requests made. */
export async function sendDuePushes(
  db: Db,
  keys: InstanceKeys,
  settings: PushSettings,
  log: Pick<FastifyBaseLogger, 'warn'>,
  transport: PushTransport = fetchTransport,
  nowMs = Date.now(),
): Promise<number> {
  const due = await duePushes(db.kysely, nowMs, BATCH);
  if (due.length === 0) return 0;
  const groups = new Map<string, Group>();
  for (const push of due) {
    const key = `${push.operator_id} ${push.product_id}`;
    const group = groups.get(key) ?? groups.set(key, { operatorId: push.operator_id, productId: push.product_id, pushes: [] }).get(key)!;
    group.pushes.push(push);
  }
  const now = Math.floor(nowMs / 1000);
  const connections = await findConnections(db.kysely, [...new Set(due.map((push) => push.operator_id))]);
  const slots = new Map(
    (
      await findZonedTimeslotsById(
        db.kysely,
        due.map((push) => push.timeslot_id),
        now,
      )
    ).map((row) => [row.id, row]),
  );

  const ready: { group: Group; connection: ConnectionRow; entries: PushAvailability[] }[] = [];
  const dropped: PushRow[] = [];
  for (const group of groups.values()) {
    const connection = connections.get(group.operatorId);
    const product = connection && pushesOn(connection) ? await productOf(db.kysely, group.operatorId, group.productId) : undefined;
    const rows = group.pushes
      .map((push) => slots.get(push.timeslot_id))
      .filter((row) => row !== undefined && row.activity_id === product?.activity.id);
    // Switched off, without GYG's credentials, unmapped, or the timeslot gone: nothing to tell GYG any more.
    if (!connection || !product || rows.length === 0) {
      dropped.push(...group.pushes);
      continue;
    }
    ready.push({ group, connection, entries: rows.map((row) => pushEntry(toAvailability(row!, product, now))) });
  }
  if (dropped.length > 0) await db.write((tx) => finishPushes(tx, dropped));
  // A sell-out is pushed first: GYG must stop selling before it learns of seats elsewhere.
  ready.sort((a, b) => Number(b.entries.some(soldOut)) - Number(a.entries.some(soldOut)));

  for (const { group, connection, entries } of ready) {
    const body = JSON.stringify({ data: { productId: group.productId, availabilities: entries } } satisfies PushBody);
    let outcome: { status: number; retryAfter: string | null } | { status: 0; retryAfter: null; error: string };
    try {
      outcome = await traceOutbound(
        'GetYourGuide notify-availability-update',
        { 'slotbook.operator_id': group.operatorId, 'slotbook.gyg_product_id': group.productId, 'http.request.method': 'POST' },
        async (span) => {
          const answer = await transport(`${settings.gygApiUrl}/1/notify-availability-update`, {
            headers: { ...headersOf(connection, keys), ...span.headers },
            body,
          });
          span.annotate({ 'http.response.status_code': answer.status });
          return answer;
        },
      );
    } catch (error) {
      outcome = { status: 0, retryAfter: null, error: error instanceof Error ? error.message : String(error) };
    }
    if (outcome.status >= 200 && outcome.status < 300) {
      await db.write((tx) => finishPushes(tx, group.pushes));
      tallyQueue('gyg_push', { sent: 1 });
      continue;
    }
    const attempts = Math.max(...group.pushes.map((push) => push.attempts));
    const why = 'error' in outcome ? outcome.error : `HTTP ${outcome.status}`;
    if (attempts + 1 >= MAX_ATTEMPTS) {
      log.warn({ operatorId: group.operatorId, productId: group.productId, why }, 'GetYourGuide availability push given up');
      await db.write((tx) => finishPushes(tx, group.pushes));
      tallyQueue('gyg_push', { failed: 1 });
      continue;
    }
    tallyQueue('gyg_push', { retrying: 1 });
    const next = nowMs + retryDelay(attempts, outcome.status === 429 ? outcome.retryAfter : null);
    await db.write((tx) => postponePushes(tx, group.pushes, next, why));
  }
  return ready.length;
}

/** The sender of this process; safe with any number of processes (a push sent twice tells GYG the same). */
export function startGygPushes(db: Db, keys: InstanceKeys, settings: PushSettings, log: FastifyBaseLogger): () => Promise<void> {
  return startPeriodic(log, 'GetYourGuide availability push', EVERY_MS, () => sendDuePushes(db, keys, settings, log));
}
