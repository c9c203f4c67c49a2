// Operator API: manifests (a day's timeslots, one timeslot's guests), check-in and undo, the door's look-up
// by reference (the phone's QR scan), a waiver file from a manifest, a booking's QR code, no-shows.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { renderSVG } from 'uqr';
import { AUTH_ERRORS, envelope, problems } from '../http/schemas.js';
import { requires } from '../access/permissions.js';
import { ReferenceParams } from '../http/schemas.js';
import { FileIdParams } from '../questions/schemas.js';
import { ALLOWED_FILE_TYPES } from '../questions/file-types.js';
import { sendAnsweredFile } from '../bookings/answer-routes.js';
import { NotFound } from '../http/errors.js';
import { findBooking } from '../bookings/index.js';
import { CheckinAnswer, CheckinBody, ManifestDay, ManifestDayQuery, NoShowQuery, NoShowReport, TimeslotManifest, TimeslotParams } from './schemas.js';
import { changeCheckin, dayManifest, lookUpBooking, manifestFile, noShowReport, timeslotManifest } from './service.js';

export const manifestAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Operator API: manifests and check-in'];
  const todayOnly = " A guide (manifests:today) gets today's only (the date in the activity's time zone), else 403.";

  app.get('/manifests', {
    config: requires('manifests:today'),
    schema: {
      tags,
      summary: "A day's timeslots with their counts",
      description: `Every timeslot of the date with its confirmed bookings, guests, people checked in and (once ended) no-shows.${todayOnly}`,
      querystring: ManifestDayQuery,
      response: { 200: envelope(ManifestDay), ...problems(...AUTH_ERRORS, 422) },
    },
    handler: async (request) => ({ data: await dayManifest(app.db.kysely, request.actor, request.caller.operatorId, request.query.Date) }),
  });

  app.get('/manifests/:TimeslotID', {
    config: requires('manifests:today'),
    schema: {
      tags,
      summary: "A timeslot's manifest",
      description: `The confirmed bookings of the timeslot: party, tickets, channel, waiver status and answers, notes, check-in.${todayOnly}`,
      params: TimeslotParams,
      response: { 200: envelope(TimeslotManifest), ...problems(400, ...AUTH_ERRORS, 404) },
    },
    handler: async (request) => ({
      data: await timeslotManifest(app.db.kysely, request.actor, request.caller.operatorId, request.params.TimeslotID),
    }),
  });

  app.get('/manifests/bookings/:BookingReference/files/:FileID', {
    config: requires('manifests:today'),
    schema: {
      tags,
      summary: 'Download a waiver file from a manifest',
      description: `The file of a waiver answer of the booking, sent as the bookings' file download is (attachment, nosniff, sandbox CSP, no-store).${todayOnly}`,
      params: Type.Composite([ReferenceParams, FileIdParams]),
      produces: [...Object.keys(ALLOWED_FILE_TYPES), 'application/octet-stream'],
      response: {
        200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: "The file's bytes" }),
        ...problems(400, ...AUTH_ERRORS, 404),
      },
    },
    handler: async (request, reply) => {
      const { BookingReference, FileID } = request.params;
      const file = await manifestFile(app.db.kysely, request.actor, request.caller.operatorId, BookingReference, FileID);
      return sendAnsweredFile(reply, BookingReference, file);
    },
  });

  app.get('/check-in/:BookingReference', {
    config: requires('checkin'),
    schema: {
      tags,
      summary: 'Look a booking up at the door',
      description: `The booking (any status) as a manifest shows it, with its timeslot: what the phone's QR scan or a typed reference opens.${todayOnly}`,
      params: ReferenceParams,
      response: { 200: envelope(CheckinAnswer), ...problems(400, ...AUTH_ERRORS, 404) },
    },
    handler: async (request) => ({
      data: await lookUpBooking(app.db.kysely, request.actor, request.caller.operatorId, request.params.BookingReference),
    }),
  });

  app.post('/bookings/:BookingReference/check-in', {
    config: requires('checkin'),
    schema: {
      tags,
      summary: 'Check a booking in',
      description:
        "Without a body (or without Tickets) every ticket of the booking is checked in; with Tickets, each named type's count is set " +
        '(absolute: 0 to its quantity, 422 naming the field beyond). Repeating a request changes nothing (Changed: false). ' +
        'Only a confirmed booking (409 otherwise). A booking whose waiver is pending needs WaiverConfirmed: true to let anyone in (409 naming it otherwise). ' +
        `Recorded in the audit log (booking.check-in).${todayOnly}`,
      params: ReferenceParams,
      body: CheckinBody,
      response: { 200: envelope(CheckinAnswer), ...problems(400, ...AUTH_ERRORS, 404, 409, 415, 422) },
    },
    // The body is optional: a bare POST (the door's one tap) checks everyone in.
    preValidation: async (request) => {
      if (request.body === undefined) request.body = {};
    },
    handler: async (request) => {
      const { Tickets: tickets, WaiverConfirmed: waiverConfirmed } = request.body ?? {};
      const checkin = tickets === undefined ? { kind: 'all' as const, waiverConfirmed } : { kind: 'counts' as const, tickets, waiverConfirmed };
      return { data: await changeCheckin(app.db, request.actor, request.caller.operatorId, request.params.BookingReference, checkin) };
    },
  });

  app.delete('/bookings/:BookingReference/check-in', {
    config: requires('checkin'),
    schema: {
      tags,
      summary: "Undo a booking's check-in",
      description: `Nobody of the booking is checked in any more. Only a confirmed booking (409 otherwise). Recorded in the audit log (booking.check-in-undo).${todayOnly}`,
      params: ReferenceParams,
      response: { 200: envelope(CheckinAnswer), ...problems(400, ...AUTH_ERRORS, 404, 409) },
    },
    handler: async (request) => ({
      data: await changeCheckin(app.db, request.actor, request.caller.operatorId, request.params.BookingReference, { kind: 'none' }),
    }),
  });

  app.get('/bookings/:BookingReference/qr.svg', {
    config: requires('bookings:read'),
    schema: {
      tags,
      summary: "A booking's QR code",
      description: "An SVG QR code of the BookingReference: what the door's phone scans. The reference is all it encodes.",
      params: ReferenceParams,
      produces: ['image/svg+xml'],
      response: { 200: Type.String({ description: 'SVG' }), ...problems(400, ...AUTH_ERRORS, 404) },
    },
    handler: async (request, reply) => {
      const { BookingReference } = request.params;
      if (!(await findBooking(app.db.kysely, request.caller.operatorId, BookingReference))) throw new NotFound(`No booking ${BookingReference}`);
      return reply
        .type('image/svg+xml')
        .header('Cache-Control', 'private, max-age=3600')
        .send(renderSVG(BookingReference, { border: 2 }));
    },
  });

  app.get('/no-shows', {
    config: requires('manifests:read'),
    schema: {
      tags,
      summary: 'No-show report',
      description:
        'Ended timeslots dated From to To (at most 92 days) with the bookings somebody did not come to: no-show (nobody checked in) or partial.',
      querystring: NoShowQuery,
      response: { 200: envelope(NoShowReport), ...problems(...AUTH_ERRORS, 422) },
    },
    handler: async (request) => ({ data: await noShowReport(app.db.kysely, request.caller.operatorId, request.query.From, request.query.To) }),
  });
};
