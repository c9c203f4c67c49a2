// Delivering due webhooks: claim a batch (one transaction), send them (HTTP, in parallel, a few per
// endpoint at once), settle the batch (one transaction): delivered, or back to pending with exponential
// back-off and jitter for about three days, then failed. An endpoint that keeps failing is disabled and
// its operator told (the dashboard shows it; an e-mail goes to the operator's contact address).
//
// At least once: a worker that dies after sending but before settling leaves its claim to lapse, and the
// delivery is sent again (same webhook-id, so receivers can drop the repeat). Never twice at the same
// time: a claim lasts far longer than an attempt may (CLAIM_SECONDS against the attempt's time limit).
import type { Db, Tx } from '../db/connection.js';
import type { InstanceKeys } from '../secrets/keys.js';
import { unixNow } from '../availability/seats.js';
import { queueEmail } from '../emails/outbox.js';
import { eventBody } from './render.js';
import { signedHeaders } from './signing.js';
import type { Transport } from './transport.js';
import {
  claimDeliveries,
  disableFailingEndpoint,
  findDueDeliveries,
  insertAttempts,
  loadOutgoing,
  markEndpointFailing,
  markEndpointHealthy,
  settleDeliveries,
  type Outcome,
  type Outgoing,
} from './delivery-store.js';
import { operatorContact } from './store.js';

/** Seconds after the 1st, 2nd, ... failed attempt (before jitter): about three days in all, 11 attempts. */
export const RETRY_DELAYS = [5, 60, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 14 * 3600, 20 * 3600, 20 * 3600] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS.length + 1;
/** Each delay is stretched or shrunk by up to this share, so that retries after an outage do not arrive together. */
export const JITTER = 0.2;
/** An endpoint is disabled when a delivery gives up and it has accepted nothing for this long. */
export const DISABLE_AFTER_SECONDS = 2 * 86_400;
export const DEFAULT_TIMEOUT_MS = 5_000;
/**
 * Far longer than a batch's attempts can take (32 rounds of the time limit per endpoint at most), as the
 * e-mail worker's: a worker that died leaves its deliveries for five minutes, then they are sent again.
 */
export const CLAIM_SECONDS = 300;
const PER_ENDPOINT_IN_BATCH = 500;
/** Per batch; two batches may be in flight, so an endpoint gets up to twice as many requests at once. */
const PER_ENDPOINT_AT_ONCE = 16;

export const SECRET_PURPOSE = 'webhook-signing-secret';

export interface DeliveryDeps {
  transport: Transport;
  keys: InstanceKeys;
  /** Names this worker in claims; unique per process. */
  workerId: string;
  timeoutMs?: number;
  /** 0 to 1, for jitter (tests pin it). */
  random?: () => number;
}

export interface DeliveryReport {
  delivered: number;
  retrying: number;
  failed: number;
  disabled: number;
}

/** The delay after the nth failed attempt, or undefined when that was the last one. */
export function retryDelay(failedAttempts: number, random: () => number = Math.random): number | undefined {
  const base = RETRY_DELAYS[failedAttempts - 1];
  if (base === undefined) return undefined;
  return Math.max(1, Math.round(base * (1 - JITTER + 2 * JITTER * random())));
}

/**
 * Delivers what is due at `now` (Unix seconds), batch after batch, the next batch claimed while the one
 * before is being sent (two in flight at most): the database's work overlaps the network's. A delivery that
 * waits for an earlier one of its resource goes in a batch after it. `maxBatches` bounds one call.
 */
export async function runDueDeliveries(db: Db, deps: DeliveryDeps, now = unixNow(), batch = 500, maxBatches = Infinity): Promise<DeliveryReport> {
  const report: DeliveryReport = { delivered: 0, retrying: 0, failed: 0, disabled: 0 };
  let inFlight: Promise<unknown> | undefined;
  try {
    for (let round = 0; round < maxBatches; ) {
      const candidates = perEndpoint(await findDueDeliveries(db.kysely, now, batch), PER_ENDPOINT_IN_BATCH);
      const claimed = await db.write((tx) => claimDeliveries(tx, candidates, deps.workerId, now, now + CLAIM_SECONDS));
      if (claimed.length === 0) {
        // Nothing due (failures just now are due later), or another worker was first; or what waits for
        // the batch in flight: once it is settled, look again.
        if (!inFlight) break;
        await inFlight;
        inFlight = undefined;
        continue;
      }
      round += 1;
      const sending = deliverClaimed(db, deps, await loadOutgoing(db.kysely, claimed), now, report);
      sending.catch(() => undefined); // awaited below; this only keeps a failure from counting as unhandled meanwhile
      if (inFlight) await inFlight;
      inFlight = sending;
    }
  } finally {
    if (inFlight) await inFlight;
  }
  return report;
}

