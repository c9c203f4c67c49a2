// The webhook endpoint routes, registered twice: for the operator (admin API: every endpoint, any
// marketplace filter) and for a marketplace (partner API: its own endpoints only, which receive only its
// own bookings' events and the public ones). Same rules, same answers; admin-routes.ts and routes.ts say
// which and add what is theirs.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type TObject } from '@sinclair/typebox';
import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import { AUTH_ERRORS, envelope, problems } from '../http/schemas.js';
import { EVENT_DESCRIPTIONS, EVENT_TYPES } from '../events/types.js';
import { MARKETPLACE_TYPES, OPT_IN_TYPES } from './endpoints/subscriptions.js';
import { changeEndpoint, createEndpoint, getEndpoint, getEndpoints, removeEndpoint, rotateSecret, type Owner } from './endpoints/service.js';
import { getDeliveries, getDelivery, replayDelivery, testEndpoint } from './deliveries/service.js';
import { newWorkerId } from '../emails/worker.js';
import { requires } from '../access/permissions.js';
import { CreateEndpointBody, EventTypeInfo, UpdateEndpointBody, WebhookEndpoint, WebhookEndpointWithSecret } from './endpoints/schemas.js';
import { DeliveryListQuery, WebhookDelivery, WebhookDeliveryDetail, type DeliveryListQuery as ListQuery } from './deliveries/schemas.js';

export interface EndpointRouteOptions {
  scope: 'admin' | 'ota';
  tags: string[];
  /** Path parameters every route has (the partner API's marketplace), merged into each route's own. */
  params: TObject;
  owner(request: FastifyRequest): Owner;
  /** The path of the endpoint collection as the client addressed it, for Location headers. */
  collection(request: FastifyRequest): string;
}

type Ids = { ID: number; DeliveryID: number };

