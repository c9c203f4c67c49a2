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
import { authPlugin, bearerToken } from './auth/plugin.js';
import { parseKey } from './auth/keys.js';
import { errorHandler, sendProblem } from './http/problem.js';
import { registerRoutingProblems } from './http/routing.js';
import { registerNulGuard } from './http/nul-guard.js';
import { Problem } from './http/schemas.js';
import { validatorCompiler } from './http/validation.js';
import { healthRoutes } from './http/health.js';
import { answerCacheInvalidation } from './http/answer-cache.js';
import { catalogPartnerRoutes } from './catalog/routes.js';
import { catalogAdminRoutes } from './catalog/admin-routes.js';
import { keyAdminRoutes } from './auth/admin-routes.js';
import { availabilityPartnerRoutes } from './availability/routes.js';
import { timeslotAdminRoutes } from './availability/admin-routes.js';
import { bookingPartnerRoutes } from './bookings/routes.js';
import { bookingAdminRoutes } from './bookings/admin-routes.js';
import { octoRoutes } from './octo/routes.js';
import { isOctoPath, sendOctoBadUrl } from './octo/http.js';
import { questionCoreRoutes, questionPartnerRoutes } from './questions/routes.js';
import { questionAdminRoutes } from './questions/admin-routes.js';
import { usageRoutes } from './usage/routes.js';
import { dashboardRoutes } from './dashboard/routes.js';
import { shopRoutes } from './shop/routes.js';
import { waitlistAdminRoutes } from './waitlists/admin-routes.js';
import { workflowAdminRoutes } from './workflows/admin-routes.js';
import { emailAdminRoutes } from './emails/admin-routes.js';
import { actorContext } from './audit/context.js';
import { auditAdminRoutes } from './audit/admin-routes.js';
import { staffRoutes } from './staff/routes.js';
import { userAdminRoutes } from './staff/admin-routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
    problemBaseUrl: string;
    /** Keys derived from the instance's master secret (HMAC fingerprints, sealed secrets). */
    instanceKeys: InstanceKeys;
  }
}

export const JSON_BODY_LIMIT = 1024 * 1024;

export interface AppOptions {
  db: Db;
  config: Config;
  logger?: FastifyServerOptions['logger'];
}

export async function buildApp({ db, config, logger }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel },
    bodyLimit: JSON_BODY_LIMIT,
    // Malformed percent-encoding or an over-long path parameter is caught by the router itself.
    frameworkErrors: (error, request, reply) => {
      const message = `Invalid URL: ${error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'a path parameter is too long' : 'it is not validly encoded'}`;
      return isOctoPath(request.url) ? sendOctoBadUrl(reply, message) : sendProblem(reply, 'bad-request', message);
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('db', db);
  app.decorate('config', config);
  app.decorate('problemBaseUrl', config.problemBaseUrl);
  app.decorate('instanceKeys', await loadInstanceKeys(db.kysely, config.secretKey));
  app.setValidatorCompiler(validatorCompiler);
  app.setErrorHandler(errorHandler);
  // Only JSON bodies are accepted (uploads add their own parser): text/plain is 415, not a string body.
  app.removeContentTypeParser('text/plain');
  app.addSchema(Problem);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'slotbook API',
        version: '2.0.0',
        description:
          'Partner (OTA) API, meter usage API and the operator API of slotbook. Errors are RFC 7807 problem+json bodies; see /problems.',
      },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' },
          session: { type: 'apiKey', in: 'cookie', name: 'slotbook_session', description: 'A staff user signed in through /api/v2/staff/sign-in (with X-CSRF-Token on changes; docs/staff.md)' },
        },
      },
      security: [{ bearer: [] }, { session: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  if (config.rateLimitPerMinute > 0) {
    await app.register(rateLimit, {
      max: config.rateLimitPerMinute,
      timeWindow: 60_000,
      // Per API key (the public part of it, so no database lookup); unauthenticated calls per address.
      keyGenerator: (request) => parseKey(bearerToken(request) ?? '')?.lookupId ?? request.ip,
      // Public routes (health, docs, the dashboard's files) are not limited; the public shop is, per address.
      allowList: (request) => !request.routeOptions.config.scope && !request.routeOptions.config.shopper,
      errorResponseBuilder: (_request, context) =>
        Object.assign(new Error(`Rate limit of ${context.max} requests per minute exceeded; retry in ${context.after}`), {
          statusCode: 429,
        }),
    });
  }
  await app.register(cookie);
  await app.register(authPlugin);
  await app.register(actorContext);
  await app.register(answerCacheInvalidation);
  registerRoutingProblems(app);
  registerNulGuard(app);

  await app.register(healthRoutes);
  const partner = '/api/v2/ota/:partner';
  await app.register(catalogPartnerRoutes, { prefix: partner });
  await app.register(availabilityPartnerRoutes, { prefix: partner });
  await app.register(questionPartnerRoutes, { prefix: partner });
  await app.register(bookingPartnerRoutes, { prefix: partner });
  await app.register(questionCoreRoutes, { prefix: '/api/v2/ota/core' });
  await app.register(usageRoutes, { prefix: '/api/v2/usage' });
  await app.register(octoRoutes, { prefix: '/octo' });

  const admin = '/api/v2/admin';
  await app.register(catalogAdminRoutes, { prefix: admin });
  await app.register(timeslotAdminRoutes, { prefix: admin });
  await app.register(questionAdminRoutes, { prefix: admin });
  await app.register(bookingAdminRoutes, { prefix: admin });
  await app.register(keyAdminRoutes, { prefix: admin });
  await app.register(waitlistAdminRoutes, { prefix: admin });
  await app.register(workflowAdminRoutes, { prefix: admin });
  await app.register(emailAdminRoutes, { prefix: admin });
  await app.register(userAdminRoutes, { prefix: admin });
  await app.register(auditAdminRoutes, { prefix: admin });
  await app.register(staffRoutes, { prefix: '/api/v2/staff' });
  await app.register(shopRoutes, { prefix: '/api/v2/shop/:OperatorID' });

  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());
  await app.register(dashboardRoutes);
  return app;
}
