// SQL of webhook deliveries: the queue the worker claims from and settles (webhook_deliveries, with the
// earlier attempts in webhook_attempts), the events they send (webhook_events), what the dispatcher
// consumes (webhook_outbox and webhook_timeslot_changes, written by events/outbox.ts in the changes'
// transactions) and makes (webhook_availability_notices, events and deliveries), and the operator's reading
// of deliveries. Queries that read beyond these tables say so where they do.
//
// Every change of a delivery's status is a conditional update, so that two workers (two server processes
// on one database) can never both own, or both settle, one delivery; and a delivery is only due once the
// earlier deliveries of its resource to its endpoint are done (in order per endpoint and resource).
//
// The queue's indexes hold live deliveries only (migration 018): the claim walks each enabled endpoint's
// due deliveries, oldest first, so a large history, or one endpoint's backlog, is never read to find
// another endpoint's work.
import { sql, type Insertable, type Kysely, type RawBuilder } from 'kysely';
import type { Db, Tx } from '../../db/connection.js';
import { dialectOf } from '../../db/connection.js';
import type { Database, WebhookDeliveryTable } from '../../db/schema.js';
import { asUnixMillis, asUnixSeconds, type UnixMillis, type UnixSeconds } from '../../lib/clock.js';

// ---- many rows as one statement's table ----------------------------------------------------------------
//
// Many rows' values as a table for one statement, passed as one JSON parameter (an array of rows, each an
// array of column values): a batch of deliveries is settled, and a batch of events inserted, in one
// statement instead of one per row. JSON because the driver's own encoding of arrays escapes every value in
// JavaScript, which for a thousand events' bodies cost more than the statement (bench/notes.md);
// JSON.stringify is native.

interface Column {
  name: string;
  /** Its PostgreSQL type, which the JSON value is cast to. */
  type: 'bigint' | 'integer' | 'text';
}

/**
 * `WITH <this>`: a table named `name` with the columns given, one row per item of `rows`. Materialised, so
 * that each database reads the JSON once, however it joins the table (as the inner side of an UPDATE's join
 * SQLite would otherwise parse the JSON again for every row of the outer side).
 */
function rowsTable(tx: Tx, name: string, columns: Column[], rows: unknown[][]): RawBuilder<unknown> {
  const names = sql.raw(columns.map((c) => c.name).join(', '));
  const json = JSON.stringify(rows);
  if (dialectOf(tx) === 'postgres') {
    const picks = columns.map((column, i) => sql.raw(`(value ->> ${i})::${column.type}`));
    return sql`${sql.raw(name)} (${names}) AS MATERIALIZED (SELECT ${sql.join(picks)} FROM json_array_elements(${json}::json))`;
  }
  const picks = columns.map((_column, i) => sql.raw(`value ->> ${i}`));
  return sql`${sql.raw(name)} (${names}) AS MATERIALIZED (SELECT ${sql.join(picks)} FROM json_each(${json}))`;
}

// ---- the queue: claiming and settling -----------------------------------------------------------------

/** What sending a claimed delivery takes: its endpoint, its secrets (sealed), its event and its resource. */
export interface Outgoing {
  id: number;
  endpoint_id: number;
  operator_id: number;
  resource: string;
  event_id: number;
  /** Attempts counted so far, this one included. */
  attempts: number;
  is_test: number;
  url: string;
  /** The endpoint's marketplace: its requests go under the marketplaces' address policy. */
  partner: string | null;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: UnixSeconds | null;
  public_id: string;
  type: string;
  created_at: UnixMillis;
  data: string;
}

/**
 * No earlier delivery of the same resource to the same endpoint is still to be made: `d` is the live one
 * with the lowest event. A scalar subquery rather than NOT EXISTS, so that PostgreSQL always looks it up
 * by endpoint and resource: with the statistics of a table that was nearly empty a moment ago, it planned
 * the NOT EXISTS as a scan of all the endpoint's live deliveries for each candidate (1.4 s a claim).
 */