export function endpointRoutes(options: EndpointRouteOptions): FastifyPluginAsyncTypebox {
  return async (app) => {
    const { scope, tags } = options;
    // The operator's routes need the webhooks permission (a user's role, or an admin key); a marketplace's its ota key.
    const config: FastifyContextConfig = scope === 'admin' ? requires('webhooks:manage') : { scope };
    const marketplace = scope === 'ota';
    const endpointParams = Type.Composite([
      options.params,
      Type.Object({ ID: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'The webhook endpoint ID' }) }),
    ]);
    const deliveryParams = Type.Composite([
      endpointParams,
      Type.Object({ DeliveryID: Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1, description: 'The delivery ID' }) }),
    ]);
    const ids = (request: FastifyRequest) => request.params as Ids;
    const who = marketplace
      ? "the marketplace's own endpoints: they receive its own bookings' events and the public catalogue and availability events"
      : "every endpoint of the operator, the marketplaces' included";
    const deps = () => ({ transport: app.webhooks.transport, keys: app.instanceKeys, workerId: newWorkerId() });

    app.get('/webhooks/event-types', {
      config,
      schema: {
        tags,
        summary: 'List the event types',
        description: marketplace
          ? "The event types a marketplace's endpoint can receive."
          : 'Every event type, with whether it is opt-in (not included in *) and whether marketplaces may receive it.',
        params: options.params,
        response: { 200: envelope(Type.Array(EventTypeInfo)), ...problems(...AUTH_ERRORS) },
      },
      handler: async () => ({
        data: EVENT_TYPES.filter((type) => !marketplace || MARKETPLACE_TYPES.has(type)).map((type) => ({
          Type: type,
          Description: EVENT_DESCRIPTIONS[type],
          OptIn: OPT_IN_TYPES.has(type),
          Marketplaces: MARKETPLACE_TYPES.has(type),
        })),
      }),
    });

    app.post('/webhooks', {
      config,
      schema: {
        tags,
        summary: 'Add a webhook endpoint',
        description:
          'Events of the types named in EventTypes are POSTed to URL, signed as the Standard Webhooks specification says (webhook-id, webhook-timestamp, webhook-signature). ' +
          'The answer carries the signing Secret, shown this once. URL: https (http only to localhost, outside production), reaching a public address ' +
          `(a private or loopback one only where the instance's ${marketplace ? 'WEBHOOK_ALLOWED_NETWORKS_FOR_PARTNERS' : 'WEBHOOK_ALLOWED_NETWORKS (WEBHOOK_ALLOWED_NETWORKS_FOR_PARTNERS with Partner)'} lists its network). ` +
          `${marketplace ? "The endpoint is the marketplace's: it receives its own bookings' events and the public catalogue and availability events. " : "With Partner, the endpoint receives only that marketplace's bookings (and the public events). "}` +
          '409 when the operator has 20 endpoints already, or the marketplace 5.',
        params: options.params,
        body: CreateEndpointBody,
        response: { 201: envelope(WebhookEndpointWithSecret), ...problems(400, ...AUTH_ERRORS, 409, 413, 415, 422) },
      },
      handler: async (request, reply) => {
        const owner = options.owner(request);
        const endpoint = await createEndpoint(app.db, app.instanceKeys, app.webhooks.rules, owner, request.body);
        return reply
          .code(201)
          .header('Location', `${options.collection(request)}/${endpoint.ID}`)
          .send({ data: endpoint });
      },
    });

    app.get('/webhooks', {
      config,
      schema: {
        tags,
        summary: 'List webhook endpoints',
        description: `Without secrets: ${who}.`,
        params: options.params,
        response: { 200: envelope(Type.Array(WebhookEndpoint)), ...problems(400, ...AUTH_ERRORS) },
      },
      handler: async (request) => ({ data: await getEndpoints(app.db.kysely, options.owner(request)) }),
    });

    app.get('/webhooks/:ID', {
      config,
      schema: {
        tags,
        summary: 'Get a webhook endpoint',
        params: endpointParams,
        response: { 200: envelope(WebhookEndpoint), ...problems(400, ...AUTH_ERRORS, 404) },
      },
      handler: async (request) => ({ data: await getEndpoint(app.db.kysely, options.owner(request), ids(request).ID) }),
    });

    app.patch('/webhooks/:ID', {
      config,
      schema: {
        tags,
        summary: 'Change, disable or enable a webhook endpoint',
        description:
          'Any of URL, Description, EventTypes, Enabled. Enabled: false stops deliveries (they wait); true sends the waiting ones at once and clears an automatic disabling.',
        params: endpointParams,
        body: UpdateEndpointBody,
        response: { 200: envelope(WebhookEndpoint), ...problems(400, ...AUTH_ERRORS, 404, 413, 415, 422) },
      },
      handler: async (request) => ({ data: await changeEndpoint(app.db, app.webhooks.rules, options.owner(request), ids(request).ID, request.body) }),
    });

    app.delete('/webhooks/:ID', {
      config,
      schema: {
        tags,
        summary: 'Delete a webhook endpoint',
        description: 'With its deliveries; nothing more is sent to it.',
        params: endpointParams,
        response: { 204: Type.Null(), ...problems(400, ...AUTH_ERRORS, 404) },
      },
      handler: async (request, reply) => {
        await removeEndpoint(app.db, options.owner(request), ids(request).ID);
        return reply.code(204).send(null);
      },
    });

    app.post('/webhooks/:ID/rotate-secret', {
      config,
      schema: {
        tags,
        summary: 'Rotate the signing secret',
        description:
          'Answers the new Secret, shown this once. For 24 hours the previous secret keeps signing beside it: webhook-signature then carries two v1 signatures.',
        params: endpointParams,
        response: { 200: envelope(WebhookEndpointWithSecret), ...problems(400, ...AUTH_ERRORS, 404) },
      },
      handler: async (request) => ({ data: await rotateSecret(app.db, app.instanceKeys, options.owner(request), ids(request).ID) }),
    });

    app.post('/webhooks/:ID/test', {
      config,
      schema: {
        tags,
        summary: 'Send a test event',
        description:
          'Sends a webhook.test event now (also to a disabled endpoint) and answers the delivery: status, response code and time. Not retried.',
        params: endpointParams,
        response: { 200: envelope(WebhookDelivery), ...problems(400, ...AUTH_ERRORS, 404) },
      },
      handler: async (request) => ({ data: await testEndpoint(app.db, deps(), options.owner(request), ids(request).ID) }),
    });

    app.get('/webhooks/:ID/deliveries', {
      config,
      schema: {
        tags,
        summary: "List an endpoint's deliveries",
        description: 'Newest first, with status, attempts, the last response code and time.',
        params: endpointParams,
        querystring: DeliveryListQuery,
        response: { 200: envelope(Type.Array(WebhookDelivery)), ...problems(400, ...AUTH_ERRORS, 404, 422) },
      },
      handler: async (request) => ({ data: await getDeliveries(app.db.kysely, options.owner(request), ids(request).ID, request.query as ListQuery) }),
    });

    app.get('/webhooks/:ID/deliveries/:DeliveryID', {
      config,
      schema: {
        tags,
        summary: 'Inspect a delivery',
        description: 'The event as sent and every attempt with its response code, time, error and the start of the answer.',
        params: deliveryParams,
        response: { 200: envelope(WebhookDeliveryDetail), ...problems(400, ...AUTH_ERRORS, 404) },
      },
      handler: async (request) => ({ data: await getDelivery(app.db.kysely, options.owner(request), ids(request).ID, ids(request).DeliveryID) }),
    });

    app.post('/webhooks/:ID/deliveries/:DeliveryID/replay', {
      config,
      schema: {
        tags,
        summary: 'Replay a delivery',
        description: 'Sends its event again, as a new delivery due now (same event ID), with the usual retries.',
        params: deliveryParams,
        response: { 201: envelope(WebhookDelivery), ...problems(400, ...AUTH_ERRORS, 404) },
      },
      handler: async (request, reply) => {
        const { ID, DeliveryID } = ids(request);
        const delivery = await replayDelivery(app.db, options.owner(request), ID, DeliveryID);
        return reply
          .code(201)
          .header('Location', `${options.collection(request)}/${ID}/deliveries/${delivery.ID}`)
          .send({ data: delivery });
      },
    });
  };
}
