// Delivering due webhooks as a pipeline: claim due deliveries (one statement), send each through its
// endpoint's lane (HTTP, a few at once per endpoint), settle the outcomes in small groups (one
// transaction each): delivered, or back to pending with exponential back-off and jitter for about three
// days, then failed. Claims follow as room frees up, so the network never waits for a batch's slowest
// request, and one slow endpoint fills only its own lane: the others' deliveries pass it by. An endpoint
// that keeps failing is disabled and its operator told (the dashboard shows it; an e-mail goes to the
// operator's contact address).
//
// At least once: a worker that dies after sending but before settling leaves its claim to lapse, and the
// delivery is sent again (same webhook-id, so receivers can drop the repeat). Never twice at the same
// time: a claim lasts far longer than an attempt may (CLAIM_SECONDS against what a lane holds times the
// attempt's time limit).
import { traceOutbound } from '../../lib/tracing.js';
import type { Db, Tx } from '../../db/connection.js';
import type { InstanceKeys } from '../../secrets/keys.js';
import { addSeconds, latest, nowMillis, unixNow, type UnixSeconds } from '../../lib/clock.js';
import { queueEmail } from '../../emails/outbox.js';
import { eventBody } from './render.js';
import { SECRET_PURPOSE, signedHeaders } from '../endpoints/signing.js';
import type { AttemptResult, Transport } from './transport.js';
import { endpointKind } from '../endpoints/address.js';
import { claimDue, postponeSuccessors, releaseLapsedClaims, settleDeliveries, type Outcome, type Outgoing } from './store.js';
import { disableFailingEndpoint, markEndpointFailing, markEndpointHealthy } from '../endpoints/store.js';
import { readSettingsRow } from '../../settings/index.js';

/** Seconds after the 1st, 2nd, ... failed attempt (before jitter): about three days in all, 11 attempts. */
export const RETRY_DELAYS = [5, 60, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 14 * 3600, 20 * 3600, 20 * 3600] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS.length + 1;
/** Each delay is stretched or shrunk by up to this share, so that retries after an outage do not arrive together. */
export const JITTER = 0.2;
/** An endpoint is disabled when a delivery gives up and it has accepted nothing for this long. */
export const DISABLE_AFTER_SECONDS = 2 * 86_400;
export const DEFAULT_TIMEOUT_MS = 5_000;
/** Requests in flight at once to one endpoint, per process. */
export const PER_ENDPOINT_AT_ONCE = 32;
/**
 * Deliveries of one endpoint a worker holds claimed at most: that many attempts, each within the time
 * limit, take 512 / 32 x 5 s = 80 s at worst, well inside CLAIM_SECONDS.
 */
const PER_ENDPOINT_HELD = 512;
/**
 * A claim lasts far longer than the deliveries it holds can take (above), as the e-mail worker's: a worker
 * that died leaves its deliveries for five minutes, then they are sent again.
 */
export const CLAIM_SECONDS = 300;
/** Deliveries a worker holds claimed at most, all endpoints together, unless told fewer. */
export const DEFAULT_ROOM = 1_000;
/** Outcomes gather this long before the first group is written (later ones gather while the one before is). */
const SETTLE_AFTER_MS = 10;

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

export interface RunLimits {
  /** Deliveries held claimed at most (default DEFAULT_ROOM). */
  room?: number;
  /** Claims made at most (the worker's small steps while requests keep the process busy). */
  maxClaims?: number;
  /** Asked before each claim: no claims once it says false; what is held is still sent and settled. */
  keepGoing?: () => boolean;
}

/** The delay after the nth failed attempt, or undefined when that was the last one. */
export function retryDelay(failedAttempts: number, random: () => number = Math.random): number | undefined {
  const base = RETRY_DELAYS[failedAttempts - 1];
  if (base === undefined) return undefined;
  return Math.max(1, Math.round(base * (1 - JITTER + 2 * JITTER * random())));
}

/**
 * Delivers what is due at `now` (Unix seconds) until nothing is left that may go (a delivery whose earlier
 * one of its resource settles meanwhile goes in the same run), or the limits say stop.
 */
export async function runDueDeliveries(db: Db, deps: DeliveryDeps, now = unixNow(), limits: RunLimits = {}): Promise<DeliveryReport> {
  const run = new DeliveryRun(db, deps, now);
  await run.run(limits);
  return run.report;
}

/** Sends claimed deliveries and settles them at once; how "test an endpoint" sends its one delivery. */
export async function deliverClaimed(db: Db, deps: DeliveryDeps, outgoing: Outgoing[], now: UnixSeconds): Promise<DeliveryReport> {
  const run = new DeliveryRun(db, deps, now);
  const outcomes = await Promise.all(outgoing.map((d) => run.attempt(d)));
  await db.write(
    (tx) =>
      settle(
        tx,
        deps.workerId,
        outcomes.map((outcome, i) => ({ outcome, outgoing: outgoing[i]! })),
        now,
        run.report,
      ),
    SETTLING,
  );
  return run.report;
}