const firstOfItsResource = (d: string): RawBuilder<unknown> =>
  sql`${sql.ref(`${d}.event_id`)} = (SELECT min(earlier.event_id) FROM webhook_deliveries earlier
    WHERE earlier.endpoint_id = ${sql.ref(`${d}.endpoint_id`)} AND earlier.resource = ${sql.ref(`${d}.resource`)}
      AND earlier.status IN ('pending', 'sending'))`;

/** A non-empty list of integers written into the statement. */
const intList = (values: number[]): RawBuilder<unknown> => sql.raw(`(${values.map((v) => Math.trunc(v)).join(', ')})`);

const OUTGOING_COLUMNS = sql.raw(`c.id, c.endpoint_id, c.operator_id, c.resource, c.event_id, c.attempts, c.is_test,
  e.url, e.partner, e.secret_sealed, e.previous_secret_sealed, e.previous_secret_expires_at, ev.public_id, ev.type, ev.created_at, ev.data`);
const OUTGOING_JOINS = sql.raw('JOIN webhook_endpoints e ON e.id = c.endpoint_id JOIN webhook_events ev ON ev.id = c.event_id');

export interface ClaimLimits {
  /** Deliveries claimed at most in all. */
  limit: number;
  /** Deliveries claimed at most per endpoint. */
  perEndpoint: number;
  /** Endpoints to leave alone this time (this worker holds enough of theirs). */
  skip: number[];
}

/**
 * Claims due deliveries of enabled endpoints for `worker` until `claimedUntil`, counting the attempt, and
 * returns what sending them takes. Per endpoint, oldest due first, and only those first of their resource.
 *
 * Every value is written into the SQL, so the statement has no parameters and PostgreSQL plans it for each
 * run (src/db/postgres.ts prepares only statements with parameters): a prepared one once kept a generic
 * plan made while the table was nearly empty, and after a burst of 10,000 bookings each run took 3.4 s
 * instead of 23 ms (bench/notes.md).
 *
 * PostgreSQL: one statement (pick with SKIP LOCKED, claim, read), so two workers pass each other by; a row
 * another worker claimed meanwhile fails the re-check of its status. SQLite: the claim and the read in one
 * write transaction, which no other worker can enter.
 *
 * It reads webhook_endpoints (endpoints/store.ts's table: which are enabled, their URL and secrets) in the
 * same statement, as loadOutgoing does: the claim stays one statement.
 */
export async function claimDue(db: Db, worker: string, now: UnixSeconds, claimedUntil: UnixSeconds, limits: ClaimLimits): Promise<Outgoing[]> {
  const due = sql`d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= ${sql.lit(now)} AND ${firstOfItsResource('d')}
    ORDER BY d.next_attempt_at, d.id LIMIT ${sql.lit(limits.perEndpoint)}`;
  const skip = limits.skip.length === 0 ? sql`` : sql`AND e.id NOT IN ${intList(limits.skip)}`;
  const endpoints = sql`e.status = 'enabled' ${skip} LIMIT ${sql.lit(limits.limit)}`;
  const claim = sql`status = 'sending', claimed_by = ${sql.lit(worker)}, claimed_until = ${sql.lit(claimedUntil)}, attempts = attempts + 1`;
  if (db.dialect === 'postgres') {
    const { rows } = await sql<Outgoing>`WITH picked AS (
        SELECT due.id FROM webhook_endpoints e
        CROSS JOIN LATERAL (SELECT d.id FROM webhook_deliveries d WHERE ${due} FOR UPDATE SKIP LOCKED) due
        WHERE ${endpoints}
      ), claimed AS (
        UPDATE webhook_deliveries SET ${claim} WHERE id IN (SELECT id FROM picked) AND status = 'pending'
        RETURNING id, endpoint_id, operator_id, resource, event_id, attempts, is_test
      )
      SELECT ${OUTGOING_COLUMNS} FROM claimed c ${OUTGOING_JOINS} ORDER BY c.id`.execute(db.kysely);
    return rows.map(numbers);
  }
  return db.write(async (tx) => {
    const { rows: claimed } = await sql<{ id: number }>`UPDATE webhook_deliveries SET ${claim} WHERE status = 'pending' AND id IN (
        SELECT picked.id FROM webhook_endpoints e
        JOIN webhook_deliveries picked ON picked.id IN (SELECT d.id FROM webhook_deliveries d WHERE ${due})
        WHERE ${endpoints})
      RETURNING id`.execute(tx);
    return loadOutgoing(
      tx,
      claimed.map((row) => Number(row.id)),
    );
  });
}

