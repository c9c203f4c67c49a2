// SQL of disputes (migration 027): one row per Stripe dispute and operator, and the bookings it flags.
import type { Kysely, Selectable } from 'kysely';
import type { Tx } from '../db/connection.js';
import type { Database, DisputeTable } from '../db/schema.js';
import { asUnixSeconds, nowMillis } from '../lib/clock.js';

export type DisputeRow = Selectable<DisputeTable>;

export interface DisputeState {
  amount: number;
  currency: string;
  reason: string;
  status: string;
  /** Stripe's evidence deadline (Unix seconds, as Stripe sends it). */
  evidenceDueBy: number | null;
  /** Stripe's time of the event that says so (Unix seconds, as Stripe sends it). */
  eventAt: number;
}

/** Stripe's times are Unix seconds: the columns they go to say so. */
const stripeTimes = (state: DisputeState) => ({
  evidence_due_by: state.evidenceDueBy === null ? null : asUnixSeconds(state.evidenceDueBy),
  last_event_at: asUnixSeconds(state.eventAt),
});

/** The operator's payment whose provider reference is `reference` (Stripe's pi_...). */
export async function findPaymentByReference(db: Kysely<Database>, operatorId: number, reference: string) {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('operator_id', '=', operatorId)
    .where('provider_reference', '=', reference)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Records a dispute seen for the first time, with its bookings; undefined when it exists already (another
 * event of it got there first: on PostgreSQL the unique index makes a concurrent one wait for it).
 */
export async function insertDispute(
  tx: Tx,
  dispute: DisputeState & { operatorId: number; paymentId: number; reference: string; dashboardUrl: string },
  bookingIds: number[],
): Promise<DisputeRow | undefined> {
  const now = nowMillis();
  const row = await tx
    .insertInto('disputes')
    .values({
      operator_id: dispute.operatorId,
      payment_id: dispute.paymentId,
      dispute_reference: dispute.reference,
      amount: dispute.amount,
      currency: dispute.currency,
      reason: dispute.reason,
      status: dispute.status,
      dashboard_url: dispute.dashboardUrl,
      ...stripeTimes(dispute),
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['operator_id', 'dispute_reference']).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (row && bookingIds.length > 0) {
    await tx
      .insertInto('dispute_bookings')
      .values(bookingIds.map((bookingId) => ({ dispute_id: row.id, booking_id: bookingId })))
      .execute();
  }
  return row;
}

/** Applies a later event's state; false when the stored state came from a newer event (Stripe does not keep order). */
export async function updateDispute(tx: Tx, operatorId: number, reference: string, state: DisputeState): Promise<boolean> {
  const result = await tx
    .updateTable('disputes')
    .set({
      amount: state.amount,
      currency: state.currency,
      reason: state.reason,
      status: state.status,
      ...stripeTimes(state),
      updated_at: nowMillis(),
    })
    .where('operator_id', '=', operatorId)
    .where('dispute_reference', '=', reference)
    .where('last_event_at', '<=', stripeTimes(state).last_event_at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The disputes that flag the booking, oldest first. */
export async function listBookingDisputes(db: Kysely<Database>, operatorId: number, bookingId: number): Promise<DisputeRow[]> {
  return db
    .selectFrom('dispute_bookings')
    .innerJoin('disputes', 'disputes.id', 'dispute_bookings.dispute_id')
    .selectAll('disputes')
    .where('disputes.operator_id', '=', operatorId)
    .where('dispute_bookings.booking_id', '=', bookingId)
    .orderBy('disputes.id')
    .execute();
}
