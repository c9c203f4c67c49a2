// Operator API: every webhook endpoint of the operator (its marketplaces' included), their deliveries, and
// where slotbook e-mails the operator about them.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AUTH_ERRORS, envelope, problems } from '../http/schemas.js';
import { endpointRoutes } from './endpoint-routes.js';
import { WebhookSettings } from './endpoints/schemas.js';
import { changeSettings, getSettings } from './endpoints/settings.js';
import { requires } from '../access/permissions.js';

const tags = ['Operator API: webhooks'];

export const webhookAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(
    endpointRoutes({
      scope: 'admin',
      tags,
      params: Type.Object({}),
      owner: (request) => ({ operatorId: request.caller.operatorId }),
      collection: () => '/api/v2/admin/webhooks',
    }),
  );

  app.get('/webhooks/settings', {
    config: requires('webhooks:manage'),
    schema: { tags, summary: 'Get the webhook settings', response: { 200: envelope(WebhookSettings), ...problems(...AUTH_ERRORS) } },
    handler: async (request) => ({ data: await getSettings(app.db.kysely, request.caller.operatorId) }),
  });

  app.patch('/webhooks/settings', {
    config: requires('webhooks:manage'),
    schema: {
      tags,
      summary: 'Change the webhook settings',
      description:
        'ContactEmail: where slotbook e-mails you when an endpoint is disabled for failing (null: nowhere; the dashboard shows it either way).',
      body: WebhookSettings,
      response: { 200: envelope(WebhookSettings), ...problems(400, ...AUTH_ERRORS, 413, 415, 422) },
    },
    handler: async (request) => ({ data: await changeSettings(app.db, request.caller.operatorId, request.body) }),
  });
};
