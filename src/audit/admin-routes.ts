import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AUTH_ERRORS, envelope, problems } from '../http/schemas.js';
import { requires } from '../access/permissions.js';
import { AuditEntry, AuditExportQuery, AuditQuery, AuditVocabulary } from './schemas.js';
import { auditCsv, listAudit } from './service.js';
import { auditVocabulary } from './store.js';

/** Operator API: the audit log, read-only. */
export const auditAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Operator API: audit log'];

  app.get('/audit', {
    config: requires('audit:read'),
    schema: {
      tags,
      summary: 'The audit log',
      description:
        'Every change made by a user or an API key, newest first: who, what, when, from which address, and the resource before and after (secrets redacted). ' +
        'Filter by Actor, Action, ResourceType/ResourceID and period; page with Before (the last ID of the previous page).',
      querystring: AuditQuery,
      response: { 200: envelope(Type.Array(AuditEntry)), ...problems(...AUTH_ERRORS, 422) },
    },
    handler: async (request) => ({ data: await listAudit(app.db.kysely, request.caller.operatorId, request.query) }),
  });

  app.get('/audit/vocabulary', {
    config: requires('audit:read'),
    schema: {
      tags,
      summary: 'The actions and resource types in the audit log',
      response: { 200: envelope(AuditVocabulary), ...problems(...AUTH_ERRORS) },
    },
    handler: async (request) => {
      const { actions, resourceTypes, actors } = await auditVocabulary(app.db.kysely, request.caller.operatorId);
      return {
        data: {
          Actions: actions,
          ResourceTypes: resourceTypes,
          Actors: actors.map((a) => ({ Actor: `${a.actor_type}:${a.actor_id}`, Label: a.label ?? '' })),
        },
      };
    },
  });

  app.get('/audit/export', {
    config: requires('audit:read'),
    schema: {
      tags,
      summary: 'The audit log as CSV',
      description:
        'The same filters as the list, every matching entry (no paging), as text/csv. Cells that a spreadsheet would run as a formula start with an apostrophe.',
      querystring: AuditExportQuery,
      produces: ['text/csv'],
      response: { 200: Type.String({ description: 'CSV, one entry per line' }), ...problems(...AUTH_ERRORS, 422) },
    },
    handler: async (request, reply) => {
      const lines = auditCsv(app.db.kysely, request.caller.operatorId, request.query);
      // The first line is read now, so that a bad filter is a 422 and not a broken download.
      const first = await lines.next();
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="audit-log-${day}.csv"`)
        .send(
          Readable.from(
            (async function* () {
              if (!first.done) yield first.value;
              yield* lines;
            })(),
          ) as unknown as string, // a stream is sent as it is, never serialised
        );
    },
  });
};
