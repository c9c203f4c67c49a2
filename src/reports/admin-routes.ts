import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AUTH_ERRORS, envelope, problems } from '../http/schemas.js';
import { requires } from '../access/permissions.js';
import { BookingListQuery } from '../bookings/schemas.js';
import { BookingReport, ReportQuery } from './schemas.js';
import { bookingReport, reportCsv } from './service.js';
import { bookingsCsv } from './bookings-csv.js';

const BookingExportQuery = Type.Omit(BookingListQuery, ['Limit', 'Offset']);

/** Operator API: reports of bookings, guests and revenue, and the bookings list as CSV. */
export const reportAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Operator API: reports'];
  const description =
    'Confirmed bookings, their guests and revenue for the activity dates From to To, per day, activity and channel (a marketplace by its name). ' +
    "The day is the activity's date in the activity's own time zone. Revenue is the tickets at the prices they were sold for, in minor units, " +
    'summed exactly per currency (never converted or mixed). Cancelled bookings are counted apart; holds are left out.';

  app.get('/reports/bookings', {
    config: requires('reports:read'),
    schema: {
      tags,
      summary: 'Bookings report',
      description,
      querystring: ReportQuery,
      response: { 200: envelope(BookingReport), ...problems(...AUTH_ERRORS, 422) },
    },
    handler: async (request) => ({ data: await bookingReport(app.db.kysely, request.caller.operatorId, request.query) }),
  });

  app.get('/reports/bookings/export', {
    config: requires('reports:read'),
    schema: {
      tags,
      summary: 'Bookings report as CSV',
      description: `${description} One line per date, activity, channel and currency. Cells a spreadsheet would run as a formula start with an apostrophe.`,
      querystring: ReportQuery,
      produces: ['text/csv'],
      response: { 200: Type.String({ description: 'CSV' }), ...problems(...AUTH_ERRORS, 422) },
    },
    handler: async (request, reply) => {
      const text = reportCsv(await bookingReport(app.db.kysely, request.caller.operatorId, request.query));
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="bookings-report-${request.query.From}-to-${request.query.To}.csv"`)
        .send(text);
    },
  });

  app.get('/bookings/export', {
    config: requires('bookings:read'),
    schema: {
      tags: ['Operator API: bookings'],
      summary: 'Export bookings as CSV',
      description:
        "The bookings list with the same filters (From, To, Source, ActivityID, Status, Search), every matching booking (no paging), in the list's order, as text/csv. " +
        'Total is in major units of Currency. Cells a spreadsheet would run as a formula start with an apostrophe.',
      querystring: BookingExportQuery,
      produces: ['text/csv'],
      response: { 200: Type.String({ description: 'CSV, one booking per line' }), ...problems(...AUTH_ERRORS, 422) },
    },
    handler: async (request, reply) => {
      const lines = bookingsCsv(app.db.kysely, request.caller.operatorId, request.query);
      // The first line is read now, so that a bad filter is a 422 and not a broken download.
      const first = await lines.next();
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="bookings-${day}.csv"`)
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