/**
 * Outcomes are settled without waiting for the disk: one lost in a crash leaves its delivery claimed, and
 * it is sent again when the claim lapses (at least once, as when the worker dies before settling). Claims
 * stay durable, and a durable commit makes every earlier one durable too, so a claim never outlives the
 * dispatch that made its delivery.
 */
const SETTLING = { durable: false };

interface Settling {
  outcome: Outcome;
  outgoing: Outgoing;
}

/** One run of the pipeline: its lanes, its group of outcomes to settle, and what it came to. */
class DeliveryRun {
  readonly report: DeliveryReport = { delivered: 0, retrying: 0, failed: 0, disabled: 0 };
  readonly #secrets = new Map<number, string[]>();
  /** Per endpoint: claimed and not yet settled, and waiting for a free request of the lane. */
  readonly #held = new Map<number, number>();
  readonly #waiting = new Map<number, Outgoing[]>();
  readonly #sending = new Map<number, number>();
  #heldInAll = 0;
  #group: Settling[] = [];
  #groupTimer: NodeJS.Timeout | undefined;
  #settlingNow = false;
  #failure: unknown;
  /** Woken when a group is settled (room freed, successors of the settled ones may now be due). */
  #wake: (() => void) | undefined;

  constructor(
    readonly db: Db,
    readonly deps: DeliveryDeps,
    readonly now: UnixSeconds,
  ) {}

