// SQL of the outbox (outbox.ts says when it is written): the outbox rows, the notes of timeslots whose seats
// changed, and the question whether an operator has an enabled webhook endpoint at all. The endpoints are
// the webhooks' table, read here because this layer lies below the webhooks and every booking asks it
// (once per transaction, one indexed read), and the expired holds' events are a CTE of the seat ledger's
// statement: both stay single statements of their own.
import { sql, type CompiledQuery, type RawBuilder } from 'kysely';
import type { Tx } from '../db/connection.js';
import type { UnixMillis } from '../lib/clock.js';

/** Whether the operator has an enabled endpoint (with `usage`: one of the operator's own that named usage.recorded). */
export async function enabledEndpointExists(tx: Tx, operatorId: number, usage: boolean): Promise<boolean> {
  let query = tx.selectFrom('webhook_endpoints').select('id').where('operator_id', '=', operatorId).where('status', '=', 'enabled');
  if (usage) query = query.where('partner', 'is', null).where('event_types', 'like', '%usage.recorded%');
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

/**
 * One INSERT of an outbox row per operator, each holding its entries (JSON arrays) as one JSON array. Its
 * values go through `value` (atCommitValue: written in on PostgreSQL, parameters on SQLite).
 */
export function outboxInsert(
  tx: Tx,
  byOperator: Map<number, string[]>,
  value: <V extends number | string>(v: V) => unknown,
  createdAt: UnixMillis,
): CompiledQuery {
  const rows = [...byOperator].map(([operatorId, entries]) => sql`(${value(operatorId)}, ${value(`[${entries.join(',')}]`)}, ${value(createdAt)})`);
  return sql`INSERT INTO webhook_outbox (operator_id, events, created_at) VALUES ${sql.join(rows)}`.compile(tx);
}

/**
 * The booking.expired events of the holds a data-modifying CTE named `released` released, as another CTE
 * of the same statement (PostgreSQL: the seat statement run at commit, bookings/lifecycle/seat-ledger.ts), an outbox row
 * each. `released` must return id, operator_id, reference, source and partner. An expired booking never
 * changes again, so the dispatcher renders it from the current row (no snapshot).
 */
export function expiredEventsCte(): RawBuilder<unknown> {
  return sql`webhook_expired AS (
    INSERT INTO webhook_outbox (operator_id, events, created_at)
    SELECT r.operator_id,
           json_build_array(json_build_array('booking.expired', 'booking:' || r.reference, CASE WHEN r.source = 'partner' THEN 'partner' ELSE 'operator' END, r.partner, r.id, NULL, NULL))::text,
           ${sql.lit(Date.now())}
    FROM released r
    WHERE EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.operator_id = r.operator_id AND e.status = 'enabled'))`;
}

/**
 * Notes the timeslots (one statement, which finds their operator) unless their operator has neither an
 * enabled endpoint nor a marketplace connection that pushes (switched on, with the marketplace's own
 * credentials for its API: getyourguide/connection.ts pushesOn, viator's outbound key).
 */
export async function insertTimeslotChanges(tx: Tx, timeslotIds: number[], changedAt: UnixMillis): Promise<void> {
  await sql`INSERT INTO webhook_timeslot_changes (operator_id, timeslot_id, changed_at)
      SELECT t.operator_id, t.id, ${changedAt} FROM timeslots t
      WHERE t.id IN (${sql.join(timeslotIds)})
        AND (EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.operator_id = t.operator_id AND e.status = 'enabled')
          OR EXISTS (SELECT 1 FROM gyg_connections g WHERE g.operator_id = t.operator_id AND g.enabled = 1
            AND g.outbound_username IS NOT NULL AND g.outbound_password_sealed IS NOT NULL)
          OR EXISTS (SELECT 1 FROM viator_connections v
            WHERE v.operator_id = t.operator_id AND v.enabled = 1 AND v.outbound_key_sealed IS NOT NULL))`.execute(tx);
}
