import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AUTH_ERRORS, envelope, problems } from '../http/schemas.js';
import { Email, EmailListQuery } from './schemas.js';
import { listOutbox } from './service.js';
import { requires } from '../access/permissions.js';
import { hooksOf } from './kinds.js';
import type { UnixMillis, UnixSeconds } from '../lib/clock.js';

const iso = (ms: UnixMillis | null) => (ms === null ? null : new Date(Number(ms)).toISOString());
const isoSeconds = (s: UnixSeconds | null) => (s === null ? null : new Date(Number(s) * 1000).toISOString());

/** Operator API: the e-mail outbox (every e-mail slotbook sends on the operator's behalf). */
export const emailAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/emails', {
    config: requires('emails:read'),
    schema: {
      tags: ['Operator API: e-mails'],
      summary: 'The e-mail outbox',
      description:
        'E-mails of workflows and waitlist offers, newest first, in every status (or one Status, one WorkflowID). Without SMTP_URL they are delivered to this outbox only.',
      querystring: EmailListQuery,
      response: { 200: envelope(Type.Array(Email)), ...problems(...AUTH_ERRORS, 422) },
    },
    handler: async (request) => {
      const rows = await listOutbox(app.db.kysely, request.caller.operatorId, {
        status: request.query.Status,
        workflowId: request.query.WorkflowID,
        limit: request.query.Limit,
        offset: request.query.Offset,
      });
      return {
        data: rows.map(
          (row): Email => ({
            ID: row.id,
            Kind: row.kind,
            To: row.to_address,
            Subject: row.subject,
            Body: hooksOf(row.kind).hiddenBody ?? row.body,
            Status: row.status,
            Transport: row.transport === 'smtp' || row.transport === 'outbox' ? row.transport : null,
            ScheduledFor: isoSeconds(row.scheduled_for)!,
            NextAttemptAt: row.status === 'queued' ? isoSeconds(row.next_attempt_at) : null,
            Attempts: row.attempts,
            LastError: row.last_error,
            WorkflowID: row.workflow_id,
            WaitlistID: row.waitlist_entry_id,
            BookingReference: row.booking_reference,
            CreatedAt: iso(row.created_at)!,
            SentAt: iso(row.sent_at),
          }),
        ),
      };
    },
  });
};
