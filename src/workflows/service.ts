// The operator's automated e-mail workflows: which booking event sends which template. Sending is
// events.ts (queueing, in the booking's transaction) and the e-mail worker.
import type { Kysely } from 'kysely';
import type { Db } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { NotFound, ValidationFailed, type FieldError } from '../http/errors.js';
import { templateErrors } from './templates.js';
import { audit } from '../audit/log.js';
import { findWorkflow, insertWorkflow, listWorkflows, updateWorkflow, type WorkflowRow } from './store.js';
import {
  WORKFLOW_CHANNELS,
  type CreateWorkflowBody,
  type UpdateWorkflowBody,
  type Workflow,
  type WorkflowChannel,
  type WorkflowEvent,
} from './schemas.js';
import { nowMillis } from '../lib/clock.js';

const PARTNER_CHANNELS: WorkflowChannel[] = ['partner', 'octo'];

/** The channels as stored: a comma list in the catalogue's order (so equal sets read equal). */
export const storedChannels = (channels: readonly WorkflowChannel[]): string => WORKFLOW_CHANNELS.filter((c) => channels.includes(c)).join(',');
export const channelsOf = (row: Pick<WorkflowRow, 'channels'>): WorkflowChannel[] =>
  row.channels.split(',').filter((c): c is WorkflowChannel => (WORKFLOW_CHANNELS as readonly string[]).includes(c));

/**
 * The channels a create or change asks for: Channels as given; else PartnerBookings adds or removes the
 * marketplaces' two (partner, octo) to what was there; else what was there.
 */
function requestedChannels(current: readonly WorkflowChannel[], channels: WorkflowChannel[] | undefined, partnerBookings: boolean | undefined) {
  if (channels !== undefined) return channels;
  if (partnerBookings === undefined) return current;
  const own = current.filter((c) => !PARTNER_CHANNELS.includes(c));
  return partnerBookings ? [...own, ...PARTNER_CHANNELS] : own.length > 0 ? own : (['online', 'pos'] as WorkflowChannel[]);
}

export function toWorkflow(row: WorkflowRow): Workflow {
  return {
    ID: row.id,
    Name: row.name,
    Event: row.event,
    OffsetHours: row.offset_hours,
    Subject: row.subject_template,
    Body: row.body_template,
    PartnerBookings: channelsOf(row).some((c) => PARTNER_CHANNELS.includes(c)),
    Channels: channelsOf(row),
    Enabled: row.enabled === 1,
    CreatedAt: new Date(Number(row.created_at)).toISOString(),
    UpdatedAt: new Date(Number(row.updated_at)).toISOString(),
  };
}

const isScheduled = (event: WorkflowEvent) => event === 'reminder' || event === 'follow-up';

/** Every rule the schema cannot state, reported together. */
function check(settings: { Event: WorkflowEvent; OffsetHours: number; Subject: string; Body: string }): void {
  const errors: FieldError[] = [...templateErrors('Subject', settings.Subject), ...templateErrors('Body', settings.Body)];
  if (isScheduled(settings.Event) && settings.OffsetHours < 1) {
    errors.push({ field: 'OffsetHours', message: `OffsetHours (1 or more) is required for a ${settings.Event}` });
  }
  if (!isScheduled(settings.Event) && settings.OffsetHours !== 0) {
    errors.push({ field: 'OffsetHours', message: `OffsetHours applies only to reminder and follow-up; ${settings.Event} sends at once` });
  }
  if (errors.length > 0) throw new ValidationFailed(errors);
}

export async function createWorkflow(db: Db, operatorId: number, body: CreateWorkflowBody): Promise<Workflow> {
  const offsetHours = body.OffsetHours ?? 0;
  check({ Event: body.Event, OffsetHours: offsetHours, Subject: body.Subject, Body: body.Body });
  const now = nowMillis();
  // A marketplace confirms its own sales to its customers; a second confirmation is the operator's choice.
  const everyChannel = body.Event !== 'booking-confirmed';
  const channels = requestedChannels(everyChannel ? WORKFLOW_CHANNELS : ['online', 'pos'], body.Channels, body.PartnerBookings);
  const workflow = await db.write(async (tx) => {
    const row = await insertWorkflow(tx, {
      operator_id: operatorId,
      name: body.Name.trim(),
      event: body.Event,
      offset_hours: offsetHours,
      subject_template: body.Subject,
      body_template: body.Body,
      partner_bookings: channels.some((c) => PARTNER_CHANNELS.includes(c)) ? 1 : 0,
      channels: storedChannels(channels),
      enabled: (body.Enabled ?? true) ? 1 : 0,
      created_at: now,
      updated_at: now,
    });
    const created = toWorkflow(row);
    await audit(tx, { operatorId, action: 'workflow.create', resource: { type: 'workflow', id: created.ID }, after: created });
    return created;
  });
  return workflow;
}

export async function getWorkflows(db: Kysely<Database>, operatorId: number): Promise<Workflow[]> {
  return (await listWorkflows(db, operatorId)).map(toWorkflow);
}

export async function getWorkflow(db: Kysely<Database>, operatorId: number, id: number): Promise<Workflow> {
  const row = await findWorkflow(db, operatorId, id);
  if (!row) throw new NotFound(`No workflow ${id}`);
  return toWorkflow(row);
}

/** Changes apply to e-mails queued from now on; those already queued keep the text they were given. */
export async function changeWorkflow(db: Db, operatorId: number, id: number, body: UpdateWorkflowBody): Promise<Workflow> {
  const current = await getWorkflow(db.kysely, operatorId, id);
  const next = { ...current, ...body, Channels: requestedChannels(current.Channels, body.Channels, body.PartnerBookings) };
  if (body.Event !== undefined && body.OffsetHours === undefined && !isScheduled(body.Event)) next.OffsetHours = 0;
  check(next);
  const row = await db.write(async (tx) => {
    const updated = await updateWorkflow(tx, operatorId, id, {
      name: next.Name.trim(),
      event: next.Event,
      offset_hours: next.OffsetHours,
      subject_template: next.Subject,
      body_template: next.Body,
      partner_bookings: next.Channels.some((c) => PARTNER_CHANNELS.includes(c)) ? 1 : 0,
      channels: storedChannels(next.Channels),
      enabled: next.Enabled ? 1 : 0,
      updated_at: nowMillis(),
    });
    if (updated)
      await audit(tx, { operatorId, action: 'workflow.update', resource: { type: 'workflow', id }, before: current, after: toWorkflow(updated) });
    return updated;
  });
  if (!row) throw new NotFound(`No workflow ${id}`);
  return toWorkflow(row);
}
