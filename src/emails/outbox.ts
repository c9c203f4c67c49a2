// Putting e-mails into the outbox. The outbox table is the source of truth of every e-mail slotbook sends:
// a platform event queues its e-mail here, in the event's own transaction, and the worker (worker.ts)
// delivers it later. Other domains queue and withdraw e-mails here, never through the store. So an e-mail exists exactly when its event committed, and survives restarts.
import type { Tx } from '../db/connection.js';
import type { BuiltInMeter } from '../usage/meters.js';
import type { EmailKind } from '../db/schema.js';
import { cancelQueuedEmails, deleteQueuedEmails, insertQueuedEmail, upsertQueuedEmail } from './store.js';
import { nowMillis, type UnixSeconds } from '../lib/clock.js';

export interface NewEmail {
  operatorId: number;
  kind: EmailKind;
  workflowId?: number;
  bookingId?: number;
  waitlistEntryId?: number;
  to: string;
  subject: string;
  body: string;
  /** Unix seconds: not sent before. */
  sendAt: UnixSeconds;
  /** The built-in meter the send records (once, in the transaction that marks the e-mail sent), if any. */
  meter: BuiltInMeter | null;
  meterExtraInfo: string | null;
}

/**
 * Queues the e-mail; false when this workflow already e-mailed this booking (the unique key on
 * (workflow, booking) makes a repeated event a no-op instead of a second e-mail).
 */
export async function queueEmail(tx: Tx, email: NewEmail): Promise<boolean> {
  // A walk-in booked at the desk may have given no address: there is nobody to write to.
  if (email.to.trim() === '') return false;
  return insertQueuedEmail(tx, {
    operator_id: email.operatorId,
    kind: email.kind,
    workflow_id: email.workflowId ?? null,
    booking_id: email.bookingId ?? null,
    waitlist_entry_id: email.waitlistEntryId ?? null,
    to_address: email.to,
    subject: email.subject,
    body: email.body,
    status: 'queued',
    scheduled_for: email.sendAt,
    next_attempt_at: email.sendAt,
    meter: email.meter,
    meter_extra_info: email.meterExtraInfo,
    created_at: nowMillis(),
  });
}

/**
 * Queues the e-mail of a workflow for a booking, replacing the one it queued or sent before (the outbox
 * keeps one row per workflow and booking): for e-mails that may be due again, a booking's rescheduling.
 */
export async function requeueEmail(tx: Tx, email: NewEmail): Promise<void> {
  if (email.to.trim() === '') return;
  await upsertQueuedEmail(tx, {
    operator_id: email.operatorId,
    kind: email.kind,
    workflow_id: email.workflowId ?? null,
    booking_id: email.bookingId ?? null,
    waitlist_entry_id: email.waitlistEntryId ?? null,
    to_address: email.to,
    subject: email.subject,
    body: email.body,
    status: 'queued',
    scheduled_for: email.sendAt,
    next_attempt_at: email.sendAt,
    meter: email.meter,
    meter_extra_info: email.meterExtraInfo,
    created_at: nowMillis(),
  });
}

/**
 * A cancelled booking gets no reminder or follow-up: its e-mails that are still waiting are withdrawn.
 * One that a worker is sending right now goes out (it was due); nothing is metered for withdrawn ones.
 */
export async function withdrawQueuedEmails(tx: Tx, bookingId: number): Promise<void> {
  await cancelQueuedEmails(tx, bookingId);
}

/**
 * Deletes the booking's e-mails of these workflows that have not gone out yet, so that they can be
 * queued anew (a moved booking's reminder and follow-up); those already sent stay.
 */
export async function dropQueuedEmails(tx: Tx, bookingId: number, workflowIds: number[]): Promise<void> {
  await deleteQueuedEmails(tx, bookingId, workflowIds);
}
