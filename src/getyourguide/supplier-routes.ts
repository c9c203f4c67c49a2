// GetYourGuide's supplier endpoints under /gyg (app.ts), in GYG's conventions, set on this plugin only:
// HTTP Basic credentials that name one operator's connection, every answer HTTP 200 with GYG's body or
// {errorCode, errorMessage}, GYG's paths with their trailing slash (and without, for a client that drops
// it), and a bounded log of each request (endpoint, product, error code, time; never who travels).
// Limits (docs/channels/getyourguide.md): a request with valid credentials counts against the instance's
// request limit per connection (http/rate-limit.ts); wrong credentials count per client address with
// failed API-key sign-ins (http/failure-limit.ts), and past that limit the address's requests are refused
// before any credential is looked up. Both answers stay GYG's HTTP 200 with an error code.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import { operatorName } from '../operators/service.js';
import { FailureLimit } from '../http/failure-limit.js';
import { basicCredentials, passwordMatches } from './credentials.js';
import { GygError, toGygError } from './errors.js';
import { getAvailabilities } from './availability.js';
import { productDetails, pricingCategories, supplierProducts, type GygCaller } from './products.js';
import { book, cancelGygBooking, cancelReservation, reserve } from './reservations.js';
import { recordNotification } from './notify.js';
import { findConnectionByUsername, logRequest } from './store.js';
import {
  AddonsData,
  answer,
  AvailabilityData,
  AvailabilityQuery,
  BookBody,
  BookingData,
  CancelBookingBody,
  CancelReservationBody,
  EmptyData,
  NotifyBody,
  PricingCategoriesData,
  ProductDetailsData,
  ProductParams,
  ReservationData,
  ReserveBody,
  SupplierParams,
  SupplierProductsData,
} from './schemas.js';
import { nowMillis } from '../lib/clock.js';

/** The last requests kept per connection for the operator's connection page. */
export const REQUEST_LOG_SIZE = 200;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The GYG endpoint a /gyg route serves, as the request log names it. */
    gygEndpoint?: string;
  }
  interface FastifyRequest {
    /** The GYG connection the request's credentials named (on /gyg). */
    gyg: GygCaller | null;
    gygErrorCode: string | null;
  }
}

export const isGygPath = (url: string): boolean => url === '/gyg' || url.startsWith('/gyg/') || url.startsWith('/gyg?');

const tags = ['GetYourGuide supplier API'];
const security = [{ gygBasic: [] }];

async function checkCredentials(request: FastifyRequest): Promise<GygCaller> {
  const given = basicCredentials(request.headers.authorization);
  if (!given) throw GygError.authorization('Send the HTTP Basic credentials the supplier was given in slotbook');
  const connection = await findConnectionByUsername(request.server.db.kysely, given.username);
  if (!connection || !passwordMatches(given.password, connection.password_hash)) {
    throw GygError.authorization('The user name or password is wrong (the supplier may have rotated them in slotbook)');
  }
  if (connection.enabled !== 1) throw GygError.authorization('The supplier has switched the GetYourGuide connection off in slotbook');
  return { operatorId: connection.operator_id, connection };
}

/** GYG has no status for "too many": past the limit the answer is still AUTHORIZATION_FAILURE, saying when to retry. */
function tooManyFailures(reply: FastifyReply, failures: FailureLimit, grant: Parameters<typeof FailureLimit.retryAfter>[0]): GygError {
  const seconds = FailureLimit.retryAfter(grant);
  reply.header('Retry-After', String(seconds));
  return GygError.authorization(
    `Too many failed sign-ins from this address (${failures.perMinute} a minute); nothing is checked until the minute has passed: retry in ${seconds} s`,
  );
}

/** The credentials' connection; a failure counts against the client's address, and past the limit nothing is looked up. */
async function authenticate(request: FastifyRequest, reply: FastifyReply, failures: FailureLimit): Promise<GygCaller> {
  const blocked = failures.blocked(request);
  if (blocked) throw tooManyFailures(reply, failures, blocked);
  try {
    return await checkCredentials(request);
  } catch (error) {
    if (!(error instanceof GygError)) throw error; // the database, not the credentials
    const grant = await failures.count(request);
    if (!grant.allowed) throw tooManyFailures(reply, failures, grant);
    throw error;
  }
}

/** The product a request names (query, path or body; notify names it in productDetails), for the request log. */
function productOf(request: FastifyRequest): string | null {
  const data = (request.body as { data?: { productId?: unknown; productDetails?: { productId?: unknown } } } | undefined)?.data;
  const from =
    (request.query as { productId?: unknown } | undefined)?.productId ??
    (request.params as { productId?: unknown } | undefined)?.productId ??
    data?.productId ??
    data?.productDetails?.productId;
  return typeof from === 'string' ? from.slice(0, 200) : null;
}

export interface GygSupplierOptions {
  /** Wrong credentials per client address, counted with failed API-key sign-ins. */
  failures: FailureLimit;
}

