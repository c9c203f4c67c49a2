// Viator's Reservation System endpoints under /viator (app.ts), in Viator's conventions, set on this plugin
// only: the key Viator sends (X-Api-Key, or the v1 body's ApiKey) names one operator's connection; v2
// endpoints answer with HTTP statuses and Viator's {error, message}; v1 endpoints answer HTTP 200 with
// their envelope and RequestStatus; every request is logged, boundedly (endpoint, product option, outcome,
// time; never who travels).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import type { FailureLimit } from '../http/failure-limit.js';
import { check, calendar } from './availability.js';
import { hashKey } from './credentials.js';
import { toV1Failure, toV2Reply, ViatorContentError, ViatorRequestError, ViatorUnauthorized } from './errors.js';
import type { ViatorCaller } from './products.js';
import { amend, book, cancel, cancellationNumberOf, redemption, reserve, type Outcome } from './reservations.js';
import { tourList } from './tour-list.js';
import { findConnectionByKeyHash, logRequest, setNotify } from './store.js';
import type { ViatorBookingLink } from './store.js';
import {
  AvailabilityCheckRequest,
  AvailabilityCheckResponse,
  BookingAmendmentRequest,
  BookingAmendmentResponse,
  BookingCancellationRequest,
  BookingCancellationResponse,
  BookingRequest,
  BookingResponse,
  CalendarRequest,
  CalendarResponse,
  ContentErrorResponse,
  InternalErrorResponse,
  RedemptionRequest,
  RedemptionResponse,
  ReserveRequest,
  ReserveResponse,
  SpecialOffersRequest,
  SpecialOffersResponse,
  StatusErrorResponse,
  TGDS,
  TourListRequest,
  TourListResponse,
  type BookingRejection,
  type ResponseBase,
} from './schemas.js';
import { nowMillis } from '../lib/clock.js';

/** The last requests kept per connection for the operator's connection page. */
export const REQUEST_LOG_SIZE = 200;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The Viator endpoint a /viator route serves, as the request log names it. */
    viatorEndpoint?: string;
    /** Which of Viator's error models the route speaks: v2 (statuses) or v1 (RequestStatus at HTTP 200). */
    viatorVersion?: 1 | 2;
  }
  interface FastifyRequest {
    /** The Viator connection the request's key named (on /viator). */
    viator: ViatorCaller | null;
    /** What the request log records of the answer: null when answered as asked, else Viator's code or reason. */
    viatorOutcome: string | null;
  }
}

export const isViatorPath = (url: string): boolean => url === '/viator' || url.startsWith('/viator/') || url.startsWith('/viator?');

const tags = ['Viator reservation system API'];
const security = [{ viatorKey: [] }];

const UNAUTHORIZED = 'Send the key the supplier was given in slotbook for Viator in the X-Api-Key header';

/**
 * The connection a key names. A wrong key counts as a failed sign-in of the client's address (with failed
 * API keys and GetYourGuide's credentials); past the limit nothing is checked until the minute has passed
 * (429 with Retry-After, in Viator's own error model). A verified caller's requests count against the
 * instance's request limit per connection, as an API key's do.
 */
async function callerOf(request: FastifyRequest, reply: FastifyReply, key: string, failures: FailureLimit): Promise<ViatorCaller> {
  const blocked = failures.blocked(request);
  if (blocked) throw failures.refusal(reply, blocked, 'failed sign-ins');
  const connection = await findConnectionByKeyHash(request.server.db.kysely, hashKey(key));
  if (!connection) {
    const grant = await failures.count(request);
    if (!grant.allowed) throw failures.refusal(reply, grant, 'failed sign-ins');
    throw new ViatorUnauthorized('The key is not valid (the supplier may have rotated it in slotbook)');
  }
  request.limitBucket = `viator:${connection.operator_id}`;
  return { operatorId: connection.operator_id, connection };
}

/** The product option a request names, for the request log. */
function optionOf(request: FastifyRequest): string | null {
  const body = request.body as
    | {
        productOptionId?: unknown;
        productOptionIds?: unknown[];
        productOptions?: { productOptionId?: unknown }[];
        data?: { SupplierProductCode?: unknown };
      }
    | undefined;
  const from = body?.productOptionId ?? body?.productOptionIds?.[0] ?? body?.productOptions?.[0]?.productOptionId ?? body?.data?.SupplierProductCode;
  return typeof from === 'string' ? from.slice(0, 200) : null;
}