/** pg returns BIGINT columns as strings: the numbers of an Outgoing as numbers. */
const numbers = (row: Outgoing): Outgoing => ({
  ...row,
  id: Number(row.id),
  event_id: Number(row.event_id),
  created_at: asUnixMillis(Number(row.created_at)),
  previous_secret_expires_at: row.previous_secret_expires_at === null ? null : asUnixSeconds(Number(row.previous_secret_expires_at)),
});

/**
 * Claims of workers that died or hung (claimed_until passed) go back to pending, due now: the next claim
 * takes them, in their resource's order. Their attempt stays counted (it may have reached the endpoint).
 */
export async function releaseLapsedClaims(db: Kysely<Database>, now: UnixSeconds): Promise<number> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: now, claimed_by: null, claimed_until: null })
    .where('status', '=', sql.lit('sending'))
    .where('claimed_until', '<', sql.lit(now))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** What sending claimed deliveries takes, by ID (the test event, which is claimed when it is made). */
export async function loadOutgoing(db: Kysely<Database>, ids: number[]): Promise<Outgoing[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql<Outgoing>`SELECT ${OUTGOING_COLUMNS} FROM webhook_deliveries c ${OUTGOING_JOINS}
    WHERE c.id IN ${intList(ids)} ORDER BY c.id`.execute(db);
  return rows.map(numbers);
}

export interface Outcome {
  deliveryId: number;
  /** Unix milliseconds of the attempt. */
  attemptedAt: UnixMillis;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
  /** delivered, pending (retry at nextAttemptAt) or failed for good. */
  status: 'delivered' | 'pending' | 'failed';
  nextAttemptAt: UnixSeconds;
}

/**
 * Records each attempt on its delivery, for the deliveries this worker still owns; returns the IDs it
 * recorded. A delivery whose claim another worker took over is that worker's to settle. The attempt
 * before (a retry's) moves to webhook_attempts first: the row always shows the latest. `retries` says
 * whether any outcome is of a delivery attempted before (otherwise there is nothing to move).
 */
export async function settleDeliveries(tx: Tx, worker: string, outcomes: Outcome[], retries: boolean): Promise<Set<number>> {
  if (outcomes.length === 0) return new Set();
  const values = rowsTable(
    tx,
    'v',
    [
      { name: 'id', type: 'bigint' },
      { name: 'status', type: 'text' },
      { name: 'next_attempt_at', type: 'bigint' },
      { name: 'attempted_at', type: 'bigint' },
      { name: 'status_code', type: 'integer' },
      { name: 'duration_ms', type: 'integer' },
      { name: 'error', type: 'text' },
      { name: 'response_body', type: 'text' },
    ],
    outcomes.map((o) => [o.deliveryId, o.status, o.nextAttemptAt, o.attemptedAt, o.statusCode, o.durationMs, o.error, o.responseBody]),
  );
  const owned = sql`webhook_deliveries.id = v.id AND webhook_deliveries.status = 'sending' AND webhook_deliveries.claimed_by = ${worker}`;
  const update = sql`UPDATE webhook_deliveries SET
      status = v.status, next_attempt_at = v.next_attempt_at, claimed_until = NULL, last_attempt_at = v.attempted_at,
      last_status_code = v.status_code, last_duration_ms = v.duration_ms, last_error = v.error, last_response_body = v.response_body,
      delivered_at = CASE WHEN v.status = 'delivered' THEN v.attempted_at ELSE webhook_deliveries.delivered_at END
    FROM v WHERE ${owned} RETURNING webhook_deliveries.id`;
  const archive = (
    from: RawBuilder<unknown>,
  ) => sql`INSERT INTO webhook_attempts (delivery_id, attempted_at, status_code, duration_ms, error, response_body)
    SELECT old.id, old.last_attempt_at, old.last_status_code, coalesce(old.last_duration_ms, 0), old.last_error, old.last_response_body
    FROM ${from} WHERE old.last_attempt_at IS NOT NULL`;
  let rows: { id: number }[];
  if (!retries) {
    ({ rows } = await sql<{ id: number }>`WITH ${values} ${update}`.execute(tx));
  } else if (dialectOf(tx) === 'postgres') {
    // Every part of one statement reads the rows as they were before it: `old` is the attempt before.
    ({ rows } = await sql<{ id: number }>`WITH ${values}, settled AS (${update}),
      archived AS (${archive(sql`webhook_deliveries old JOIN settled ON settled.id = old.id`)})
      SELECT id FROM settled`.execute(tx));
  } else {
    await sql`WITH ${values} ${archive(sql`webhook_deliveries old JOIN v ON old.id = v.id AND old.status = 'sending' AND old.claimed_by = ${worker}`)}`.execute(
      tx,
    );
    ({ rows } = await sql<{ id: number }>`WITH ${values} ${update}`.execute(tx));
  }
  return new Set(rows.map((row) => Number(row.id)));
}

