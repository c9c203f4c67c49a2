// A short-lived, per-process cache of the partner API's read answers (products, dates, timeslots): the
// serialised body, and for routes with an ETag its ETag, per operator, route and query. Profiling put the
// database work, the mapping and the serialising of these reads far above the HTTP work (bench/notes.md);
// partners poll the same few answers many times a second.
//
// What it may and may not change. The one rule: a transaction that changes what a cached answer shows
// drops its operator's answers when it commits (dropPartnerReadsAtCommit, through db/transactions.ts
// signalAtCommit), in this process before the write returns, so a client that wrote sees its write on
// its next read, whatever it wrote through. What such a transaction changes is what the outbox is told
// of in it (events/outbox.ts): the seats or capacity of a timeslot (noteSeatsChanged, which the seat
// ledger and the timeslot store call) and a product (recordProductEvent: activities, their ticket types
// and photos). So every writer is covered without knowing of this cache: any channel's route (the
// partner API, the shop, the desk, OCTo, GetYourGuide, Viator's to come), a worker (waitlist offers,
// the sweep of lapsed holds), a command; and a write that changes none of it (usage, a refused request)
// keeps the cache.
// - A read that was running while the operator wrote does not keep what it read (the generation check).
// - The other processes on the database hear of each such write (db/signals.ts) and drop the operator's
//   answers as they hear it: within milliseconds on PostgreSQL, within 100 ms on SQLite. A signal lost
//   (the database away, a listener reconnecting) and a hold that lapses show up within ANSWER_TTL_MS.
//   That cannot oversell: a booking re-checks the seats in its own transaction (409), whatever a partner
//   was shown.
// - Only successful answers are kept; errors (404, 422) are computed every time.
// - One cache per database handle, so that two apps in one process (tests) never share answers.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { signalAtCommit, type Db, type Signal, type Tx } from '../db/connection.js';

export const ANSWER_TTL_MS = 1_000;
const PARTNER_READS = 'partner-reads';
/** What the OpenAPI description of a cached route tells partners. */
export const CACHED_ANSWER_NOTE =
  ' The answer may be up to one second old (a hold that lapsed; a write through another server process whose news was lost, otherwise seen within milliseconds); a booking always checks the seats itself and answers 409 when they are gone.';
// Bounded by count and by size: a products list can be tens of kilobytes.
const MAX_ANSWERS = 10_000;
const MAX_CHARACTERS = 16 * 1024 * 1024;
const JSON_TYPE = 'application/json; charset=utf-8';

interface Answer {
  body: string;
  etag: string | undefined;
  epoch: number;
  generation: number;
  expiresAt: number;
  /** From then on a request sends it and starts a background refresh (once). */
  refreshAt: number;
  refreshing: boolean;
}

interface AnswerCache {
  answers: LRUCache<string, Answer>;
  /** Bumped by every write of the operator. One number per operator that wrote (here or elsewhere). */
  generations: Map<number, number>;
  /** Bumped when anything may have changed (a signal listener that reconnected, SQLite's data_version). */
  epoch: number;
}

const caches = new WeakMap<Db, AnswerCache>();

function cacheOf(db: Db): AnswerCache {
  let cache = caches.get(db);
  if (!cache) {
    const created: AnswerCache = {
      answers: new LRUCache({ max: MAX_ANSWERS, maxSize: MAX_CHARACTERS, sizeCalculation: (answer) => answer.body.length + 1 }),
      generations: new Map(),
      epoch: 0,
    };
    db.signals.subscribe((signal: Signal | undefined) => {
      if (!signal) {
        created.epoch += 1;
        created.answers.clear();
      } else if (signal.topic === PARTNER_READS) {
        bump(created, signal.id);
      }
    });
    caches.set(db, (cache = created));
  }
  return cache;
}

function bump(cache: AnswerCache, operatorId: number): void {
  cache.generations.set(operatorId, (cache.generations.get(operatorId) ?? 0) + 1);
}

/**
 * Drops the operator's cached answers, here and in every other process, when `tx` commits. Called where
 * the outbox hears of a change a partner read shows (see above); once per transaction and operator.
 */
export function dropPartnerReadsAtCommit(tx: Tx, operatorId: number): void {
  signalAtCommit(tx, PARTNER_READS, operatorId);
}

const isCurrent = (cache: AnswerCache, answer: Answer, operatorId: number) =>
  answer.epoch === cache.epoch && answer.generation === (cache.generations.get(operatorId) ?? 0);

/** The same strong ETag @fastify/etag computes by default, so a cached answer revalidates like a fresh one. */
const strongEtag = (body: string) => `"${createHash('sha1').update(body).digest('base64')}"`;

/**
 * Sends the caller's answer for this route and `query` (the parameters the answer depends on) from the
 * cache, or computes it with `compute`, serialises it with the route's response schema and keeps it.
 * An answer in the second half of its life is sent and recomputed in the background, so that a partner
 * polling an answer never waits for its expiry; an expired one is never sent.
 */
export async function sendCachedAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  query: unknown[],
  compute: () => Promise<{ data: unknown }>,
  options: { etag?: boolean } = {},
): Promise<void> {
  const cache = cacheOf(request.server.db);
  const operatorId = request.caller.operatorId;
  const key = `${operatorId} ${request.routeOptions.url} ${JSON.stringify(query)}`;
  const load = () => loadAnswer(cache, key, operatorId, async () => reply.serializeInput(await compute(), '200') as string, options.etag);
  const now = Date.now();
  let answer = cache.answers.get(key);
  if (!answer || !isCurrent(cache, answer, operatorId) || answer.expiresAt <= now) {
    answer = await load();
  } else if (answer.refreshAt <= now && !answer.refreshing) {
    answer.refreshing = true;
    // A failed refresh drops the answer: the next request computes it and answers the error itself.
    const stale = answer;
    load().catch(() => cache.answers.get(key) === stale && cache.answers.delete(key));
  }
  if (answer.etag) reply.header('etag', answer.etag);
  // A string with a JSON content type is sent as it is: no second serialisation. Awaiting the reply
  // (until it is sent) is what returning it from an async handler does.
  await reply.type(JSON_TYPE).send(answer.body);
}

/** Computes an answer and keeps it, unless the operator wrote while it was being read. */
async function loadAnswer(cache: AnswerCache, key: string, operatorId: number, serialised: () => Promise<string>, etag = false): Promise<Answer> {
  const epoch = cache.epoch;
  const generation = cache.generations.get(operatorId) ?? 0;
  const readAt = Date.now();
  const body = await serialised();
  const answer: Answer = {
    body,
    etag: etag ? strongEtag(body) : undefined,
    epoch,
    generation,
    expiresAt: readAt + ANSWER_TTL_MS,
    // At a random point of the second half: answers loaded together (a cold start, an operator's write)
    // would otherwise all be refreshed in the same few milliseconds, every second, stalling the requests
    // around them (SQLite reads run on the event loop).
    refreshAt: readAt + ANSWER_TTL_MS * (0.5 + Math.random() / 2),
    refreshing: false,
  };
  if (isCurrent(cache, answer, operatorId)) cache.answers.set(key, answer);
  return answer;
}