/** The v1 answer's base: Viator's own fields echoed (the key masked), stamped now. */
function baseOf(request: FastifyRequest, failure?: { code: string; message: string; details?: string }): ResponseBase {
  const data = ((request.body as { data?: Record<string, unknown> } | undefined)?.data ?? {}) as Record<string, unknown>;
  const supplier = Number(data.SupplierId);
  return {
    ApiKey: '******',
    ResellerId: data.ResellerId === undefined ? '' : String(data.ResellerId),
    SupplierId: Number.isSafeInteger(supplier) ? supplier : 0,
    ...(typeof data.ExternalReference === 'string' && { ExternalReference: data.ExternalReference }),
    Timestamp: new Date().toISOString(),
    RequestStatus: failure
      ? {
          Status: 'ERROR',
          Error: { ErrorCode: failure.code, ErrorMessage: failure.message, ...(failure.details && { ErrorDetails: failure.details }) },
        }
      : { Status: 'SUCCESS' },
  };
}

const RESPONSE_TYPES: Record<string, string> = {
  booking: 'BookingResponse',
  'booking-amendment': 'BookingAmendmentResponse',
  'booking-cancellation': 'BookingCancellationResponse',
  redemption: 'RedemptionResponse',
  tourlist: 'TourListResponse',
};

export interface ViatorSupplierOptions {
  /** Wrong keys per client address, counted with failed API-key sign-ins. */
  failures: FailureLimit;
}