/**
 * Later deliveries of the resources whose delivery failed and waits for a retry cannot go before it: they
 * are made due no earlier than that retry, so that they do not sit among the due ones meanwhile (with a
 * failing endpoint, thousands would, and every claim would read past them).
 */
export async function postponeSuccessors(
  tx: Tx,
  retries: { endpointId: number; resource: string; eventId: number; nextAttemptAt: UnixSeconds }[],
): Promise<void> {
  if (retries.length === 0) return;
  const values = rowsTable(
    tx,
    'v',
    [
      { name: 'endpoint_id', type: 'integer' },
      { name: 'resource', type: 'text' },
      { name: 'event_id', type: 'bigint' },
      { name: 'next_attempt_at', type: 'bigint' },
    ],
    retries.map((r) => [r.endpointId, r.resource, r.eventId, r.nextAttemptAt]),
  );
  await sql`WITH ${values} UPDATE webhook_deliveries SET next_attempt_at = v.next_attempt_at FROM v
    WHERE webhook_deliveries.endpoint_id = v.endpoint_id AND webhook_deliveries.resource = v.resource
      AND webhook_deliveries.event_id > v.event_id AND webhook_deliveries.status = 'pending'
      AND webhook_deliveries.next_attempt_at < v.next_attempt_at`.execute(tx);
}

// ---- the dispatcher: outbox to events and deliveries -------------------------------------------------

const DISPATCH_LOCK = 74_231_011;

/** PostgreSQL: whether this transaction may dispatch (no other process is); SQLite's write lock already says so. */
export async function tryDispatchLock(tx: Tx): Promise<boolean> {
  if (dialectOf(tx) !== 'postgres') return true;
  const { rows } = await sql<{ locked: boolean }>`SELECT pg_try_advisory_xact_lock(${DISPATCH_LOCK}) AS locked`.execute(tx);
  return rows[0]?.locked === true;
}

/**
 * Timeslots with lapsed holds of operators that have an enabled endpoint. Reads bookings (the bookings
 * domain's table, which publishes no such read) and webhook_endpoints, in one statement.
 */
