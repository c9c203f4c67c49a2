import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTH_ERRORS, envelope, problems } from '../http/schemas.js';
import { fieldErrors } from '../http/validation.js';
import { IdempotencyHeaders, sendIdempotently } from '../idempotency/http.js';
import { parseUsageEntry } from './entry.js';
import { DailyUsage, RecordUsageBody, StoredUsageEntry, SummaryQuery, UsageEntry, UsageEntryParams, UsageSummary } from './schemas.js';
import { dailyUsage, getUsageEntry, recordUsage, toUsageEntry, usageSummary } from './service.js';

type AjvErrors = Parameters<typeof fieldErrors>[0];

/** Meter usage API: record entries, read summaries. */
export const usageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Usage API'];

  app.post('/meters', {
    config: { scope: 'usage:write' },
    // The schema's findings go to the handler, which adds the fine rules' findings to them: one 422
    // names every failing field, not only those the schema can see.
    attachValidation: true,
    schema: {
      tags,
      summary: 'Record a usage entry',
      description: 'Adds an entry to a meter. The built-in meters (order-completed, waitlist-notified, workflow-email-sent) are recorded by the platform and reserved. Accepts Idempotency-Key.',
      headers: IdempotencyHeaders,
      body: RecordUsageBody,
      response: { 201: envelope(UsageEntry), ...problems(400, ...AUTH_ERRORS, 409, 413, 415, 422) },
    },
    handler: async (request, reply) => {
      const schemaErrors = request.validationError ? fieldErrors(request.validationError.validation as AjvErrors) : [];
      const entry = parseUsageEntry(request.body, schemaErrors, Math.floor(Date.now() / 1000));
      const operatorId = request.caller.operatorId;
      return sendIdempotently(app.db, request, reply, async (tx) => {
        const recorded = await recordUsage(tx, operatorId, entry);
        return { statusCode: 201, body: { data: toUsageEntry(recorded) }, location: `/api/v2/usage/entries/${recorded.id}` };
      });
    },
  });

  app.get('/meters', {
    config: { scope: 'usage:read' },
    schema: {
      tags,
      summary: 'Get a usage summary',
      description: 'Totals per meter over UTC days from..to, both inclusive, sorted by total usage (highest first), then by meter name. Sums are exact decimal sums.',
      querystring: SummaryQuery,
      response: { 200: envelope(UsageSummary), ...problems(...AUTH_ERRORS, 422) },
    },
    handler: async (request) => ({ data: await usageSummary(app.db.kysely, request.caller.operatorId, request.query.from, request.query.to) }),
  });

  app.get('/meters/daily', {
    config: { scope: 'usage:read' },
    schema: {
      tags,
      summary: 'Get usage per day and meter',
      description: 'The daily totals behind the summary, per UTC day and meter, for charts. Same query rules as the summary.',
      querystring: SummaryQuery,
      response: { 200: envelope(DailyUsage), ...problems(...AUTH_ERRORS, 422) },
    },
    handler: async (request) => ({ data: await dailyUsage(app.db.kysely, request.caller.operatorId, request.query.from, request.query.to) }),
  });

  app.get('/entries/:ID', {
    config: { scope: 'usage:read' },
    schema: {
      tags,
      summary: 'Get one usage entry',
      description: 'The entry that POST /api/v2/usage/meters created (its Location header).',
      params: UsageEntryParams,
      response: { 200: envelope(StoredUsageEntry), ...problems(400, ...AUTH_ERRORS, 404) },
    },
    handler: async (request) => ({ data: await getUsageEntry(app.db.kysely, request.caller.operatorId, request.params.ID) }),
  });
};
