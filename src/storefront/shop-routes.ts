import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { envelope, problems } from '../http/schemas.js';
import { IdempotencyHeaders, idempotencyKeyOf, routeOf, sendWriteResult } from '../idempotency/http.js';
import { AvailableDate, DatesQuery, DayQuery, Timeslot } from '../availability/schemas.js';
import { listAvailableDates, listDayTimeslots } from '../availability/service.js';
import { Product } from '../catalog/schemas.js';
import { getProduct, listProducts } from '../catalog/service.js';
import { Question } from '../questions/schemas.js';
import { listQuestions } from '../questions/service.js';
import {
  AddItemBody,
  Basket,
  BasketParams,
  CheckoutBody,
  CreateBasketBody,
  ShopActivityParams,
  ShopLocaleQuery,
  ShopParams,
} from '../shop/schemas.js';
import { addBasketItem, beginCheckout, createBasket, getBasket } from '../shop/baskets.js';
import { checkout } from '../flows/checkout.js';
import { shopUploadRoutes } from '../shop/uploads.js';
import { clientFingerprint } from '../shop/client.js';
import { requireOpenShop } from '../shop/settings.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A public shop route: no API key, but rate-limited per client address (app.ts). */
    shopper?: boolean;
    /**
     * A shop route that answers in a closed shop too: what a guest needs to finish a basket opened while
     * the shop was open (read it, begin checkout, pay). Every other shop route is 404 in a closed shop.
     */
    whileClosed?: boolean;
  }
}

// Public API errors: no 401/403 (no key), 429 from the per-address rate limit (and the shop's quotas).
const PUBLIC_ERRORS = [429] as const;

/**
 * The operator's public online shop: no API key. It answers once the operator has opened it (a closed
 * shop is 404 like an unknown one); baskets are addressed by their random token only. What one client
 * address may hold is bounded (limits.ts); the address is only ever stored as an HMAC (client.ts).
 */