export async function timeslotsWithLapsedHolds(db: Kysely<Database>, now: UnixSeconds, limit: number): Promise<number[]> {
  // Literal 'on_hold', so that both databases use the partial index of holds (migration 011).
  const rows = await db
    .selectFrom('bookings')
    .select('bookings.timeslot_id')
    .distinct()
    .where('bookings.status', '=', sql.lit('on_hold'))
    .where('bookings.hold_expires_at', '<=', now)
    // Operators with an endpoint, or with a GetYourGuide connection that pushes (switched on, with GYG's
    // credentials for its API: getyourguide/connection.ts pushesOn), which is pushed the seats a lapsed hold frees.
    .where(({ exists, or, selectFrom }) =>
      or([
        exists(
          selectFrom('webhook_endpoints')
            .select('webhook_endpoints.id')
            .whereRef('webhook_endpoints.operator_id', '=', 'bookings.operator_id')
            .where('webhook_endpoints.status', '=', 'enabled'),
        ),
        exists(
          selectFrom('gyg_connections')
            .select('gyg_connections.operator_id')
            .whereRef('gyg_connections.operator_id', '=', 'bookings.operator_id')
            .where('gyg_connections.enabled', '=', 1)
            .where('gyg_connections.outbound_username', 'is not', null)
            .where('gyg_connections.outbound_password_sealed', 'is not', null),
        ),
      ]),
    )
    .limit(limit)
    .execute();
  return rows.map((row) => row.timeslot_id);
}

/** Timeslots whose seats changed (events/outbox.ts notes them), oldest note first, with their latest note. */
export async function changedTimeslots(tx: Tx, limit: number): Promise<{ timeslot_id: number; last_id: number }[]> {
  const rows = await tx
    .selectFrom('webhook_timeslot_changes')
    .select(['timeslot_id', (eb) => eb.fn.max('id').as('last_id')])
    .groupBy('timeslot_id')
    .orderBy((eb) => eb.fn.min('id'))
    .limit(limit)
    .execute();
  return rows.map((row) => ({ timeslot_id: row.timeslot_id, last_id: Number(row.last_id) }));
}

/** When each of these timeslots' availability was last notified (Unix milliseconds). */
export async function availabilityNotices(tx: Tx, timeslotIds: number[]): Promise<Map<number, number>> {
  const rows = await tx.selectFrom('webhook_availability_notices').selectAll().where('timeslot_id', 'in', timeslotIds).execute();
  return new Map(rows.map((row) => [row.timeslot_id, Number(row.notified_at)]));
}

/** Forgets a timeslot's notes up to its latest one read (notes made since stay for the next pass). */
export async function forgetTimeslotChanges(tx: Tx, timeslotId: number, lastId: number): Promise<void> {
  await tx.deleteFrom('webhook_timeslot_changes').where('timeslot_id', '=', timeslotId).where('id', '<=', lastId).execute();
}

/**
 * An outbox row of the dispatcher's own events (availability.changed), so that the fan-out treats them like
 * any other. webhook_outbox is events/outbox.ts's table; this row is written as of the dispatcher's `now`.
 */
export async function appendOutboxRow(tx: Tx, operatorId: number, entries: unknown[], createdAt: UnixMillis): Promise<void> {
  await tx
    .insertInto('webhook_outbox')
    .values({ operator_id: operatorId, events: JSON.stringify(entries), created_at: createdAt })
    .execute();
}

export async function recordAvailabilityNotices(tx: Tx, timeslotIds: number[], notifiedAt: UnixMillis): Promise<void> {
  await tx
    .insertInto('webhook_availability_notices')
    .values(timeslotIds.map((timeslot_id) => ({ timeslot_id, notified_at: notifiedAt })))
    .onConflict((oc) => oc.column('timeslot_id').doUpdateSet({ notified_at: notifiedAt }))
    .execute();
}

/** The oldest outbox rows (each the events of one transaction). */
export async function readOutbox(tx: Tx, limit: number) {
  return tx.selectFrom('webhook_outbox').selectAll().orderBy('id').limit(limit).execute();
}

export async function deleteOutboxRows(tx: Tx, ids: number[]): Promise<void> {
  await tx.deleteFrom('webhook_outbox').where('id', 'in', ids).execute();
}

export interface NewEventRow {
  publicId: string;
  operatorId: number;
  type: string;
  resource: string;
  data: string;
  createdAt: UnixMillis;
}