  async run({ room = DEFAULT_ROOM, maxClaims = Infinity, keepGoing = () => true }: RunLimits): Promise<void> {
    await releaseLapsedClaims(this.db.kysely, this.now);
    for (let claims = 0; claims < maxClaims && this.#failure === undefined && keepGoing(); ) {
      if (this.#heldInAll > room / 2) {
        await this.#settled();
        continue;
      }
      const skip = [...this.#held].filter(([, held]) => held > PER_ENDPOINT_HELD / 2).map(([endpointId]) => endpointId);
      // The claim runs from the real time: a long run's `now` may lie well in the past.
      const claimedUntil = addSeconds(latest(this.now, unixNow()), CLAIM_SECONDS);
      const claimed = await claimDue(this.db, this.deps.workerId, this.now, claimedUntil, {
        limit: room - this.#heldInAll,
        perEndpoint: PER_ENDPOINT_HELD / 2,
        skip,
      }).catch((error: unknown) => this.#fail(error));
      claims += 1;
      if (!claimed || claimed.length === 0) {
        // Nothing due now, or only what waits for deliveries still held: once some settle, look again.
        if (this.#heldInAll === 0 || !claimed) break;
        await this.#settled();
        continue;
      }
      for (const d of claimed) this.#enqueue(d);
    }
    while (this.#heldInAll > 0) await this.#settled();
    if (this.#failure !== undefined) throw this.#failure;
  }

  /**
   * One attempt of a claimed delivery, as the outcome to record. What throws before an answer (a secret
   * that cannot be opened, say) is a failed attempt like any other: retried, and given up in the end.
   */
  async attempt(d: Outgoing): Promise<Outcome> {
    const attemptedAt = nowMillis();
    const result = await this.#send(d).catch(
      (error: unknown): AttemptResult => ({
        ok: false,
        statusCode: null,
        durationMs: 0,
        error: `Error: ${error instanceof Error ? error.message : String(error)}`,
        responseBody: null,
      }),
    );
    const delay = result.ok || d.is_test ? undefined : retryDelay(d.attempts, this.deps.random);
    return {
      deliveryId: d.id,
      attemptedAt,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      error: result.error?.slice(0, 1000) ?? null,
      responseBody: result.responseBody,
      status: result.ok ? 'delivered' : delay === undefined ? 'failed' : 'pending',
      nextAttemptAt: addSeconds(this.now, delay ?? 0),
    };
  }

  async #send(d: Outgoing): Promise<AttemptResult> {
    const body = eventBody(d);
    // The signature's timestamp is the real time of this attempt: receivers check it against their clock.
    const headers = signedHeaders(this.#secretsOf(d), d.public_id, unixNow(), body);
    // The attempt's span carries the event and endpoint by ID; traceparent lets the receiver's trace join it.
    return traceOutbound(
      'webhook delivery',
      { 'slotbook.webhook_event_id': d.public_id, 'slotbook.webhook_endpoint_id': d.endpoint_id, 'http.request.method': 'POST' },
      async (span) => {
        const result = await this.deps.transport.send(
          d.url,
          { ...headers, ...span.headers },
          body,
          this.deps.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          endpointKind(d.partner),
        );
        if (result.statusCode !== null) span.annotate({ 'http.response.status_code': result.statusCode });
        return result;
      },
    );
  }

  #secretsOf(d: Outgoing): string[] {
    let list = this.#secrets.get(d.endpoint_id);
    if (!list) {
      list = [this.deps.keys.open(SECRET_PURPOSE, d.secret_sealed)];
      if (d.previous_secret_sealed !== null && Number(d.previous_secret_expires_at) > this.now)
        list.push(this.deps.keys.open(SECRET_PURPOSE, d.previous_secret_sealed));
      this.#secrets.set(d.endpoint_id, list);
    }
    return list;
  }

  #enqueue(d: Outgoing): void {
    this.#held.set(d.endpoint_id, (this.#held.get(d.endpoint_id) ?? 0) + 1);
    this.#heldInAll += 1;
    const waiting = this.#waiting.get(d.endpoint_id);
    if (waiting) waiting.push(d);
    else this.#waiting.set(d.endpoint_id, [d]);
    if ((this.#sending.get(d.endpoint_id) ?? 0) < PER_ENDPOINT_AT_ONCE) void this.#lane(d.endpoint_id);
  }

  /** One of an endpoint's PER_ENDPOINT_AT_ONCE senders: sends what waits for the endpoint, one at a time. */
  async #lane(endpointId: number): Promise<void> {
    this.#sending.set(endpointId, (this.#sending.get(endpointId) ?? 0) + 1);
    const waiting = this.#waiting.get(endpointId)!;
    for (let outgoing = waiting.shift(); outgoing; outgoing = waiting.shift()) this.#toSettle({ outcome: await this.attempt(outgoing), outgoing });
    this.#sending.set(endpointId, this.#sending.get(endpointId)! - 1);
  }

  #toSettle(item: Settling): void {
    this.#group.push(item);
    if (!this.#settlingNow) this.#groupTimer ??= setTimeout(() => void this.#settleGroup(), SETTLE_AFTER_MS);
  }

  /**
   * Writes the outcomes gathered so far in one transaction. One at a time: while it runs, the next group
   * gathers, so that the faster deliveries go, the larger the groups (a commit waits for the disk).
   */
  async #settleGroup(): Promise<void> {
    this.#groupTimer = undefined;
    const group = this.#group;
    this.#group = [];
    this.#settlingNow = true;
    try {
      await this.db.write((tx) => settle(tx, this.deps.workerId, group, this.now, this.report), SETTLING);
    } catch (error) {
      // Unrecorded: their claims lapse and they are sent again (at least once).
      this.#fail(error);
    } finally {
      this.#settlingNow = false;
    }
    for (const { outgoing } of group) {
      this.#held.set(outgoing.endpoint_id, this.#held.get(outgoing.endpoint_id)! - 1);
      this.#heldInAll -= 1;
    }
    if (this.#group.length > 0) void this.#settleGroup();
    this.#wake?.();
  }

  #settled(): Promise<void> {
    return new Promise((resolve) => (this.#wake = resolve));
  }

  #fail(error: unknown): undefined {
    this.#failure ??= error;
    return undefined;
  }
}

async function settle(tx: Tx, worker: string, group: Settling[], now: UnixSeconds, report: DeliveryReport): Promise<void> {
  const settled = await settleDeliveries(
    tx,
    worker,
    group.map((item) => item.outcome),
    group.some((item) => item.outgoing.attempts > 1),
  );
  // A delivery whose claim lapsed and was taken over is the new owner's to settle: its attempt is dropped.
  const kept = group.filter((item) => settled.has(item.outcome.deliveryId));
  await postponeSuccessors(
    tx,
    kept
      .filter(({ outcome }) => outcome.status === 'pending')
      .map(({ outcome, outgoing }) => ({
        endpointId: outgoing.endpoint_id,
        resource: outgoing.resource,
        eventId: outgoing.event_id,
        nextAttemptAt: outcome.nextAttemptAt,
      })),
  );
  const endpoints = new Map<number, { healthy: boolean; gaveUp: boolean; operatorId: number }>();
  for (const { outcome, outgoing: d } of kept) {
    report[outcome.status === 'delivered' ? 'delivered' : outcome.status === 'failed' ? 'failed' : 'retrying'] += 1;
    if (d.is_test) continue; // a test says nothing about the endpoint's health
    const state = endpoints.get(d.endpoint_id) ?? { healthy: false, gaveUp: false, operatorId: d.operator_id };
    state.healthy ||= outcome.status === 'delivered';
    state.gaveUp ||= outcome.status === 'failed';
    endpoints.set(d.endpoint_id, state);
  }
  for (const [endpointId, state] of endpoints) {
    if (state.healthy) {
      await markEndpointHealthy(tx, endpointId, now);
      continue;
    }
    await markEndpointFailing(tx, endpointId, now);
    if (!state.gaveUp) continue;
    const disabled = await disableFailingEndpoint(tx, endpointId, addSeconds(now, -DISABLE_AFTER_SECONDS), now);
    if (!disabled) continue;
    report.disabled += 1;
    await tellOperator(tx, state.operatorId, disabled.url, now);
  }
}

async function tellOperator(tx: Tx, operatorId: number, url: string, now: UnixSeconds): Promise<void> {
  const operator = await readSettingsRow(tx, operatorId);
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
