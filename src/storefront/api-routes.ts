// The public shop endpoints the booking pages need beyond the baskets (shop-routes.ts): registered with them
// (/api/v2/shop/{OperatorID}), public and rate-limited per client address like the rest of the shop, in
// OpenAPI through their TypeBox schemas. A closed or unknown shop is 404, as there.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { envelope, problems } from '../http/schemas.js';
import { localeOf } from '../catalog/service.js';
import { requireOpenShop, takesTestPayments } from '../shop/settings.js';
import { ShopActivityParams, ShopLocaleQuery, ShopParams } from '../shop/schemas.js';
import { CalendarDay, CalendarQuery, Storefront } from './schemas.js';
import { activityCalendar, storefront } from './service.js';
import { manageRoutes } from './manage-routes.js';

export const storefrontApiRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Online shop (public)'];
  const config = { shopper: true };

  app.get('/storefront', {
    config,
    schema: {
      tags,
      summary: "The shop's profile and activities, for its booking pages",
      description:
        'What the first booking page shows, in one answer: how to present the operator (Profile: name, slug, brand colour, logo) and every live activity ' +
        'with its lowest price (PriceFrom), the first date with a seat left within a year (NextAvailableDate) and whether guests may cancel online; ' +
        'TestMode: the shop takes no real payments, which its pages say on every page.',
      params: ShopParams,
      querystring: ShopLocaleQuery,
      response: { 200: envelope(Storefront), ...problems(400, 404, 422, 429) },
    },
    handler: async (request) => {
      const shop = await requireOpenShop(app.db.kysely, request.params.OperatorID, app.config);
      return { data: await storefront(app.db.kysely, request.params.OperatorID, localeOf(request.query.Locale), takesTestPayments(shop)) };
    },
  });

  app.get('/activities/:ActivityID/calendar', {
    config,
    schema: {
      tags,
      summary: "An activity's month calendar",
      description:
        'Every date of Month with timeslots that have not started: the seats left over them, and SoldOut when none is left (those timeslots take a waitlist). ' +
        'Dates without timeslots are not listed.',
      params: ShopActivityParams,
      querystring: CalendarQuery,
      response: { 200: envelope(Type.Array(CalendarDay)), ...problems(400, 404, 422, 429) },
    },
    handler: async (request) => {
      await requireOpenShop(app.db.kysely, request.params.OperatorID, app.config);
      return { data: await activityCalendar(app.db.kysely, request.params.OperatorID, request.params.ActivityID, request.query.Month) };
    },
  });

  await app.register(manageRoutes);
};