/** The events, in order, in one statement; their IDs in the same order. */
export async function insertEvents(tx: Tx, events: NewEventRow[]): Promise<number[]> {
  if (events.length === 0) return [];
  const values = rowsTable(
    tx,
    'v',
    [
      { name: 'public_id', type: 'text' },
      { name: 'operator_id', type: 'integer' },
      { name: 'type', type: 'text' },
      { name: 'resource', type: 'text' },
      { name: 'data', type: 'text' },
      { name: 'created_at', type: 'bigint' },
    ],
    events.map((event) => [event.publicId, event.operatorId, event.type, event.resource, event.data, event.createdAt]),
  );
  const { rows } = await sql<{ id: number; public_id: string }>`WITH ${values}
    INSERT INTO webhook_events (public_id, operator_id, type, resource, data, created_at)
    SELECT public_id, operator_id, type, resource, data, created_at FROM v
    RETURNING id, public_id`.execute(tx);
  const byPublicId = new Map(rows.map((row) => [row.public_id, Number(row.id)]));
  return events.map(({ publicId }) => byPublicId.get(publicId)!);
}

/** New deliveries, pending and due at once: [operator, endpoint, event, resource, due, created] each. */
export async function insertDeliveries(tx: Tx, rows: unknown[][]): Promise<void> {
  if (rows.length === 0) return;
  const values = rowsTable(
    tx,
    'v',
    [
      { name: 'operator_id', type: 'integer' },
      { name: 'endpoint_id', type: 'integer' },
      { name: 'event_id', type: 'bigint' },
      { name: 'resource', type: 'text' },
      { name: 'next_attempt_at', type: 'bigint' },
      { name: 'created_at', type: 'bigint' },
    ],
    rows,
  );
  // Due no earlier than a delivery of the same resource that waits for its retry (it must go first anyway):
  // behind a failing endpoint, new deliveries then wait out of the claim's way (see claimDue).
  await sql`WITH ${values} INSERT INTO webhook_deliveries (operator_id, endpoint_id, event_id, resource, status, next_attempt_at, created_at)
    SELECT v.operator_id, v.endpoint_id, v.event_id, v.resource, 'pending',
      coalesce((SELECT max(earlier.next_attempt_at) FROM webhook_deliveries earlier
        WHERE earlier.endpoint_id = v.endpoint_id AND earlier.resource = v.resource AND earlier.status IN ('pending', 'sending')
          AND earlier.next_attempt_at > v.next_attempt_at), v.next_attempt_at),
      v.created_at FROM v`.execute(tx);
}