export const gygSupplierRoutes: FastifyPluginAsyncTypebox<GygSupplierOptions> = async (app, { failures }) => {
  app.decorateRequest('gyg', null);
  app.decorateRequest('gygErrorCode', null);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { body, unexpected } = toGygError(error);
    if (unexpected) request.log.error({ err: error }, 'unhandled error');
    request.gygErrorCode = body.errorCode;
    return reply.code(200).type('application/json; charset=utf-8').send(body);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    return reply.code(404).send({ errorCode: 'VALIDATION_FAILURE', errorMessage: `No GetYourGuide endpoint at ${request.method} ${path}` });
  });

  // Before the body is parsed: a caller without valid credentials learns nothing else.
  app.addHook('onRequest', async (request, reply) => {
    request.gyg = await authenticate(request, reply, failures);
    // The instance's request limit, per connection (as per API key), after the credentials were verified.
    request.limitBucket = `gyg:${request.gyg.operatorId}`;
  });
  // The log is written after the answer has gone, never in its way; a failure to write it is only logged.
  app.addHook('onResponse', async (request, reply) => {
    const caller = request.gyg;
    const endpoint = request.routeOptions.config.gygEndpoint;
    if (!caller || !endpoint) return;
    const row = {
      operator_id: caller.operatorId,
      endpoint,
      product_id: productOf(request),
      error_code: request.gygErrorCode,
      duration_ms: Math.round(reply.elapsedTime),
      at: nowMillis(),
    };
    try {
      await app.db.write((tx) => logRequest(tx, row, REQUEST_LOG_SIZE));
    } catch (error) {
      request.log.warn({ err: error }, 'the GetYourGuide request log could not be written');
    }
  });

  const caller = (request: FastifyRequest): GygCaller => request.gyg!;
  const holdMinutes = (request: FastifyRequest) => caller(request).connection.hold_minutes ?? app.config.gygHoldMinutes;

  /** GYG's path with its trailing slash (documented), and the bare one (hidden) for clients that drop it. */
  function both(path: string, register: (url: string, hide: boolean) => void): void {
    register(path, false);
    if (path.endsWith('/')) register(path.slice(0, -1), true);
  }
  const schemaOf = <R extends TSchema, E extends Record<string, TSchema>>(summary: string, hide: boolean, response: R, extra: E) => ({
    tags,
    summary,
    security,
    hide,
    ...extra,
    response: { 200: answer(response) },
  });

  both('/1/get-availabilities/', (url, hide) =>
    app.get(url, {
      config: { gygEndpoint: 'get-availabilities' },
      schema: schemaOf('Availability of a product from fromDateTime to toDateTime', hide, AvailabilityData, { querystring: AvailabilityQuery }),
      handler: async (request) => ({ data: { availabilities: await getAvailabilities(app.db.kysely, caller(request), request.query) } }),
    }),
  );

  both('/1/reserve/', (url, hide) =>
    app.post(url, {
      config: { gygEndpoint: 'reserve' },
      schema: schemaOf('Hold seats for a GetYourGuide cart', hide, ReservationData, { body: ReserveBody }),
      handler: async (request) => ({ data: await reserve(app.db, caller(request), request.body, { holdMinutes: holdMinutes(request) }) }),
    }),
  );

  both('/1/cancel-reservation/', (url, hide) =>
    app.post(url, {
      config: { gygEndpoint: 'cancel-reservation' },
      schema: schemaOf('Release a reservation', hide, EmptyData, { body: CancelReservationBody }),
      handler: async (request) => {
        await cancelReservation(app.db, caller(request), request.body);
        return { data: {} };
      },
    }),
  );

  both('/1/book/', (url, hide) =>
    app.post(url, {
      config: { gygEndpoint: 'book' },
      schema: schemaOf('Confirm a reservation into a booking', hide, BookingData, { body: BookBody }),
      handler: async (request) => ({ data: await book(app.db, caller(request), request.body) }),
    }),
  );

  both('/1/cancel-booking/', (url, hide) =>
    app.post(url, {
      config: { gygEndpoint: 'cancel-booking' },
      schema: schemaOf('Cancel a booking', hide, EmptyData, { body: CancelBookingBody }),
      handler: async (request) => {
        await cancelGygBooking(app.db, caller(request), request.body);
        return { data: {} };
      },
    }),
  );

  both('/1/notify/', (url, hide) =>
    app.post(url, {
      config: { gygEndpoint: 'notify' },
      schema: schemaOf("Record GetYourGuide's notification (PRODUCT_DEACTIVATION)", hide, EmptyData, { body: NotifyBody }),
      handler: async (request) => {
        await recordNotification(app.db, caller(request), request.body);
        return { data: {} };
      },
    }),
  );

  both('/1/suppliers/:supplierId/products/', (url, hide) =>
    app.get(url, {
      config: { gygEndpoint: 'products' },
      schema: schemaOf("The supplier's products offered to GetYourGuide", hide, SupplierProductsData, { params: SupplierParams }),
      handler: async (request) => {
        const name = await operatorName(app.db.kysely, caller(request).operatorId);
        return { data: await supplierProducts(app.db.kysely, caller(request), request.params.supplierId, name) };
      },
    }),
  );

  both('/1/products/:productId/', (url, hide) =>
    app.get(url, {
      config: { gygEndpoint: 'product-details' },
      // GYG's document spells this one without the slash: that one is documented here.
      schema: schemaOf("A product's details", !hide, ProductDetailsData, { params: ProductParams }),
      handler: async (request) => ({ data: await productDetails(app.db.kysely, caller(request), request.params.productId) }),
    }),
  );

  both('/1/products/:productId/pricing-categories/', (url, hide) =>
    app.get(url, {
      config: { gygEndpoint: 'pricing-categories' },
      schema: schemaOf("A product's pricing categories", hide, PricingCategoriesData, { params: ProductParams }),
      handler: async (request) => ({
        data: { pricingCategories: await pricingCategories(app.db.kysely, caller(request), request.params.productId) },
      }),
    }),
  );

  both('/1/products/:productId/addons/', (url, hide) =>
    app.get(url, {
      config: { gygEndpoint: 'addons' },
      schema: schemaOf("A product's add-ons (slotbook has none)", hide, AddonsData, { params: ProductParams }),
      handler: async (request) => {
        await productDetails(app.db.kysely, caller(request), request.params.productId);
        return { data: { addons: [] } };
      },
    }),
  );
};
