import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTH_ERRORS, envelope, problems } from '../http/schemas.js';
import { fieldErrors } from '../http/validation.js';
import { IdempotencyHeaders, sendIdempotently } from '../idempotency/http.js';
import { parseUsageEntry } from './entry.js';
import { MAX_BATCH_ENTRIES, parseUsageBatch } from './batch.js';
import {
  DailyUsage,
  RecordedUsageBatch,
  RecordUsageBatchBody,
  RecordUsageBody,
  StoredUsageEntry,
  SummaryQuery,
  UsageEntry,
  UsageEntryParams,
  UsageSummary,
} from './schemas.js';
import { dailyUsage, getUsageEntry, recordUsage, recordUsageEntries, toUsageEntry, usageSummary, type RecordedUsage } from './service.js';
import { recordUsageGrouped } from './group-commit.js';
import { unixNow } from '../lib/clock.js';

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
      description:
        'Adds an entry to a meter. The built-in meters (order-completed, waitlist-notified, workflow-email-sent) are recorded by the platform and reserved. Accepts Idempotency-Key.',
      headers: IdempotencyHeaders,
      body: RecordUsageBody,
      response: { 201: envelope(UsageEntry), ...problems(400, ...AUTH_ERRORS, 409, 413, 415, 422) },
    },
    handler: async (request, reply) => {
      const schemaErrors = request.validationError ? fieldErrors(request.validationError.validation as AjvErrors) : [];
      const entry = parseUsageEntry(request.body, schemaErrors, unixNow());
      const operatorId = request.caller.operatorId;
      const created = (recorded: RecordedUsage) => ({
        statusCode: 201,
        body: { data: toUsageEntry(recorded) },
        location: `/api/v2/usage/entries/${recorded.id}`,
      });
      // Without a key, concurrent entries share a transaction (group-commit.ts); with one, the key's
      // record must commit with this entry alone.
      if (request.headers['idempotency-key'] === undefined) {
        const [recorded] = await recordUsageGrouped(app.db, operatorId, [entry]);
        const result = created(recorded!);
        return reply.code(201).header('Location', result.location).send(result.body);
      }
      return sendIdempotently(app.db, request, reply, async (tx) => created(await recordUsage(tx, operatorId, entry)));
    },
  });

  app.post('/meters/batch', {
    config: { scope: 'usage:write' },
    attachValidation: true,
    schema: {
      tags,
      summary: 'Record a batch of usage entries',
      description:
        `Adds 1 to ${MAX_BATCH_ENTRIES.toLocaleString('en')} entries in one transaction: all of them, or none. Each entry has the fields and rules of ` +
        'POST /api/v2/usage/meters. 422 lists every failing field of every entry at once, named by position (Entries[3].Usage), and stores nothing; ' +
        `more than ${MAX_BATCH_ENTRIES.toLocaleString('en')} entries is 422 on Entries, a body over 1 MiB is 413 (whichever the request hits first). ` +
        "201 answers {Count, Entries} with each entry's ID in the order sent; there is no Location. " +
        'Idempotency-Key covers the whole batch: a retry returns the first response and stores nothing again.',
      headers: IdempotencyHeaders,
      body: RecordUsageBatchBody,
      response: { 201: envelope(RecordedUsageBatch), ...problems(400, ...AUTH_ERRORS, 409, 413, 415, 422) },
    },
    handler: async (request, reply) => {
      const schemaErrors = request.validationError ? fieldErrors(request.validationError.validation as AjvErrors) : [];
      const entries = parseUsageBatch(request.body, schemaErrors, unixNow());
      const operatorId = request.caller.operatorId;
      const created = (recorded: RecordedUsage[]) => ({ data: { Count: recorded.length, Entries: recorded.map(toUsageEntry) } });
      // As for single entries: without a key, concurrent batches share a transaction (group-commit.ts).
      if (request.headers['idempotency-key'] === undefined) {
        return reply.code(201).send(created(await recordUsageGrouped(app.db, operatorId, entries)));
      }
      return sendIdempotently(app.db, request, reply, async (tx) => ({
        statusCode: 201,
        body: created(await recordUsageEntries(tx, operatorId, entries)),
      }));
    },
  });

  app.get('/meters', {
    config: { scope: 'usage:read', permission: 'usage:read' },
    schema: {
      tags,
      summary: 'Get a usage summary',
      description:
        'Totals per meter over UTC days from..to, both inclusive, sorted by total usage (highest first), then by meter name. Sums are exact decimal sums.',
      querystring: SummaryQuery,
      response: { 200: envelope(UsageSummary), ...problems(...AUTH_ERRORS, 422) },
    },
    handler: async (request) => ({ data: await usageSummary(app.db.kysely, request.caller.operatorId, request.query.from, request.query.to) }),
  });

  app.get('/meters/daily', {
    config: { scope: 'usage:read', permission: 'usage:read' },
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
    config: { scope: 'usage:read', permission: 'usage:read' },
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