/** One event written directly (the test event, which no outbox row carries); its ID. */
export async function insertEvent(tx: Tx, event: NewEventRow): Promise<number> {
  const inserted = await tx
    .insertInto('webhook_events')
    .values({
      public_id: event.publicId,
      operator_id: event.operatorId,
      type: event.type,
      resource: event.resource,
      data: event.data,
      created_at: event.createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(inserted.id);
}

/**
 * Bookings by ID as they are now, for rendering the events that kept no row of them. Reads bookings, the
 * bookings domain's table (it publishes no read by IDs); one statement per chunk of IDs.
 */
export async function bookingsById(db: Kysely<Database>, ids: number[]) {
  return db.selectFrom('bookings').selectAll().where('id', 'in', ids).execute();
}

// ---- the operator's reading -------------------------------------------------------------------------

/** What a delivery shows in a list; the start of the latest answer (up to 4 KiB) only its detail shows. */
function selectDeliveries(db: Kysely<Database>) {
  return db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
    .select([
      'webhook_deliveries.id',
      'webhook_deliveries.endpoint_id',
      'webhook_deliveries.status',
      'webhook_deliveries.attempts',
      'webhook_deliveries.next_attempt_at',
      'webhook_deliveries.last_attempt_at',
      'webhook_deliveries.last_status_code',
      'webhook_deliveries.last_duration_ms',
      'webhook_deliveries.last_error',
      'webhook_deliveries.replay_of',
      'webhook_deliveries.is_test',
      'webhook_deliveries.created_at',
      'webhook_deliveries.delivered_at',
    ])
    .select(['webhook_events.public_id as event_public_id', 'webhook_events.type as event_type']);
}
export type DeliveryRecord = Awaited<ReturnType<ReturnType<typeof selectDeliveries>['execute']>>[number];

export interface DeliveryFilter {
  status?: WebhookDeliveryTable['status'];
  eventType?: string;
  limit: number;
  offset: number;
}

/** The endpoint's deliveries, newest first. */
export async function listDeliveries(db: Kysely<Database>, endpointId: number, filter: DeliveryFilter): Promise<DeliveryRecord[]> {
  let query = selectDeliveries(db).where('webhook_deliveries.endpoint_id', '=', endpointId);
  if (filter.status !== undefined) query = query.where('webhook_deliveries.status', '=', filter.status);
  if (filter.eventType !== undefined) query = query.where('webhook_events.type', '=', filter.eventType);
  return query.orderBy('webhook_deliveries.id', 'desc').limit(filter.limit).offset(filter.offset).execute();
}

export async function findDelivery(db: Kysely<Database>, endpointId: number, id: number) {
  return selectDeliveries(db)
    .select(['webhook_deliveries.operator_id', 'webhook_deliveries.event_id', 'webhook_deliveries.resource', 'webhook_deliveries.last_response_body'])
    .select(['webhook_events.data as event_data', 'webhook_events.created_at as event_created_at'])
    .where('webhook_deliveries.id', '=', id)
    .where('webhook_deliveries.endpoint_id', '=', endpointId)
    .executeTakeFirst();
}

export async function listAttempts(db: Kysely<Database>, deliveryId: number) {
  return db.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('id').execute();
}

/** A new delivery of an event already delivered (or not) to the endpoint, due now. */
export async function insertDelivery(tx: Tx, row: Omit<Insertable<WebhookDeliveryTable>, 'id'>): Promise<number> {
  const inserted = await tx.insertInto('webhook_deliveries').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(inserted.id);
}

// ---- keeping the tables small ------------------------------------------------------------------------

/**
 * Forgets what is older than `cutoff` (Unix milliseconds): the settled deliveries of older events with
 * their attempts, then older events nothing refers to any more (a delivery still pending keeps its event),
 * and availability notices (their window is seconds long).
 */
export async function purgeOldDeliveries(db: Db, cutoff: UnixMillis): Promise<void> {
  await db.write(async (tx) => {
    const oldEvents = tx.selectFrom('webhook_events').select('webhook_events.id').where('webhook_events.created_at', '<', cutoff);
    const settled = tx
      .selectFrom('webhook_deliveries')
      .select('webhook_deliveries.id')
      .where('webhook_deliveries.status', 'in', ['delivered', 'failed'])
      .where('webhook_deliveries.event_id', 'in', oldEvents);
    await tx.deleteFrom('webhook_attempts').where('delivery_id', 'in', settled).execute();
    await tx.deleteFrom('webhook_deliveries').where('status', 'in', ['delivered', 'failed']).where('event_id', 'in', oldEvents).execute();
    await tx
      .deleteFrom('webhook_events')
      .where('created_at', '<', cutoff)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(selectFrom('webhook_deliveries').select('webhook_deliveries.id').whereRef('webhook_deliveries.event_id', '=', 'webhook_events.id')),
        ),
      )
      .execute();
    await tx.deleteFrom('webhook_availability_notices').where('notified_at', '<', cutoff).execute();
  });
}

/**
 * The deliveries' backlog, for the metrics: attempts due now (pending, or claimed by a sender) and the
 * oldest one's due time (Unix seconds). Indexes webhook_deliveries_due and _claimed.
 */
export async function deliveryQueueStats(db: Kysely<Database>, now: UnixSeconds): Promise<{ due: number; oldestDueAt: UnixSeconds | null }> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => [eb.fn.countAll<number>().as('due'), eb.fn.min('next_attempt_at').as('oldest')])
    .where((eb) => eb.or([eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<=', now)]), eb('status', '=', 'sending')]))
    .executeTakeFirstOrThrow();
  return { due: Number(row.due), oldestDueAt: row.oldest === null ? null : asUnixSeconds(Number(row.oldest)) };
}