export const viatorSupplierRoutes: FastifyPluginAsyncTypebox<ViatorSupplierOptions> = async (app, { failures }) => {
  app.decorateRequest('viator', null);
  app.decorateRequest('viatorOutcome', null);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { viatorVersion, viatorEndpoint } = request.routeOptions.config;
    if (viatorVersion === 1 && viatorEndpoint) {
      const failure = toV1Failure(error);
      if (failure.unexpected) request.log.error({ err: error }, 'unhandled error');
      request.viatorOutcome = failure.code;
      return reply
        .code(200)
        .type('application/json; charset=utf-8')
        .send({ responseType: RESPONSE_TYPES[viatorEndpoint], data: baseOf(request, failure) });
    }
    const { status, body, unexpected } = toV2Reply(error);
    if (unexpected) request.log.error({ err: error }, 'unhandled error');
    request.viatorOutcome = body.error;
    return reply.code(status).type('application/json; charset=utf-8').send(body);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    return reply.code(404).send({ error: 'NOT_FOUND', message: `No Viator endpoint at ${request.method} ${path}` });
  });

  // Before the body is read: a v2 caller without a valid key learns nothing else. A v1 caller may send its
  // key in the body instead (Viator's legacy way), checked once the body is read.
  app.addHook('onRequest', async (request, reply) => {
    // A path that is no Viator endpoint is a plain 404, whoever asks.
    if (!request.routeOptions.config.viatorEndpoint) return;
    const key = request.headers['x-api-key'];
    if (typeof key === 'string' && key !== '') request.viator = await callerOf(request, reply, key, failures);
    else if (request.routeOptions.config.viatorVersion !== 1) throw new ViatorUnauthorized(UNAUTHORIZED);
  });
  app.addHook('preHandler', async (request, reply) => {
    const { viatorVersion, viatorEndpoint } = request.routeOptions.config;
    if (!viatorEndpoint) return;
    if (viatorVersion === 1) {
      const data = (request.body as { data: { ApiKey?: string; SupplierId: number | string } }).data;
      if (!request.viator) {
        if (!data.ApiKey) throw new ViatorUnauthorized(UNAUTHORIZED);
        request.viator = await callerOf(request, reply, data.ApiKey, failures);
      }
      const { connection } = request.viator;
      if (connection.supplier_id === null || connection.supplier_id !== String(data.SupplierId)) {
        throw new ViatorRequestError(
          TGDS.invalidSupplier,
          'The requested supplier is not valid.',
          `SupplierId ${data.SupplierId} is not the one of this connection`,
        );
      }
      if (connection.enabled !== 1) {
        throw new ViatorRequestError(TGDS.inactiveAccount, 'Inactive account', 'The supplier has switched the Viator connection off in slotbook');
      }
      return;
    }
    const { connection } = request.viator!;
    const supplierId = (request.body as { supplierId: number }).supplierId;
    if (connection.supplier_id === null) {
      throw new ViatorContentError('INVALID_SUPPLIER', 'No Viator supplier ID is set for this connection; the supplier must enter it in slotbook');
    }
    if (connection.supplier_id !== String(supplierId))
      throw new ViatorContentError('INVALID_SUPPLIER', `Supplier ID ${supplierId} is not the one of this connection`);
    if (connection.enabled !== 1) throw new ViatorContentError('API_DISABLED', 'The supplier has switched the Viator connection off in slotbook');
  });
  // The log is written after the answer has gone, never in its way; a failure to write it is only logged.
  app.addHook('onResponse', async (request, reply) => {
    const caller = request.viator;
    const endpoint = request.routeOptions.config.viatorEndpoint;
    if (!caller || !endpoint) return;
    const row = {
      operator_id: caller.operatorId,
      endpoint,
      product_option_id: optionOf(request),
      outcome: request.viatorOutcome ?? (reply.statusCode >= 400 ? String(reply.statusCode) : null),
      duration_ms: Math.round(reply.elapsedTime),
      at: nowMillis(),
    };
    try {
      await app.db.write((tx) => logRequest(tx, row, REQUEST_LOG_SIZE));
    } catch (error) {
      request.log.warn({ err: error }, 'the Viator request log could not be written');
    }
  });

  const caller = (request: FastifyRequest): ViatorCaller => request.viator!;
  const holdMinutes = () => ({ holdMinutes: app.config.viatorHoldMinutes });

  const v2 = <R extends TSchema, B extends TSchema>(summary: string, body: B, response: R) => ({
    tags,
    summary,
    security,
    body,
    response: {
      200: response,
      400: StatusErrorResponse,
      401: StatusErrorResponse,
      422: ContentErrorResponse,
      500: InternalErrorResponse,
    },
  });
  const v1 = <R extends TSchema, B extends TSchema>(summary: string, body: B, response: R) => ({
    tags,
    summary,
    security,
    body,
    response: { 200: response },
  });

  app.post('/v2/availability/calendar', {
    config: { viatorEndpoint: 'calendar', viatorVersion: 2 },
    // A year of departures is thousands of events whose unions (status, capacity, price) the schema
    // serializer would try branch by branch; the answer is built field by field from the schema's types,
    // so plain JSON is exact, and several times faster.
    serializerCompiler: () => (data) => JSON.stringify(data),
    schema: v2('Availability and prices of product options over a date range', CalendarRequest, CalendarResponse),
    handler: async (request) => {
      const { answer, unnotified } = await calendar(app.db.kysely, caller(request), request.body);
      // Viator asked the calendar of these options: from now on, their changes are notified (Viator's rule).
      if (unnotified.length > 0) await app.db.write((tx) => setNotify(tx, caller(request).operatorId, unnotified, true));
      return answer;
    },
  });

  app.post('/v2/availability/check', {
    config: { viatorEndpoint: 'availability-check', viatorVersion: 2 },
    schema: v2('Real-time availability and prices of ticket combinations on a travel date', AvailabilityCheckRequest, AvailabilityCheckResponse),
    handler: async (request) => check(app.db.kysely, caller(request), request.body),
  });

  app.post('/v2/reserve', {
    config: { viatorEndpoint: 'reserve', viatorVersion: 2 },
    schema: v2('Hold seats and price for a Viator checkout', ReserveRequest, ReserveResponse),
    handler: async (request) => {
      const answer = await reserve(app.db, caller(request), request.body, holdMinutes());
      if (answer.status === 'NOT_RESERVED') request.viatorOutcome = answer.reason;
      return answer;
    },
  });

  app.post('/v2/product/special-offers', {
    config: { viatorEndpoint: 'special-offers', viatorVersion: 2 },
    schema: v2('Special offers (slotbook sends none, so every asked one is unknown)', SpecialOffersRequest, SpecialOffersResponse),
    handler: async () => ({ specialOffers: [] }),
  });

  /** A booking operation's answer: CONFIRMED with slotbook's confirmation, or REJECTED with Viator's reason. */
  function bookingAnswer(
    request: FastifyRequest,
    data: { BookingReference: string; Traveller: { TravellerIdentifier: string }[] },
    outcome: Outcome<BookingRejection>,
  ) {
    if (outcome.rejected) {
      request.viatorOutcome = outcome.rejected.reason;
      return {
        ...baseOf(request),
        BookingReference: data.BookingReference,
        TransactionStatus: {
          Status: 'REJECTED' as const,
          RejectionReason: outcome.rejected.reason,
          RejectionReasonDetails: outcome.rejected.details,
        },
      };
    }
    const link = outcome.booked;
    return {
      ...baseOf(request),
      BookingReference: data.BookingReference,
      // The booking's reference is what check-in opens it by (the door's QR scan or a typed code).
      TourBarcode: link.reference,
      Traveller: data.Traveller.map((t) => ({ TravellerIdentifier: t.TravellerIdentifier })),
      TransactionStatus: { Status: 'CONFIRMED' as const },
      SupplierConfirmationNumber: link.reference,
    };
  }

  app.post('/booking', {
    config: { viatorEndpoint: 'booking', viatorVersion: 1 },
    schema: v1('Confirm a reservation (or book directly) for Viator', BookingRequest, BookingResponse),
    handler: async (request) => {
      const { data } = request.body;
      const outcome = await book(app.db, caller(request), data, holdMinutes());
      return { responseType: 'BookingResponse' as const, data: bookingAnswer(request, data, outcome) };
    },
  });

  app.post('/booking-amendment', {
    config: { viatorEndpoint: 'booking-amendment', viatorVersion: 1 },
    schema: v1("Amend a Viator booking (date, time, travellers, lead traveller's name)", BookingAmendmentRequest, BookingAmendmentResponse),
    handler: async (request) => {
      const { data } = request.body;
      const outcome = await amend(app.db, caller(request), data);
      return { responseType: 'BookingAmendmentResponse' as const, data: bookingAnswer(request, data, outcome) };
    },
  });

  app.post('/booking-cancellation', {
    config: { viatorEndpoint: 'booking-cancellation', viatorVersion: 1 },
    schema: v1('Cancel a Viator booking', BookingCancellationRequest, BookingCancellationResponse),
    handler: async (request) => {
      const { data } = request.body;
      const outcome = await cancel(app.db, caller(request), data);
      const base = { ...baseOf(request), BookingReference: data.BookingReference, SupplierConfirmationNumber: data.SupplierConfirmationNumber };
      if (outcome.rejected) {
        request.viatorOutcome = outcome.rejected.reason;
        return {
          responseType: 'BookingCancellationResponse' as const,
          data: {
            ...base,
            TransactionStatus: {
              Status: 'REJECTED' as const,
              RejectionReason: outcome.rejected.reason,
              RejectionReasonDetails: outcome.rejected.details,
            },
          },
        };
      }
      const link: ViatorBookingLink = outcome.booked;
      return {
        responseType: 'BookingCancellationResponse' as const,
        data: { ...base, SupplierCancellationNumber: cancellationNumberOf(link.reference), TransactionStatus: { Status: 'CONFIRMED' as const } },
      };
    },
  });

  app.post('/redemption', {
    config: { viatorEndpoint: 'redemption', viatorVersion: 1 },
    schema: v1('Whether a Viator booking was redeemed (anyone checked in)', RedemptionRequest, RedemptionResponse),
    handler: async (request) => {
      const { redeemed } = await redemption(app.db, caller(request), request.body.data);
      return { responseType: 'RedemptionResponse' as const, data: { ...baseOf(request), RedemptionStatus: redeemed } };
    },
  });

  app.post('/tourlist', {
    config: { viatorEndpoint: 'tourlist', viatorVersion: 1 },
    schema: v1("The supplier's products offered to Viator", TourListRequest, TourListResponse),
    handler: async (request) => ({
      responseType: 'TourListResponse' as const,
      data: { ...baseOf(request), Tour: await tourList(app.db.kysely, caller(request)) },
    }),
  });
};
