// SQL of the delivery worker. Every change of a delivery's status is a conditional update, so that two
// workers (two server processes on one database) can never both own, or both settle, one delivery; and a
// delivery is only due once the earlier deliveries of its resource to its endpoint are done (in order per
// endpoint and resource).
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Db, Tx } from '../db/connection.js';
import { rowsTable } from './rows-table.js';
import type { Database } from '../db/schema.js';

type Scope = ExpressionBuilder<Database, 'webhook_deliveries'>;

/** Pending and due, or claimed by a worker whose claim lapsed (it died, or hung). */
const due = (now: number) => (eb: Scope) =>
  eb.or([
    eb.and([eb('webhook_deliveries.status', '=', 'pending'), eb('webhook_deliveries.next_attempt_at', '<=', now)]),
    eb.and([eb('webhook_deliveries.status', '=', 'sending'), eb('webhook_deliveries.claimed_until', '<', now)]),
  ]);

/** No earlier delivery of the same resource to the same endpoint is still to be made. */
const nextOfItsResource = (eb: Scope) =>
  eb.not(
    eb.exists(
      eb
        .selectFrom('webhook_deliveries as earlier')
        .select('earlier.id')
        .whereRef('earlier.endpoint_id', '=', 'webhook_deliveries.endpoint_id')
        .whereRef('earlier.resource', '=', 'webhook_deliveries.resource')
        .whereRef('earlier.event_id', '<', 'webhook_deliveries.event_id')
        .where('earlier.status', 'in', [sql.lit<'pending'>('pending'), sql.lit<'sending'>('sending')]),
    ),
  );

/**
 * Due deliveries of enabled endpoints, oldest due first: pending ones through the index in its own order
 * (so a backlog of thousands costs a batch, not a sort of the backlog), then lapsed claims (rare).
 *
 * Every value is written into the SQL, so the statement has no parameters and PostgreSQL plans it for each
 * run (src/db/postgres.ts prepares only statements with parameters). A prepared one kept a generic plan
 * made while the table was nearly empty, and after a burst of 10,000 bookings each run took 3.4 s instead
 * of 23 ms: the backlog all but stopped draining (bench/notes.md, stop 17).
 */
export async function findDueDeliveries(db: Kysely<Database>, now: number, limit: number): Promise<{ id: number; endpoint_id: number }[]> {
  const select = () =>
    db
      .selectFrom('webhook_deliveries')
      .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
      .select(['webhook_deliveries.id', 'webhook_deliveries.endpoint_id'])
      .where('webhook_endpoints.status', '=', sql.lit('enabled'))
      .where(nextOfItsResource);
  const pending = await select()
    .where('webhook_deliveries.status', '=', sql.lit('pending'))
    .where('webhook_deliveries.next_attempt_at', '<=', sql.lit(now))
    .orderBy('webhook_deliveries.next_attempt_at')
    .orderBy('webhook_deliveries.id')
    .limit(sql.lit(limit))
    .execute();
  if (pending.length === limit) return pending;
  const lapsed = await select()
    .where('webhook_deliveries.status', '=', sql.lit('sending'))
    .where('webhook_deliveries.claimed_until', '<', sql.lit(now))
    .orderBy('webhook_deliveries.id')
    .limit(sql.lit(limit - pending.length))
    .execute();
  return [...pending, ...lapsed];
}

/**
 * Claims the deliveries for `worker` until `claimedUntil`, counting the attempt, and returns those it got.
 * The WHERE repeats the due condition: of two workers racing for a row, the second gets nothing.
 */