/** Sends claimed deliveries and settles them; also how "test an endpoint" sends its one delivery. */
export async function deliverClaimed(db: Db, deps: DeliveryDeps, outgoing: Outgoing[], now: number, report: DeliveryReport): Promise<Outcome[]> {
  const secrets = new Map<number, string[]>();
  const secretsOf = (d: Outgoing) => {
    let list = secrets.get(d.endpoint_id);
    if (!list) {
      list = [deps.keys.open(SECRET_PURPOSE, d.secret_sealed)];
      if (d.previous_secret_sealed !== null && Number(d.previous_secret_expires_at) > now) list.push(deps.keys.open(SECRET_PURPOSE, d.previous_secret_sealed));
      secrets.set(d.endpoint_id, list);
    }
    return list;
  };
  const outcomes = await inParallelPerEndpoint(outgoing, async (d): Promise<Outcome> => {
    const body = eventBody(d);
    // The signature's timestamp is the real time of this attempt: receivers check it against their clock.
    const headers = signedHeaders(secretsOf(d), d.public_id, unixNow(), body);
    const attemptedAt = Date.now();
    const result = await deps.transport.send(d.url, headers, body, deps.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const delay = result.ok || d.is_test ? undefined : retryDelay(d.attempts, deps.random);
    return {
      deliveryId: d.id,
      attemptedAt,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      error: result.error?.slice(0, 1000) ?? null,
      responseBody: result.responseBody,
      status: result.ok ? 'delivered' : delay === undefined ? 'failed' : 'pending',
      nextAttemptAt: now + (delay ?? 0),
    };
  });
  const byId = new Map(outgoing.map((d) => [d.id, d]));
  await db.write((tx) => settle(tx, deps.workerId, outcomes, byId, now, report));
  return outcomes;
}

async function settle(tx: Tx, worker: string, outcomes: Outcome[], byId: Map<number, Outgoing>, now: number, report: DeliveryReport): Promise<void> {
  const settled = await settleDeliveries(tx, worker, outcomes);
  // A delivery whose claim lapsed and was taken over is the new owner's to settle: its attempt is dropped.
  const kept = outcomes.filter((outcome) => settled.has(outcome.deliveryId));
  const endpoints = new Map<number, { healthy: boolean; gaveUp: boolean; operatorId: number }>();
  for (const outcome of kept) {
    const d = byId.get(outcome.deliveryId)!;
    report[outcome.status === 'delivered' ? 'delivered' : outcome.status === 'failed' ? 'failed' : 'retrying'] += 1;
    if (d.is_test) continue; // a test says nothing about the endpoint's health
    const state = endpoints.get(d.endpoint_id) ?? { healthy: false, gaveUp: false, operatorId: d.operator_id };
    state.healthy ||= outcome.status === 'delivered';
    state.gaveUp ||= outcome.status === 'failed';
    endpoints.set(d.endpoint_id, state);
  }
  await insertAttempts(tx, kept);
  for (const [endpointId, state] of endpoints) {
    if (state.healthy) {
      await markEndpointHealthy(tx, endpointId, now);
      continue;
    }
    await markEndpointFailing(tx, endpointId, now);
    if (!state.gaveUp) continue;
    const disabled = await disableFailingEndpoint(tx, endpointId, now - DISABLE_AFTER_SECONDS, now);
    if (!disabled) continue;
    report.disabled += 1;
    await tellOperator(tx, state.operatorId, disabled.url, now);
  }
}

async function tellOperator(tx: Tx, operatorId: number, url: string, now: number): Promise<void> {
  const operator = await operatorContact(tx, operatorId);
  if (!operator?.contact_email) return;
  await queueEmail(tx, {
    operatorId,
    kind: 'webhook',
    to: operator.contact_email,
    subject: 'A webhook endpoint was disabled',
    body:
      `Hello ${operator.name},\n\n` +
      `slotbook disabled your webhook endpoint\n${url}\n` +
      'because it has not accepted a delivery for days: every attempt failed or timed out, and the retries ran out.\n\n' +
      'Events are no longer sent to it. Fix the endpoint, then enable it again in the dashboard (Webhooks): the deliveries still waiting are sent then, ' +
      'and failed ones can be replayed from the list of deliveries.\n',
    sendAt: now,
    meter: null,
    meterExtraInfo: null,
  });
}

/** At most `max` of each endpoint, in the order given: one endpoint cannot fill a whole batch. */
function perEndpoint(rows: { id: number; endpoint_id: number }[], max: number): number[] {
  const counts = new Map<number, number>();
  return rows
    .filter((row) => {
      const count = (counts.get(row.endpoint_id) ?? 0) + 1;
      counts.set(row.endpoint_id, count);
      return count <= max;
    })
    .map((row) => Number(row.id));
}

/** Runs `send` for every delivery, at most PER_ENDPOINT_AT_ONCE at a time per endpoint, all endpoints at once. */
async function inParallelPerEndpoint<R>(outgoing: Outgoing[], send: (d: Outgoing) => Promise<R>): Promise<R[]> {
  const queues = new Map<number, Outgoing[]>();
  for (const d of outgoing) {
    const queue = queues.get(d.endpoint_id);
    if (queue) queue.push(d);
    else queues.set(d.endpoint_id, [d]);
  }
  const results: R[] = [];
  await Promise.all(
    [...queues.values()].flatMap((queue) =>
      Array.from({ length: Math.min(PER_ENDPOINT_AT_ONCE, queue.length) }, async () => {
        for (let d = queue.shift(); d; d = queue.shift()) results.push(await send(d));
      }),
    ),
  );
  return results;
}
