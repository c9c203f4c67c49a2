// SQL of the e-mail outbox: queueing (called through outbox.ts) and the delivery side. Every change of an
// e-mail's status is a conditional update, so that two workers (two server processes on one database) can
// never both own, or both settle, one e-mail.
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Tx } from '../db/connection.js';
import type { Database, EmailTable } from '../db/schema.js';
import { asUnixSeconds, nowMillis, type UnixSeconds } from '../lib/clock.js';

export type EmailRow = Selectable<EmailTable>;

/** Inserts the e-mail unless its workflow already e-mailed its booking (the unique key); true when inserted. */
export async function insertQueuedEmail(tx: Tx, row: Omit<Insertable<EmailTable>, 'id'>): Promise<boolean> {
  const inserted = await tx
    .insertInto('emails')
    .values(row)
    .onConflict((oc) => oc.columns(['workflow_id', 'booking_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/**
 * Inserts the e-mail, or replaces its workflow's earlier e-mail to its booking (whatever its status) with
 * this one, queued afresh: its attempts, claim and sending record start over.
 */
export async function upsertQueuedEmail(tx: Tx, row: Omit<Insertable<EmailTable>, 'id'>): Promise<void> {
  await tx
    .insertInto('emails')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['workflow_id', 'booking_id']).doUpdateSet({
        to_address: row.to_address,
        subject: row.subject,
        body: row.body,
        status: 'queued',
        scheduled_for: row.scheduled_for,
        next_attempt_at: row.next_attempt_at,
        attempts: 0,
        claimed_by: null,
        claimed_until: null,
        last_error: null,
        transport: null,
        message_id: null,
        sent_at: null,
        created_at: row.created_at,
      }),
    )
    .execute();
}

/** The booking's e-mails still waiting become cancelled (one being sent is no longer `queued`). */
export async function cancelQueuedEmails(tx: Tx, bookingId: number): Promise<void> {
  await tx.updateTable('emails').set({ status: 'cancelled' }).where('booking_id', '=', bookingId).where('status', '=', 'queued').execute();
}

/** Deletes the booking's e-mails of these workflows that are still waiting. */
export async function deleteQueuedEmails(tx: Tx, bookingId: number, workflowIds: number[]): Promise<void> {
  if (workflowIds.length === 0) return;
  await tx.deleteFrom('emails').where('booking_id', '=', bookingId).where('status', '=', 'queued').where('workflow_id', 'in', workflowIds).execute();
}

/** IDs of e-mails that are due: queued and past their next attempt, or claimed by a worker that vanished. */
export async function findDueEmailIds(db: Kysely<Database>, now: UnixSeconds, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('emails')
    .select('id')
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'queued'), eb('next_attempt_at', '<=', now)]),
        eb.and([eb('status', '=', 'sending'), eb('claimed_until', '<', now)]),
      ]),
    )
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Claims one e-mail for `worker` until `claimedUntil`, counting the attempt. The WHERE repeats the due
 * condition: of two workers racing for the row, the second finds it no longer due and gets nothing.
 */
export async function claimEmail(tx: Tx, id: number, worker: string, now: UnixSeconds, claimedUntil: UnixSeconds) {
  return tx
    .updateTable('emails')
    .set((eb) => ({ status: 'sending', claimed_by: worker, claimed_until: claimedUntil, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'queued'), eb('next_attempt_at', '<=', now)]),
        eb.and([eb('status', '=', 'sending'), eb('claimed_until', '<', now)]),
      ]),
    )
    .returningAll()
    .executeTakeFirst();
}

/** Sent, if this worker still owns the claim; false when it lost it (then someone else settles the e-mail). */
export async function markSent(tx: Tx, id: number, worker: string, result: { transport: string; messageId: string }): Promise<boolean> {
  const updated = await tx
    .updateTable('emails')
    .set({ status: 'sent', sent_at: nowMillis(), transport: result.transport, message_id: result.messageId, claimed_until: null, last_error: null })
    .where('id', '=', id)
    .where('status', '=', 'sending')
    .where('claimed_by', '=', worker)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** Back to the queue for a later attempt, or failed for good; only by the worker that owns the claim. */
export async function markAttemptFailed(
  tx: Tx,
  id: number,
  worker: string,
  next: { status: 'queued' | 'failed'; nextAttemptAt: UnixSeconds; error: string },
): Promise<void> {
  await tx
    .updateTable('emails')
    .set({ status: next.status, next_attempt_at: next.nextAttemptAt, last_error: next.error, claimed_until: null })
    .where('id', '=', id)
    .where('status', '=', 'sending')
    .where('claimed_by', '=', worker)
    .execute();
}

/**
 * The sender's name: to guests the shop's name (shop settings), else and to staff the operator's. It reads
 * the operators table, which is not the outbox's: the settings' profile (settings/profile.ts) says the same,
 * but settings sit above e-mails (operators -> staff -> emails), so asking them would close a circle.
 */
export async function operatorName(db: Kysely<Database>, operatorId: number, toGuest = false): Promise<string> {
  const row = await db.selectFrom('operators').select(['name', 'shop_name']).where('id', '=', operatorId).executeTakeFirst();
  return (toGuest ? row?.shop_name : undefined) ?? row?.name ?? 'slotbook';
}

export interface EmailFilter {
  status?: EmailRow['status'];
  workflowId?: number;
  limit: number;
  offset: number;
}

/** The operator's e-mails, newest first. */
/** The operator's e-mails, newest first, each with the reference of the booking it is about (null for none). */
export async function listEmails(
  db: Kysely<Database>,
  operatorId: number,
  filter: EmailFilter,
): Promise<(EmailRow & { booking_reference: string | null })[]> {
  let query = db
    .selectFrom('emails')
    .leftJoin('bookings', (join) => join.onRef('bookings.id', '=', 'emails.booking_id').onRef('bookings.operator_id', '=', 'emails.operator_id'))
    .selectAll('emails')
    .select('bookings.reference as booking_reference')
    .where('emails.operator_id', '=', operatorId);
  if (filter.status !== undefined) query = query.where('emails.status', '=', filter.status);
  if (filter.workflowId !== undefined) query = query.where('emails.workflow_id', '=', filter.workflowId);
  return query.orderBy('emails.id', 'desc').limit(filter.limit).offset(filter.offset).execute();
}

/**
 * The outbox's backlog, for the metrics: e-mails due now and not yet sent (queued, or claimed by a sender),
 * the oldest one's due time (Unix seconds), and the e-mails given up on. Index emails_due.
 */
export async function emailQueueStats(
  db: Kysely<Database>,
  now: UnixSeconds,
): Promise<{ due: number; oldestDueAt: UnixSeconds | null; failed: number }> {
  const due = await db
    .selectFrom('emails')
    .select((eb) => [eb.fn.countAll<number>().as('due'), eb.fn.min('next_attempt_at').as('oldest')])
    .where('status', 'in', ['queued', 'sending'])
    .where('next_attempt_at', '<=', now)
    .executeTakeFirstOrThrow();
  const failed = await db
    .selectFrom('emails')
    .select((eb) => eb.fn.countAll<number>().as('failed'))
    .where('status', '=', 'failed')
    .executeTakeFirstOrThrow();
  return { due: Number(due.due), oldestDueAt: due.oldest === null ? null : asUnixSeconds(Number(due.oldest)), failed: Number(failed.failed) };
}