export async function claimDeliveries(tx: Tx, ids: number[], worker: string, now: number, claimedUntil: number): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .updateTable('webhook_deliveries')
    .set((eb) => ({ status: 'sending', claimed_by: worker, claimed_until: claimedUntil, attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', ids)
    .where(due(now))
    .where(nextOfItsResource)
    .returning('id')
    .execute();
  return rows.map((row) => Number(row.id));
}

/** What sending a claimed delivery takes: its endpoint, its secrets (sealed) and its event. */
export async function loadOutgoing(db: Kysely<Database>, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
    .innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
    .select([
      'webhook_deliveries.id',
      'webhook_deliveries.endpoint_id',
      'webhook_deliveries.operator_id',
      'webhook_deliveries.attempts',
      'webhook_deliveries.is_test',
      'webhook_endpoints.url',
      'webhook_endpoints.secret_sealed',
      'webhook_endpoints.previous_secret_sealed',
      'webhook_endpoints.previous_secret_expires_at',
      'webhook_events.public_id',
      'webhook_events.type',
      'webhook_events.created_at',
      'webhook_events.data',
    ])
    .where('webhook_deliveries.id', 'in', ids)
    .orderBy('webhook_deliveries.id')
    .execute();
}
export type Outgoing = Awaited<ReturnType<typeof loadOutgoing>>[number];

export interface Outcome {
  deliveryId: number;
  /** Unix milliseconds of the attempt. */
  attemptedAt: number;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
  /** delivered, pending (retry at nextAttemptAt) or failed for good. */
  status: 'delivered' | 'pending' | 'failed';
  nextAttemptAt: number;
}

/**
 * Records each attempt on its delivery, for the deliveries this worker still owns (one statement); returns
 * the IDs it recorded. A delivery whose claim another worker took over is that worker's to settle.
 */
export async function settleDeliveries(tx: Tx, worker: string, outcomes: Outcome[]): Promise<Set<number>> {
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
    ],
    outcomes.map((o) => [o.deliveryId, o.status, o.nextAttemptAt, o.attemptedAt, o.statusCode, o.durationMs, o.error]),
  );
  const { rows } = await sql<{ id: number }>`WITH ${values} UPDATE webhook_deliveries SET
      status = v.status, next_attempt_at = v.next_attempt_at, claimed_until = NULL, last_attempt_at = v.attempted_at,
      last_status_code = v.status_code, last_duration_ms = v.duration_ms, last_error = v.error,
      delivered_at = CASE WHEN v.status = 'delivered' THEN v.attempted_at ELSE webhook_deliveries.delivered_at END
    FROM v
    WHERE webhook_deliveries.id = v.id AND webhook_deliveries.status = 'sending' AND webhook_deliveries.claimed_by = ${worker}
    RETURNING webhook_deliveries.id`.execute(tx);
  return new Set(rows.map((row) => Number(row.id)));
}

export async function insertAttempts(tx: Tx, outcomes: Outcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const values = rowsTable(
    tx,
    'v',
    [
      { name: 'delivery_id', type: 'bigint' },
      { name: 'attempted_at', type: 'bigint' },
      { name: 'status_code', type: 'integer' },
      { name: 'duration_ms', type: 'integer' },
      { name: 'error', type: 'text' },
      { name: 'response_body', type: 'text' },
    ],
    outcomes.map((o) => [o.deliveryId, o.attemptedAt, o.statusCode, o.durationMs, o.error, o.responseBody]),
  );
  await sql`WITH ${values} INSERT INTO webhook_attempts (delivery_id, attempted_at, status_code, duration_ms, error, response_body)
    SELECT delivery_id, attempted_at, status_code, duration_ms, error, response_body FROM v`.execute(tx);
}

/** An endpoint accepted a delivery: it is not failing. */
export async function markEndpointHealthy(tx: Tx, endpointId: number, now: number): Promise<void> {
  await tx.updateTable('webhook_endpoints').set({ failing_since: null, last_success_at: now }).where('id', '=', endpointId).execute();
}

/** An endpoint refused or missed a delivery: failing since its first failure after the last success. */
export async function markEndpointFailing(tx: Tx, endpointId: number, now: number): Promise<void> {
  await tx
    .updateTable('webhook_endpoints')
    .set({ failing_since: sql`coalesce(failing_since, ${now})` })
    .where('id', '=', endpointId)
    .execute();
}

/** Disables an enabled endpoint that has accepted nothing since `failingBefore` or earlier; the row when it did. */
export async function disableFailingEndpoint(tx: Tx, endpointId: number, failingBefore: number, now: number) {
  return tx
    .updateTable('webhook_endpoints')
    .set({ status: 'disabled', disabled_reason: 'failing', disabled_at: now, updated_at: Date.now() })
    .where('id', '=', endpointId)
    .where('status', '=', 'enabled')
    .where('failing_since', '<=', failingBefore)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Forgets what is older than `cutoff` (Unix milliseconds): the settled deliveries of older events with
 * their attempts, then older events nothing refers to any more (a delivery still pending keeps its event),
 * and availability notices (their window is seconds long).
 */
export async function purgeOldDeliveries(db: Db, cutoff: number): Promise<void> {
  await db.write(async (tx) => {
    const oldEvents = tx.selectFrom('webhook_events').select('webhook_events.id').where('webhook_events.created_at', '<', cutoff);
    const settled = tx.selectFrom('webhook_deliveries').select('webhook_deliveries.id').where('webhook_deliveries.status', 'in', ['delivered', 'failed']).where('webhook_deliveries.event_id', 'in', oldEvents);
    await tx.deleteFrom('webhook_attempts').where('delivery_id', 'in', settled).execute();
    await tx.deleteFrom('webhook_deliveries').where('status', 'in', ['delivered', 'failed']).where('event_id', 'in', oldEvents).execute();
    await tx
      .deleteFrom('webhook_events')
      .where('created_at', '<', cutoff)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('webhook_deliveries').select('webhook_deliveries.id').whereRef('webhook_deliveries.event_id', '=', 'webhook_events.id'))))
      .execute();
    await tx.deleteFrom('webhook_availability_notices').where('notified_at', '<', cutoff).execute();
  });
}
