// Operator API: the operator's own Stripe account (docs/payments.md). Owners and admin keys only
// (payments:manage): the key decides where the shop's money goes.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requires } from '../access/permissions.js';
import { AUTH_ERRORS, envelope, problems } from '../http/schemas.js';
import { ConnectStripeBody, StripeAccountSettings } from './schemas.js';
import { connectStripeAccount, disconnectStripeAccount, getStripeAccount } from './providers/stripe/accounts.js';

const tags = ['Operator API: payments'];

export const paymentAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const settings = app.config;

  app.get('/settings/stripe', {
    config: requires('payments:manage'),
    schema: {
      tags,
      summary: 'The connected Stripe account',
      description: 'Whether a Stripe account is connected, and what may be shown of it: never the key or the webhook secret.',
      response: { 200: envelope(StripeAccountSettings), ...problems(...AUTH_ERRORS) },
    },
    handler: async (request) => ({ data: await getStripeAccount(app.db.kysely, settings, request.caller.operatorId) }),
  });

  app.put('/settings/stripe', {
    config: requires('payments:manage'),
    schema: {
      tags,
      summary: 'Connect (or replace) the Stripe account',
      description:
        "The account's secret or restricted key and the signing secret of the webhook endpoint added in Stripe's dashboard for WebhookURL. " +
        'The key is checked with Stripe first (it reads the account, or its balance): 422 on SecretKey when Stripe refuses it, nothing saved; ' +
        '502 when Stripe cannot be reached. Both are then sealed and never shown again. Once connected, the shop takes payments through Stripe ' +
        "(unless in test mode): the guest pays on Stripe's Checkout page.",
      body: ConnectStripeBody,
      response: { 200: envelope(StripeAccountSettings), ...problems(400, ...AUTH_ERRORS, 413, 415, 422, 502) },
    },
    handler: async (request) => ({
      data: await connectStripeAccount(app.db, app.instanceKeys, settings, request.caller.operatorId, request.body),
    }),
  });

  app.delete('/settings/stripe', {
    config: requires('payments:manage'),
    schema: {
      tags,
      summary: 'Disconnect the Stripe account',
      description:
        'Forgets the key and the webhook secret. The shop then takes no Stripe payments (in production it closes unless in test mode); ' +
        'sessions already under way can no longer be confirmed here, so disconnect when no guest is paying. 404 when none is connected.',
      response: { 200: envelope(StripeAccountSettings), ...problems(...AUTH_ERRORS, 404) },
    },
    handler: async (request) => ({ data: await disconnectStripeAccount(app.db, settings, request.caller.operatorId) }),
  });
};