export const shopRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Online shop (public)'];
  const config = { shopper: true };
  const basketConfig = { shopper: true, whileClosed: true };
  const settings = app.config;
  const closed = 'A shop answers once its operator has opened it (PATCH /api/v2/admin/shop); a closed or unknown shop is 404.';

  // One check for every route of the shop (and its uploads), so that no handler can forget it: a preHandler
  // runs after validation (OperatorID is a number by then) and before the handler, as the check used to.
  app.addHook('preHandler', async (request) => {
    if (request.routeOptions.config.whileClosed) return;
    await requireOpenShop(app.db.kysely, (request.params as { OperatorID: number }).OperatorID, app.config);
  });

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
    handler: async (request) => ({
      data: await listProducts(app.db.kysely, request.params.OperatorID, app.config.publicUrl, undefined, request.query.Locale),
    }),
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
    handler: async (request) => ({
      data: await getProduct(app.db.kysely, request.params.OperatorID, request.params.ActivityID, app.config.publicUrl, request.query.Locale),
    }),
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
    handler: async (request) => ({
      data: await listAvailableDates(app.db.kysely, request.params.OperatorID, request.params.ActivityID, request.query),
    }),
  });

  app.get('/activities/:ActivityID/questions', {
    config,
    schema: {
      tags,
      summary: 'Waiver questions',
      description:
        "The questions an item's WaiverAnswers answer, by Position, in Locale where translated. A file question is answered with the FileID of a file " +
        'uploaded to the basket (POST .../baskets/{BasketToken}/uploads).',
      params: ShopActivityParams,
      querystring: ShopLocaleQuery,
      response: { 200: envelope(Type.Array(Question)), ...problems(400, 404, 422, ...PUBLIC_ERRORS) },
    },
    handler: async (request) => ({
      data: await listQuestions(app.db.kysely, request.params.OperatorID, request.params.ActivityID, request.query.Locale),
    }),
  });

  app.get('/activities/:ActivityID/timeslots', {
    config,
    schema: {
      tags,
      summary: 'Timeslots of a day',
      description: `Every timeslot of the date with the seats left, as the partner API answers it. Sold-out timeslots (Available 0) take a waitlist. ${closed}`,
      params: ShopActivityParams,
      querystring: DayQuery,
      response: { 200: envelope(Type.Array(Timeslot)), ...problems(400, 404, 422, ...PUBLIC_ERRORS) },
    },
    handler: async (request) => ({
      data: await listDayTimeslots(app.db.kysely, request.params.OperatorID, request.params.ActivityID, request.query.Date),
    }),
  });

  app.post('/baskets', {
    config,
    schema: {
      tags,
      summary: 'Open a basket',
      description:
        `Answers the basket with its BasketToken: the only way to read, fill and pay it, so keep it private. One client address may open ${settings.shopMaxBasketsPerClientHour} ` +
        `baskets an hour in a shop (429 quota-exceeded, with Retry-After). ${closed}`,
      params: ShopParams,
      body: CreateBasketBody,
      response: { 201: envelope(Basket), ...problems(400, 404, 413, 415, 422, ...PUBLIC_ERRORS) },
    },
    handler: async (request, reply) => {
      const basket = await createBasket(app.db, settings, request.params.OperatorID, request.body, clientFingerprint(request));
      return reply.code(201).header('Location', `/api/v2/shop/${request.params.OperatorID}/baskets/${basket.BasketToken}`).send({ data: basket });
    },
  });

  app.get('/baskets/:BasketToken', {
    config: basketConfig,
    schema: {
      tags,
      summary: 'Get a basket with its total',
      params: BasketParams,
      response: { 200: envelope(Basket), ...problems(400, 404, ...PUBLIC_ERRORS) },
    },
    handler: async (request) => ({ data: await getBasket(app.db.kysely, request.params.OperatorID, request.params.BasketToken) }),
  });

  app.post('/baskets/:BasketToken/items', {
    config,
    schema: {
      tags,
      summary: 'Add a timeslot to a basket',
      description:
        `Holds the seats (a booking of Source online, on_hold) for ${settings.basketHoldMinutes} minutes while the guest is choosing; begin checkout to hold them longer. ` +
        'An item books Participants of the default ticket type, or a Tickets mix (priced per type; Tickets[i].Quantity names a failing line). ' +
        "The partner API's rules apply: 404 no such activity or timeslot, 422 invalid fields or a started timeslot, 409 not enough seats left (join the waitlist), " +
        "the basket is paid or its checkout has begun. Every item is in the basket's one currency. " +
        `A basket holds at most ${settings.shopMaxSeatsPerBasket} seats at once (422 on Participants); one client address at most ${settings.shopMaxHeldSeatsPerClient} ` +
        'in this shop over all its baskets (429 quota-exceeded, Retry-After: when its first hold lapses).',
      params: BasketParams,
      body: AddItemBody,
      response: { 201: envelope(Basket), ...problems(400, 404, 409, 413, 415, 422, ...PUBLIC_ERRORS) },
    },
    handler: async (request, reply) => {
      const { OperatorID, BasketToken } = request.params;
      return reply.code(201).send({ data: await addBasketItem(app.db, settings, OperatorID, BasketToken, request.body, clientFingerprint(request)) });
    },
  });

  app.post('/baskets/:BasketToken/begin-checkout', {
    config: basketConfig,
    schema: {
      tags,
      summary: 'Begin checkout: hold the seats while the guest pays',
      description:
        `The guest is done choosing: every item still on hold is held for ${settings.checkoutHoldMinutes} minutes from now (never less than it was, never beyond ` +
        `${settings.holdMaxLifetimeMinutes} minutes after it was added), and the basket takes no more items. Granted once per basket: calling again answers the ` +
        'basket unchanged. 409 when the basket is paid or holds no seats.',
      params: BasketParams,
      response: { 200: envelope(Basket), ...problems(400, 404, 409, ...PUBLIC_ERRORS) },
    },
    handler: async (request) => ({ data: await beginCheckout(app.db, settings, request.params.OperatorID, request.params.BasketToken) }),
  });

  app.post('/baskets/:BasketToken/checkout', {
    config: basketConfig,
    schema: {
      tags,
      summary: 'Pay a basket',
      description:
        'Pays the total and confirms every booking (Source online), in one step: all or nothing. A basket is paid once (409 after). ' +
        "409 when an item's hold has lapsed (nothing is charged or confirmed); 422 when the card is declined (field Payment.CardNumber). " +
        "Payment is required when the total is above 0. Accepts Idempotency-Key (it counts within the basket; the card number is no part of the request's fingerprint): " +
        "a retry answers the first payment's response. After 3 declines in 24 hours for the basket or from the address, each further attempt waits, " +
        '30 seconds after the 3rd and twice as long after each next one, at most an hour (429 too-many-declines, Retry-After). ' +
        '409 also when another payment from the same address is in progress, and when the shop takes no payments (in production, a shop without Stripe ' +
        'and not in test mode: nothing is charged or confirmed). ' +
        'With Stripe (the operator connected its account; Payment.Provider stripe, no card): 200 with the basket awaiting_payment and Payment.RedirectURL, ' +
        "Stripe's Checkout page for it, where the guest pays; Stripe's webhook then confirms the basket (GET the basket until Status is paid). " +
        'The seats are held until the session expires (30 minutes) and 5 minutes more: 409 when they cannot be held that long (HOLD_MAX_LIFETIME_MINUTES). ' +
        'Calling again answers the same session while it lasts; 502 when Stripe cannot be reached (nothing charged, the seats stay held). See docs/payments.md.',
      params: BasketParams,
      headers: IdempotencyHeaders,
      body: CheckoutBody,
      response: { 200: envelope(Basket), ...problems(400, 404, 409, 413, 415, 422, ...PUBLIC_ERRORS, 502) },
    },
    handler: async (request, reply) => {
      const payer = { clientHmac: clientFingerprint(request), idempotencyKey: idempotencyKeyOf(request), route: routeOf(request) };
      // The write answers 200 with the paid basket; a replay answers exactly that again.
      return sendWriteResult(
        reply,
        await checkout(app.db, app.instanceKeys, app.config, request.params.OperatorID, request.params.BasketToken, request.body, payer),
      );
    },
  });

  // Waiver files of a basket's guests: in a plugin of their own, whose bodies are bytes, not JSON.
  await app.register(shopUploadRoutes);
};
