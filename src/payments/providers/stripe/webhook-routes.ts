// Stripe's webhook: POST /api/v2/payments/stripe/{OperatorID}/webhook, one address per operator, public.
// The body is kept raw (a content-type parser of this scope only), since Stripe signs its exact bytes, and
// verified with the SDK against THAT operator's webhook secret: a missing or forged signature, or none to
// check it against, is 400 and writes nothing. A verified event is recorded once per operator; a second
// delivery answers 200 and does nothing. Its handler (events.ts) runs in the same transaction.
// Verification comes first and costs one indexed read and one HMAC, so no limit stands before it: a
// signed event is never refused because of what others sent. Only failures count, per client address
// (never per operator, which anyone could spend); past the limit they are 429 and no longer logged.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { BadRequest } from '../../../http/errors.js';
import { envelope, problems, RowId } from '../../../http/schemas.js';
import type { FailureLimit } from '../../../http/failure-limit.js';
import { unixNow } from '../../../lib/clock.js';
import { PaymentProviderUnavailable } from '../provider.js';
import { findStripeAccount, forgetStripeEvent, recordStripeEvent } from '../../store.js';
import { accountClient, verifyWebhookEvent, WEBHOOK_SECRET_PURPOSE, type StripeEvent } from './gateway.js';
import { stripeEventHandler, type FollowUp } from './events.js';

/** Stripe's events are a few kilobytes; a checkout session with many line items stays far below this. */
export const STRIPE_EVENT_BODY_LIMIT = 256 * 1024;

const WebhookParams = Type.Object({ OperatorID: RowId('The operator whose Stripe account sends the event') });

const Received = Type.Object({
  EventID: Type.String(),
  Outcome: Type.Unsafe<'handled' | 'duplicate' | 'ignored'>({
    type: 'string',
    enum: ['handled', 'duplicate', 'ignored'],
    description: 'handled: its effect is recorded; duplicate: this event was received before, nothing done; ignored: nothing to do for it',
  }),
});

export interface StripeWebhookOptions {
  /** Requests that fail verification, per client address. */
  failures: FailureLimit;
}

export const stripeWebhookRoutes: FastifyPluginAsyncTypebox<StripeWebhookOptions> = async (app, { failures }) => {
  /** A request that cannot be verified: 400, or 429 once its address has failed too often (then not logged). */
  const unverified = async (request: FastifyRequest, reply: FastifyReply, message: string, log: () => void): Promise<Error> => {
    const grant = await failures.count(request);
    if (!grant.allowed) return failures.refusal(reply, grant, 'Stripe events that failed verification');
    log();
    return new BadRequest(message);
  };

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: STRIPE_EVENT_BODY_LIMIT }, (_request, body, done) => done(null, body));

  app.post('/payments/stripe/:OperatorID/webhook', {
    schema: {
      tags: ['Payments (Stripe)'],
      summary: "Stripe's events for the operator's account",
      description:
        "Add this address in the operator's Stripe dashboard (Developers, Webhooks) with checkout.session.completed, " +
        'checkout.session.async_payment_succeeded and checkout.session.expired, the refund events (refund.created, refund.updated, refund.failed, charge.refunded) ' +
        'and the dispute events (charge.dispute.created, .updated, .closed, .funds_withdrawn, .funds_reinstated); its signing secret goes into PUT /api/v2/admin/settings/stripe. ' +
        'Signed by Stripe (Stripe-Signature), verified against that secret: 400 when the signature is missing or does not verify, nothing written. ' +
        'No rate limit applies before verification; a client address whose requests keep failing it gets 429 (AUTH_FAILURE_LIMIT_PER_MINUTE). ' +
        'Each event counts once: a paid session confirms its basket exactly once, also when the guest never comes back to the booking pages.',
      params: WebhookParams,
      response: { 200: envelope(Received), ...problems(400, 413, 429, 502) },
    },
    handler: async (request, reply) => {
      const operatorId = request.params.OperatorID;
      const account = await findStripeAccount(app.db.kysely, operatorId);
      // An unknown operator and one without Stripe answer alike: nothing here can verify the event.
      if (!account) throw await unverified(request, reply, 'This address takes no Stripe events: no Stripe account is connected', () => undefined);
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signature = request.headers['stripe-signature'];
      let event: StripeEvent;
      try {
        event = verifyWebhookEvent(
          body,
          typeof signature === 'string' ? signature : undefined,
          app.instanceKeys.open(WEBHOOK_SECRET_PURPOSE, account.webhook_secret_sealed),
        );
      } catch {
        throw await unverified(
          request,
          reply,
          "The Stripe-Signature header is missing or does not verify with this account's webhook signing secret; nothing was done",
          () => request.log.warn({ operatorId }, 'Stripe event refused: its signature does not verify'),
        );
      }

      const log = { operatorId, eventId: event.id, eventType: event.type };
      const handler = stripeEventHandler(event.type);
      let ignored: string | undefined;
      const outcome = await app.db.write(async (tx): Promise<{ duplicate: true } | { duplicate: false; followUp: FollowUp | undefined }> => {
        if (!(await recordStripeEvent(tx, operatorId, event))) return { duplicate: true };
        if (!handler) {
          ignored = 'no handler for this type';
          return { duplicate: false, followUp: undefined };
        }
        const followUp = await handler(tx, {
          operatorId,
          event,
          now: unixNow(),
          db: app.db,
          client: () => accountClient(app.config, app.instanceKeys, account),
          ignore: (reason) => {
            ignored = reason;
          },
        });
        return { duplicate: false, followUp };
      });
      if (outcome.duplicate) {
        request.log.info(log, 'Stripe event received again: nothing done');
        return { data: { EventID: event.id, Outcome: 'duplicate' as const } };
      }
      if (outcome.followUp) {
        try {
          await outcome.followUp();
        } catch (error) {
          // Forgotten, so that Stripe's next delivery runs the handler, and its follow-up, again.
          await app.db.write((tx) => forgetStripeEvent(tx, operatorId, event.id));
          request.log.error(
            { ...log, err: { type: (error as { type?: string }).type, message: (error as Error).message } },
            'Stripe event follow-up failed',
          );
          throw new PaymentProviderUnavailable('The event was received but its follow-up with Stripe failed; deliver it again');
        }
      }
      if (ignored !== undefined) request.log.info({ ...log, reason: ignored }, 'Stripe event ignored');
      return { data: { EventID: event.id, Outcome: ignored === undefined ? ('handled' as const) : ('ignored' as const) } };
    },
  });
};
