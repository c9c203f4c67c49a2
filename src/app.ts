// Builds the Fastify application: plugins, the error handler, every domain's routes. No listen() here
// (server.ts does that), so tests build the same app on a fresh database and speak HTTP to it.
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.js';
import type { Db } from './db/connection.js';
import { loadInstanceKeys, type InstanceKeys } from './secrets/keys.js';
import { authPlugin } from './auth/plugin.js';
import { authenticateSession, sessionToken } from './staff/sessions/service.js';
import { errorHandler, sendProblem } from './http/problem.js';
import { registerRoutingProblems } from './http/routing.js';
import { registerNulGuard } from './http/nul-guard.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { loggerOptions, logStream as prettyLog } from './http/log-redaction.js';
import { registerDraining, registerRequestIdHeader, serverOptions } from './http/server-options.js';
import { rateLimitOptions } from './http/rate-limit.js';
import { SharedLimiter } from './http/shared-limiter.js';
import { FailureLimit } from './http/failure-limit.js';
import { Problem } from './http/schemas.js';
import { validatorCompiler } from './http/validation.js';
import { healthRoutes } from './http/health.js';
import { registerOverload } from './http/overload.js';
import { catalogPartnerRoutes } from './catalog/routes.js';
import { catalogAdminRoutes } from './catalog/admin-routes.js';
import { photoAdminRoutes } from './catalog/photos/admin-routes.js';
import { photoRoutes } from './catalog/photos/routes.js';
import { keyAdminRoutes } from './auth/admin-routes.js';
import { availabilityPartnerRoutes } from './availability/routes.js';
import { timeslotAdminRoutes } from './availability/admin-routes.js';
import { flowAdminRoutes, flowPartnerRoutes } from './flows/routes.js';
import { bookingPartnerRoutes } from './bookings/routes.js';
import { bookingAdminRoutes } from './bookings/admin-routes.js';
import { manifestAdminRoutes } from './manifests/admin-routes.js';
import { octoRoutes } from './octo/routes.js';
import { isOctoPath, sendOctoBadUrl } from './octo/http.js';
import { gygSupplierRoutes, isGygPath } from './getyourguide/supplier-routes.js';
import { gygAdminRoutes } from './getyourguide/admin-routes.js';
import { isViatorPath, viatorSupplierRoutes } from './viator/supplier-routes.js';
import { viatorAdminRoutes } from './viator/admin-routes.js';
import { questionCoreRoutes, questionPartnerRoutes } from './questions/routes.js';
import { questionAdminRoutes } from './questions/admin-routes.js';
import { usageRoutes } from './usage/routes.js';
import { dashboardRoutes } from './dashboard/routes.js';
import { shopAdminRoutes } from './shop/admin-routes.js';
import { refundAdminRoutes } from './payments/refund-routes.js';
import { holdAdminRoutes } from './holds/admin-routes.js';
import { guestAdminRoutes } from './guests/admin-routes.js';
import { waitlistPageRoutes } from './waitlists/page-routes.js';
import { waitlistAdminRoutes } from './waitlists/admin-routes.js';
import { workflowAdminRoutes } from './workflows/admin-routes.js';
import { emailAdminRoutes } from './emails/admin-routes.js';
import { ticketTypeAdminRoutes } from './catalog/tickets/admin-routes.js';
import { actorContext } from './access/actor.js';
import { auditAdminRoutes } from './audit/admin-routes.js';
import { staffRoutes } from './staff/routes.js';
import { userAdminRoutes } from './staff/accounts/admin-routes.js';
import { webhookAdminRoutes } from './webhooks/admin-routes.js';
import { reportAdminRoutes } from './reports/admin-routes.js';
import { webhookPartnerRoutes } from './webhooks/routes.js';
import { createWebhookRuntime, type WebhookOverrides, type WebhookRuntime } from './webhooks/runtime.js';
import { webhooksDocument } from './webhooks/openapi.js';
import { settingsAdminRoutes } from './settings/admin-routes.js';
import { brandingRoutes } from './settings/routes.js';
import { embedRoutes } from './embed/routes.js';
import { publicShopApi } from './storefront/shop-api.js';
import { storefrontRoutes } from './storefront/routes.js';
import { paymentAdminRoutes } from './payments/admin-routes.js';
import { stripeWebhookRoutes } from './payments/providers/stripe/webhook-routes.js';
import { requireReactionsWired } from './hooks/registry.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
    problemBaseUrl: string;
    /** Keys derived from the instance's master secret (HMAC fingerprints, sealed secrets). */
    instanceKeys: InstanceKeys;
    /** Webhook URL rules and the transport deliveries go through (src/webhooks). */
    webhooks: WebhookRuntime;
  }
}

