import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTH_ERRORS, envelope, problems } from '../http/schemas.js';
import { requires } from '../access/permissions.js';
import { EraseGuestBody, GuestErasure, GuestExport, GuestQuery } from './schemas.js';
import { eraseGuest, exportGuest } from './service.js';

/** Operator API: a guest's data on request, exported or erased (docs/privacy.md). */
export const guestAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Operator API: guests'];

  app.get('/guests/export', {
    config: requires('guests:manage'),
    schema: {
      tags,
      summary: "Export a guest's data",
      description:
        'Everything slotbook holds about the guest with this e-mail address (in any case) with this operator, as one JSON document: bookings with their ' +
        'tickets, waiver answers and accepted terms, the files they uploaded (listed, each downloaded on its own), waitlist places, the e-mails written to them ' +
        'and the payments and refunds of their bookings. The export is recorded in the audit log. 404 when nothing is held under the address.',
      querystring: GuestQuery,
      response: { 200: envelope(GuestExport), ...problems(...AUTH_ERRORS, 404, 422) },
    },
    handler: async (request, reply) => {
      reply.header('content-disposition', 'attachment; filename="guest-export.json"');
      return { data: await exportGuest(app.db, request.caller.operatorId, request.query.Email) };
    },
  });

  app.post('/guests/erase', {
    config: requires('guests:manage'),
    schema: {
      tags,
      summary: "Erase a guest's personal data",
      description:
        'Anonymises the guest with this e-mail address: the contact details of their bookings, waitlist places and baskets, their waiver answers and uploaded files ' +
        '(deleted), the e-mails written to them (address, subject and body; queued ones withdrawn), and their details in past webhook events (the append-only audit log keeps its entries). ' +
        'Bookings stay (as "Erased guest") with their tickets, and payments, refunds and disputes are kept as accounting and tax law require. Audited, and sent ' +
        'to webhooks as guest.erased (without the address). 409 while one of their bookings still holds seats of a timeslot not yet over; 404 when nothing is held.',
      body: EraseGuestBody,
      response: { 200: envelope(GuestErasure), ...problems(...AUTH_ERRORS, 404, 409, 413, 415, 422) },
    },
    handler: async (request) => ({ data: await eraseGuest(app.db, request.caller.operatorId, request.body.Email) }),
  });
};
