import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { envelope, problems } from '../http/schemas.js';
import { IdempotencyHeaders } from '../idempotency/http.js';
import { AvailableDate, DatesQuery, DayQuery, Timeslot } from '../availability/schemas.js';
import { listAvailableDates, listDayTimeslots } from '../availability/service.js';
import { Product } from '../catalog/schemas.js';
import { getProduct, listProducts } from '../catalog/service.js';
import { Question } from '../questions/schemas.js';
import { listQuestions } from '../questions/service.js';
import { JoinWaitlistBody, WaitlistEntry } from '../waitlists/schemas.js';
import { joinWaitlist } from '../waitlists/service.js';
import { AddItemBody, Basket, type Basket as BasketBody, BasketParams, CheckoutBody, CreateBasketBody, ShopActivityParams, ShopLocaleQuery, ShopParams } from './schemas.js';
import { addBasketItem, createBasket, getBasket, requireShop } from './baskets.js';
import { checkout } from './checkout.js';

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

  app.get('/activities', {
    config,
    schema: {
      tags,
      summary: 'The activities on sale',
      description:
        'Every live activity of the shop, ordered by ID, with its ticket types and their prices (names in Locale where translated): ' +
        'what a booking page offers. An item books Participants of the Default type, or a Tickets mix.',
      params: ShopParams,
      querystring: ShopLocaleQuery,
      response: { 200: envelope(Type.Array(Product)), ...problems(400, 404, 422, ...PUBLIC_ERRORS) },
    },
    handler: async (request) => {
      await requireShop(app.db.kysely, request.params.OperatorID);
      return { data: await listProducts(app.db.kysely, request.params.OperatorID, undefined, request.query.Locale) };
    },
  });

  app.get('/activities/:ActivityID', {
    config,
    schema: {
      tags,
      summary: 'One activity with its ticket types',
      params: ShopActivityParams,
      querystring: ShopLocaleQuery,
      response: { 200: envelope(Product), ...problems(400, 404, 422, ...PUBLIC_ERRORS) },
    },
    handler: async (request) => ({ data: await getProduct(app.db.kysely, request.params.OperatorID, request.params.ActivityID, request.query.Locale) }),
  });

  app.get('/activities/:ActivityID/dates', {
    config,
    schema: {
      tags,
      summary: 'Dates with room',
      description: 'The dates from StartDate to EndDate (at most 366 days apart) with a seat left, as the partner API answers them.',
      params: ShopActivityParams,
      querystring: DatesQuery,
      response: { 200: envelope(Type.Array(AvailableDate)), ...problems(400, 404, 422, ...PUBLIC_ERRORS) },
    },
    handler: async (request) => ({ data: await listAvailableDates(app.db.kysely, request.params.OperatorID, request.params.ActivityID, request.query) }),
  });

  app.get('/activities/:ActivityID/questions', {
    config,
    schema: {
      tags,
      summary: 'Waiver questions',
      description:
        'The questions an item\'s WaiverAnswers answer, by Position, in Locale where translated. File questions need a FileID, which only the partner API\'s uploads give: ' +
        'a booking page leaves them to the waiver (pending) or its own upload flow.',
      params: ShopActivityParams,
      querystring: ShopLocaleQuery,
      response: { 200: envelope(Type.Array(Question)), ...problems(400, 404, 422, ...PUBLIC_ERRORS) },
    },
    handler: async (request) => ({ data: await listQuestions(app.db.kysely, request.params.OperatorID, request.params.ActivityID, request.query.Locale) }),
  });

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
        `Holds the seats (a booking of Source online, on_hold) for ${app.config.basketHoldMinutes} minutes: Participants of the default ticket type, or a Tickets mix ` +
        '(priced per type; Tickets[i].Quantity names a failing line). The partner API\'s rules apply: 404 no such activity or timeslot, ' +
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
};