export const JSON_BODY_LIMIT = 1024 * 1024;

export interface AppOptions {
  db: Db;
  config: Config;
  /** Tests turn the log off with `false`; by default it is the redacted log of http/log-redaction.ts. */
  logger?: FastifyServerOptions['logger'];
  /** Where the default log goes instead of stdout (tests read it). */
  logStream?: { write(line: string): void };
  /** Tests' stand-ins for DNS or the webhook transport. */
  webhooks?: WebhookOverrides;
  /** Metrics' and traces' request hooks (observability/telemetry.ts), registered before the routes. */
  instrument?: (app: FastifyInstance) => Promise<void>;
}

export async function buildApp({ db, config, logger, logStream, webhooks, instrument }: AppOptions): Promise<FastifyInstance> {
  requireReactionsWired();
  const stream = logStream ?? (logger === undefined ? await prettyLog(config) : undefined);
  const app = Fastify({
    ...serverOptions(config),
    logger: logger ?? { ...loggerOptions(config), ...(stream && { stream }) },
    bodyLimit: JSON_BODY_LIMIT,
    // Malformed percent-encoding or an over-long path parameter is caught by the router itself.
    frameworkErrors: (error, request, reply) => {
      reply.header('X-Request-Id', request.id); // no onRequest hook runs for these
      const message = `Invalid URL: ${error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'a path parameter is too long' : 'it is not validly encoded'}`;
      return isOctoPath(request.url) ? sendOctoBadUrl(reply, message) : sendProblem(reply, 'bad-request', message);
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  registerDraining(app);
  registerRequestIdHeader(app);
  app.decorate('db', db);
  app.decorate('config', config);
  app.decorate('problemBaseUrl', config.problemBaseUrl);
  app.decorate('instanceKeys', await loadInstanceKeys(db.kysely, config.secretKey));
  const webhookRuntime = createWebhookRuntime(config, webhooks);
  app.decorate('webhooks', webhookRuntime);
  if (!webhooks?.transport) app.addHook('onClose', async () => webhookRuntime.transport.close());
  app.setValidatorCompiler(validatorCompiler);
  app.setErrorHandler(errorHandler);
  // Only JSON bodies are accepted (uploads add their own parser): text/plain is 415, not a string body.
  app.removeContentTypeParser('text/plain');
  app.addSchema(Problem);
  // First, so that every answer has them: docs, errors, 401s and 429s included.
  registerSecurityHeaders(app, config);
  // Then the overload check, so that a busy process refuses before doing any work for a request.
  await registerOverload(app, config.observability);
  if (instrument) await instrument(app);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'slotbook API',
        version: '2.0.0',
        description: 'Partner (OTA) API, meter usage API and the operator API of slotbook. Errors are RFC 7807 problem+json bodies; see /problems.',
      },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' },
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: 'slotbook_session',
            description: 'A staff user signed in through /api/v2/staff/sign-in (with X-CSRF-Token on changes; docs/staff.md)',
          },
          gygBasic: {
            type: 'http',
            scheme: 'basic',
            description: "GetYourGuide's inbound credentials of one operator's connection (docs/channels/getyourguide.md)",
          },
          viatorKey: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Api-Key',
            description: "The key Viator sends for one operator's connection (docs/channels/viator.md)",
          },
        },
      },
      security: [{ bearer: [] }, { session: [] }],
      // OpenAPI 3.1: the events slotbook POSTs to webhook endpoints, each with its payload.
      webhooks: webhooksDocument(),
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  // Counts for the rate limit and the failed sign-ins, shared with the other processes on the database.
  const limiter = new SharedLimiter(db, app.log);
  app.addHook('onClose', async () => limiter.stop());
  if (config.rateLimitPerMinute > 0) await app.register(rateLimit, rateLimitOptions(config, limiter));
  registerRoutingProblems(app, { ownFormat: (url) => isOctoPath(url) || isGygPath(url) || isViatorPath(url) });
  // Failed sign-ins per address: API keys, GetYourGuide's and Viator's credentials share one count.
  const failedSignIns = new FailureLimit({ perMinute: config.authFailureLimitPerMinute, limiter }, 'auth-failures');
  const failures = config.authFailureLimitPerMinute > 0 ? failedSignIns : undefined;
  await app.register(cookie);
  await app.register(authPlugin, { failures, sessions: { token: sessionToken, authenticate: authenticateSession } });
  await app.register(actorContext);
  registerNulGuard(app);

  await app.register(healthRoutes);
  const partner = '/api/v2/ota/:partner';
  await app.register(catalogPartnerRoutes, { prefix: partner });
  await app.register(availabilityPartnerRoutes, { prefix: partner });
  await app.register(questionPartnerRoutes, { prefix: partner });
  await app.register(bookingPartnerRoutes, { prefix: partner });
  await app.register(flowPartnerRoutes, { prefix: partner });
  await app.register(webhookPartnerRoutes, { prefix: partner });
  await app.register(questionCoreRoutes, { prefix: '/api/v2/ota/core' });
  await app.register(usageRoutes, { prefix: '/api/v2/usage' });
  await app.register(octoRoutes, { prefix: '/octo' });
  await app.register(gygSupplierRoutes, { prefix: '/gyg', failures: failedSignIns });
  await app.register(viatorSupplierRoutes, { prefix: '/viator', failures: failedSignIns });

  const admin = '/api/v2/admin';
  await app.register(catalogAdminRoutes, { prefix: admin });
  await app.register(photoAdminRoutes, { prefix: admin });
  await app.register(ticketTypeAdminRoutes, { prefix: admin });
  await app.register(timeslotAdminRoutes, { prefix: admin });
  await app.register(flowAdminRoutes, { prefix: admin });
  await app.register(questionAdminRoutes, { prefix: admin });
  await app.register(bookingAdminRoutes, { prefix: admin });
  await app.register(manifestAdminRoutes, { prefix: admin });
  await app.register(keyAdminRoutes, { prefix: admin });
  await app.register(waitlistAdminRoutes, { prefix: admin });
  await app.register(workflowAdminRoutes, { prefix: admin });
  await app.register(emailAdminRoutes, { prefix: admin });
  await app.register(shopAdminRoutes, { prefix: admin });
  await app.register(refundAdminRoutes, { prefix: admin });
  await app.register(holdAdminRoutes, { prefix: admin });
  await app.register(guestAdminRoutes, { prefix: admin });
  await app.register(userAdminRoutes, { prefix: admin });
  await app.register(auditAdminRoutes, { prefix: admin });
  await app.register(staffRoutes, { prefix: '/api/v2/staff' });
  await app.register(webhookAdminRoutes, { prefix: admin });
  await app.register(reportAdminRoutes, { prefix: admin });
  await app.register(publicShopApi, { prefix: '/api/v2/shop/:OperatorID' });
  await app.register(waitlistPageRoutes);
  await app.register(settingsAdminRoutes, { prefix: admin });
  await app.register(paymentAdminRoutes, { prefix: admin });
  await app.register(gygAdminRoutes, { prefix: admin });
  await app.register(viatorAdminRoutes, { prefix: admin });
  const failedSignatures = new FailureLimit({ perMinute: config.authFailureLimitPerMinute, limiter }, 'stripe-signature-failures');
  await app.register(stripeWebhookRoutes, { prefix: '/api/v2', failures: failedSignatures });
  await app.register(brandingRoutes);
  await app.register(photoRoutes);
  await app.register(embedRoutes);
  await app.register(storefrontRoutes);

  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());
  await app.register(dashboardRoutes);
  return app;
}
