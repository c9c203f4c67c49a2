// The hook from the booking lifecycle into workflows. Booking code calls enqueueBookingEvent inside the
// transaction that confirms or cancels a booking (of any source), so an e-mail is queued exactly when the
// change commits. Reminders and follow-ups are queued at confirmation with their due time: they are rows,
// so they survive restarts, and the worker sends them when due.
import type { Tx } from '../db/connection.js';
import { queueEmail, withdrawQueuedEmails } from '../emails/outbox.js';
import { renderTemplate } from './templates.js';
import { bookingTemplateValues } from './values.js';
import { dropQueuedTimedEmails, enabledWorkflows, type WorkflowRow } from './store.js';

/** `rescheduled`: a confirmed booking moved to another timeslot (an OCTo amendment). */
export type BookingEvent = 'confirmed' | 'cancelled' | 'rescheduled';

const HOUR = 3600;

const EVENTS: Record<BookingEvent, WorkflowRow['event'][]> = {
  confirmed: ['booking-confirmed', 'reminder', 'follow-up'],
  cancelled: ['booking-cancelled'],
  rescheduled: ['reminder', 'follow-up'],
};

export async function enqueueBookingEvent(tx: Tx, booking: { id: number; operator_id: number }, event: BookingEvent, now: number): Promise<void> {
  // A cancelled booking gets no reminder or follow-up, whether or not a workflow still exists.
  if (event === 'cancelled') await withdrawQueuedEmails(tx, booking.id);
  // A moved booking's reminder and follow-up that still wait were written for the old time: they are
  // queued again below, for the new one (those already sent stay sent: a workflow e-mails a booking once).
  if (event === 'rescheduled') await dropQueuedTimedEmails(tx, booking.id);
  const events = EVENTS[event];
  // New bookings skip this call when the operator has no enabled workflow (bookings/store.ts reads that
  // with the booking's activity); other callers pay this one query.
  const workflows = await enabledWorkflows(tx, booking.operator_id, events);
  if (workflows.length === 0) return;
  const details = await bookingTemplateValues(tx, booking.operator_id, booking.id);
  if (!details) throw new Error(`booking ${booking.id} vanished inside its own transaction`);
  const values = details.values;
  for (const workflow of workflows) {
    if (details.source === 'partner' && workflow.partner_bookings !== 1) continue;
    const sendAt = dueTime(workflow, details.startsAt, details.endsAt, now);
    if (sendAt === undefined) continue;
    await queueEmail(tx, {
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
function dueTime(workflow: WorkflowRow, startsAt: number, endsAt: number, now: number): number | undefined {
  switch (workflow.event) {
    case 'reminder':
      return startsAt <= now ? undefined : Math.max(now, startsAt - workflow.offset_hours * HOUR);
    case 'follow-up':
      return Math.max(now, endsAt + workflow.offset_hours * HOUR);
    default:
      return now;
  }
}
