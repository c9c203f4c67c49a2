import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AUTH_ERRORS, envelope, problems } from '../http/schemas.js';
import { requires } from '../access/permissions.js';
import { BookingListQuery } from '../bookings/schemas.js';
import { BookingReport, PaymentReport, PaymentReportQuery, ReportQuery } from './schemas.js';
import { paymentReport, paymentReportCsv } from './payments.js';
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

  const paymentsDescription =
    'Money taken (Gross: payments that succeeded), given back (Refunds: refunds that succeeded) and Net, for the payment dates From to To, ' +
    "per day, activity and channel. The day is the date the money moved (the payment's or the refund's success) in the booked activity's own " +
    "time zone, so a refund counts on its own day. A basket's payment is split over its bookings by their tickets. Sums are exact per currency, " +
    'as decimal text and minor units, never converted or added across currencies.';

  app.get('/reports/payments', {
    config: requires('reports:read'),
    schema: {
      tags,
      summary: 'Payments report',
      description: paymentsDescription,
      querystring: PaymentReportQuery,
      response: { 200: envelope(PaymentReport), ...problems(...AUTH_ERRORS, 422) },
    },
    handler: async (request) => ({ data: await paymentReport(app.db.kysely, request.caller.operatorId, request.query) }),
  });

  app.get('/reports/payments/export', {
    config: requires('reports:read'),
    schema: {
      tags,
      summary: 'Payments report as CSV',
      description: `${paymentsDescription} One line per date, activity, channel and currency. Cells a spreadsheet would run as a formula start with an apostrophe.`,
      querystring: PaymentReportQuery,
      produces: ['text/csv'],
      response: { 200: Type.String({ description: 'CSV' }), ...problems(...AUTH_ERRORS, 422) },
    },
    handler: async (request, reply) => {
      const text = paymentReportCsv(await paymentReport(app.db.kysely, request.caller.operatorId, request.query));
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="payments-report-${request.query.From}-to-${request.query.To}.csv"`)
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
