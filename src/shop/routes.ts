import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { envelope, problems } from '../http/schemas.js';
import { IdempotencyHeaders } from '../idempotency/http.js';
import { DayQuery, Timeslot } from '../availability/schemas.js';
import { listDayTimeslots } from '../availability/service.js';
import { JoinWaitlistBody, WaitlistEntry } from '../waitlists/schemas.js';
import { joinWaitlist } from '../waitlists/service.js';
import { AddItemBody, Basket, type Basket as BasketBody, BasketParams, CheckoutBody, CreateBasketBody, ShopActivityParams, ShopParams } from './schemas.js';
import { addBasketItem, createBasket, getBasket } from './baskets.js';
import { checkout } from './checkout.js';
import { shopUploadRoutes } from './uploads.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A public shop route: no API key, but rate-limited per client address (app.ts). */
    shopper?: boolean;
  }
}

// Public API errors: no 401/403 (no key), 429 from the per-address rate limit.
const PUBLIC_ERRORS = [429] as const;

/** The operator's public online shop: no API key. Baskets are addressed by their random token only. */
export const shopRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Online shop (public)'];
  const config = { shopper: true };

  app.get('/activities/:ActivityID/timeslots', {
    config,
    schema: {
      tags,
      summary: 'Timeslots of a day',
      description: 'Every timeslot of the date with the seats left, as the partner API answers it. Sold-out timeslots (Available 0) take a waitlist.',
      params: ShopActivityParams,
      querystring: DayQuery,
      response: { 200: envelope(Type.Array(Timeslot)), ...problems(400, 404, 422, ...PUBLIC_ERRORS) },
    },
    handler: async (request) => ({ data: await listDayTimeslots(app.db.kysely, request.params.OperatorID, request.params.ActivityID, request.query.Date) }),
  });

  app.post('/baskets', {
    config,
    schema: {
      tags,
      summary: 'Open a basket',
      description: 'Answers the basket with its BasketToken: the only way to read, fill and pay it, so keep it private.',
      params: ShopParams,
      body: CreateBasketBody,
      response: { 201: envelope(Basket), ...problems(400, 404, 413, 415, 422, ...PUBLIC_ERRORS) },
    },
    handler: async (request, reply) => {
      const basket = await createBasket(app.db, request.params.OperatorID, request.body);
      return reply.code(201).header('Location', `/api/v2/shop/${request.params.OperatorID}/baskets/${basket.BasketToken}`).send({ data: basket });
    },
  });

  app.get('/baskets/:BasketToken', {
    config,
    schema: { tags, summary: 'Get a basket with its total', params: BasketParams, response: { 200: envelope(Basket), ...problems(400, 404, ...PUBLIC_ERRORS) } },
    handler: async (request) => ({ data: await getBasket(app.db.kysely, request.params.OperatorID, request.params.BasketToken) }),
  });

  app.post('/baskets/:BasketToken/items', {
    config,
    schema: {
      tags,
      summary: 'Add a timeslot to a basket',
      description:
        `Holds the seats (a booking of Source online, on_hold) for ${app.config.basketHoldMinutes} minutes. The partner API's rules apply: 404 no such activity or timeslot, ` +
        '422 invalid fields or a started timeslot, 409 not enough seats left (join the waitlist) or the basket is paid. Every item is in the basket\'s one currency.',
      params: BasketParams,
      body: AddItemBody,
      response: { 201: envelope(Basket), ...problems(400, 404, 409, 413, 415, 422, ...PUBLIC_ERRORS) },
    },
    handler: async (request, reply) => {
      const { OperatorID, BasketToken } = request.params;
      return reply.code(201).send({ data: await addBasketItem(app.db, OperatorID, BasketToken, request.body, app.config.basketHoldMinutes) });
    },
  });

  app.post('/baskets/:BasketToken/checkout', {
    config,
    schema: {
      tags,
      summary: 'Pay a basket',
      description:
        'Pays the total and confirms every booking (Source online), in one step: all or nothing. A basket is paid once (409 after). ' +
        '409 when an item\'s hold has lapsed (nothing is charged or confirmed); 422 when the card is declined (field Payment.CardNumber). ' +
        'Payment is required when the total is above 0. Accepts Idempotency-Key: a retry answers the first payment\'s response.',
      params: BasketParams,
      headers: IdempotencyHeaders,
      body: CheckoutBody,
      response: { 200: envelope(Basket), ...problems(400, 404, 409, 413, 415, 422, ...PUBLIC_ERRORS) },
    },
    handler: async (request, reply) => {
      const header = request.headers['idempotency-key'];
      const key = Array.isArray(header) ? header.join(',') : header;
      const { result, replayed } = await checkout(app.db, request.params.OperatorID, request.params.BasketToken, request.body, key);
      if (replayed) reply.header('Idempotent-Replayed', 'true');
      // The write answers 200 with the paid basket; a replay answers exactly that again.
      return reply.code(200).send(result.body as { data: BasketBody });
    },
  });

  app.post('/waitlists', {
    config,
    schema: {
      tags,
      summary: 'Join the waitlist of a sold-out timeslot',
      description:
        'For a timeslot without room for the party (409 if the seats are there: book them). When seats free up, waiting customers are offered them in the order they joined: ' +
        'the seats are held in a basket for them and they are e-mailed a link to pay it. 409 when the e-mail address already waits for this timeslot.',
      params: ShopParams,
      body: JoinWaitlistBody,
      response: { 201: envelope(WaitlistEntry), ...problems(400, 404, 409, 413, 415, 422, ...PUBLIC_ERRORS) },
    },
    handler: async (request, reply) => reply.code(201).send({ data: await joinWaitlist(app.db, request.params.OperatorID, request.body) }),
  });

  // Waiver files of a basket's guests: in a plugin of their own, whose bodies are bytes, not JSON.
  await app.register(shopUploadRoutes);
};
