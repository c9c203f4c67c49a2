// What workflows react to: a booking's change (of any source), inside the transaction that confirms,
// cancels or moves it (hooks/platform-hooks.ts), so an e-mail is queued exactly when the change commits.
// Reminders and follow-ups are queued at confirmation with their due time: they are rows, so they survive
// restarts, and the worker sends them when due.
import type { Tx } from '../db/connection.js';
import type { BookingChange, BookingReaction, ChangedBooking } from '../hooks/platform-hooks.js';
import { dropQueuedEmails, queueEmail, requeueEmail, withdrawQueuedEmails } from '../emails/outbox.js';
import { renderTemplate } from './templates.js';
import { bookingTemplateValues } from './values.js';
import { enabledWorkflowExists, enabledWorkflows, workflowIdsOn, type WorkflowRow } from './store.js';
import { addSeconds, latest, type UnixSeconds } from '../lib/clock.js';

const HOUR = 3600;

const EVENTS: Record<BookingChange, WorkflowRow['event'][]> = {
  confirmed: ['booking-confirmed', 'reminder', 'follow-up'],
  cancelled: ['booking-cancelled'],
  rescheduled: ['booking-rescheduled', 'reminder', 'follow-up'],
};

/** The workflows' reaction to bookings: their e-mails, queued with the change. */
export const workflowEmails: BookingReaction = {
  react: queueWorkflowEmails,
  interested: enabledWorkflowExists,
};

async function queueWorkflowEmails(tx: Tx, booking: ChangedBooking, event: BookingChange, now: UnixSeconds): Promise<void> {
  // A cancelled booking gets no reminder or follow-up, whether or not a workflow still exists.
  if (event === 'cancelled') await withdrawQueuedEmails(tx, booking.id);
  // A moved booking's reminder and follow-up that still wait were written for the old time: they are
  // queued again below, for the new one (those already sent stay sent: a workflow e-mails a booking once).
  if (event === 'rescheduled') await dropQueuedEmails(tx, booking.id, await workflowIdsOn(tx, booking.operator_id, ['reminder', 'follow-up']));
  const events = EVENTS[event];
  // New bookings skip this call when the operator has no enabled workflow (`interested`, which the
  // booking's first query folds in); other changes pay this one query.
  const workflows = await enabledWorkflows(tx, booking.operator_id, events);
  if (workflows.length === 0) return;
  const details = await bookingTemplateValues(tx, booking.operator_id, booking.id);
  if (!details) throw new Error(`booking ${booking.id} vanished inside its own transaction`);
  for (const workflow of workflows) {
    // The channels the operator chose for this workflow (workflows.channels; docs/emails.md).
    if (!workflow.channels.split(',').includes(details.channel)) continue;
    const values = details.valuesFor(workflow.event);
    const sendAt = dueTime(workflow, details.startsAt, details.endsAt, now);
    if (sendAt === undefined) continue;
    // A workflow e-mails a booking once (the outbox's unique key), but a booking may move more than once:
    // its rescheduling e-mail is written anew for each move (requeueEmail), so the guest hears of the latest.
    await (workflow.event === 'booking-rescheduled' ? requeueEmail : queueEmail)(tx, {
      operatorId: booking.operator_id,
      kind: 'workflow',
      workflowId: workflow.id,
      bookingId: booking.id,
      to: details.customerEmail,
      subject: renderTemplate(workflow.subject_template, values),
      body: renderTemplate(workflow.body_template, values),
      sendAt,
      meter: 'workflow-email-sent',
      meterExtraInfo: null,
    });
  }
}

/**
 * When the workflow's e-mail is due. A reminder whose time has passed but whose activity has not started
 * (a late booking) goes at once; once the activity has started a reminder is pointless and is skipped.
 */
function dueTime(workflow: WorkflowRow, startsAt: UnixSeconds, endsAt: UnixSeconds, now: UnixSeconds): UnixSeconds | undefined {
  switch (workflow.event) {
    case 'reminder':
      return startsAt <= now ? undefined : latest(now, addSeconds(startsAt, -workflow.offset_hours * HOUR));
    case 'follow-up':
      return latest(now, addSeconds(endsAt, workflow.offset_hours * HOUR));
    default:
      return now;
  }
}
