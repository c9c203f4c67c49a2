// Operator API: refunding a booking sold in the shop (docs/payments.md, "Refunds"). Refunds move money
// back out of the operator's account, so they take payments:manage (owners and admin keys), like the
// Stripe account itself.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requires } from '../access/permissions.js';
import { Type } from '@sinclair/typebox';
import { AUTH_ERRORS, envelope, problems, ReferenceParams } from '../http/schemas.js';
import { Refund, RefundBody, RefundIdParams } from './schemas.js';
import { refundBooking, retryRefund, type RefundContext } from './refunds.js';

const tags = ['Operator API: bookings'];

export const refundAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const context: RefundContext = { db: app.db, keys: app.instanceKeys, settings: app.config };

  app.post('/bookings/:BookingReference/refund', {
    config: requires('payments:manage'),
    schema: {
      tags,
      summary: 'Refund a booking',
      description:
        'Refunds Amount (a decimal in the currency of the payments, e.g. "12.50") of what the booking paid online, or all that remains with {}. ' +
        "A booking refunds at most what its online payments paid it (its share of its basket's payment, its deposit and balances), less its refunds so far, " +
        'pending ones included (409 beyond). The amount is taken from its payments oldest first: the answer lists one refund per payment refunded from. ' +
        'Through Stripe each is asked after it is recorded: 201 pending or succeeded; Stripe refusing or unreachable is 502 and the refund stays failed, ' +
        'to retry with POST .../refunds/{RefundID}/retry. A payment of the test provider refunds at once. Cancelling a booking refunds nothing by itself.',
      params: ReferenceParams,
      body: RefundBody,
      response: { 201: envelope(Type.Array(Refund)), ...problems(400, ...AUTH_ERRORS, 404, 409, 415, 422, 502) },
    },
    handler: async (request, reply) => {
      const refunds = await refundBooking(context, request.caller.operatorId, request.params.BookingReference, request.body.Amount);
      return reply.code(201).send({ data: refunds });
    },
  });

  app.post('/bookings/:BookingReference/refunds/:RefundID/retry', {
    config: requires('payments:manage'),
    schema: {
      tags,
      summary: 'Retry a failed refund',
      description:
        'Asks Stripe again for a failed refund, with the same idempotency key (so it is refunded once), if the booking may still refund its amount (409 otherwise). ' +
        'A refund that is not failed is answered as it is.',
      params: RefundIdParams,
      response: { 200: envelope(Refund), ...problems(400, ...AUTH_ERRORS, 404, 409, 502) },
    },
    handler: async (request) => ({
      data: await retryRefund(context, request.caller.operatorId, request.params.BookingReference, request.params.RefundID),
    }),
  });
};
