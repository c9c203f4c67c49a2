// The workflows every new operator starts with (docs/emails.md): an active "Booking
// confirmation" for the guests of every channel, and a "Cancellation" and a "24-hour reminder", paused
// until the operator turns them on. They are ordinary workflows, edited and paused like any other. Their
// text is placeholders said in the guest's language ({{Greeting}}, {{Intro}}, ...), so a German guest reads
// German without the operator writing a word; the e-mail's layout adds the booking's details around it.
// Added when the operator is created (a reaction to it, wired in src/reactions.ts); existing operators are
// left as they are (migration 033 adds none).
import type { Tx } from '../db/connection.js';
import { audit } from '../audit/log.js';
import { insertWorkflow } from './store.js';
import { toWorkflow, storedChannels } from './service.js';
import { WORKFLOW_CHANNELS, type WorkflowEvent } from './schemas.js';
import { nowMillis } from '../lib/clock.js';

interface Starter {
  name: string;
  event: WorkflowEvent;
  offsetHours: number;
  enabled: boolean;
}

export const STARTER_WORKFLOWS: readonly Starter[] = [
  { name: 'Booking confirmation', event: 'booking-confirmed', offsetHours: 0, enabled: true },
  { name: 'Cancellation', event: 'booking-cancelled', offsetHours: 0, enabled: false },
  { name: '24-hour reminder', event: 'reminder', offsetHours: 24, enabled: false },
];

export const STARTER_SUBJECT = '{{Headline}}: {{ActivityName}} ({{BookingReference}})';
export const STARTER_BODY = '{{Greeting}}\n\n{{Intro}}\n\n{{OperatorName}}';

export async function insertStarterWorkflows(tx: Tx, operatorId: number): Promise<void> {
  const now = nowMillis();
  for (const starter of STARTER_WORKFLOWS) {
    const row = await insertWorkflow(tx, {
      operator_id: operatorId,
      name: starter.name,
      event: starter.event,
      offset_hours: starter.offsetHours,
      subject_template: STARTER_SUBJECT,
      body_template: STARTER_BODY,
      partner_bookings: 1,
      channels: storedChannels(WORKFLOW_CHANNELS),
      enabled: starter.enabled ? 1 : 0,
      created_at: now,
      updated_at: now,
    });
    await audit(tx, { operatorId, action: 'workflow.create', resource: { type: 'workflow', id: row.id }, after: toWorkflow(row) });
  }
}
