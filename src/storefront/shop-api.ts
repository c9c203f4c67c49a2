// The public shop API, registered from this one place under /api/v2/shop/{OperatorID} (app.ts): the
// catalogue and baskets with their checkout (shop-routes.ts), waitlists, and what the booking pages need
// beyond them (api-routes.ts: the storefront, calendars, a guest's booking). Public, rate-limited per client
// address, a closed or unknown shop a 404.
import type { FastifyPluginAsync } from 'fastify';
import { waitlistShopRoutes } from '../waitlists/routes.js';
import { storefrontApiRoutes } from './api-routes.js';
import { shopRoutes } from './shop-routes.js';

export const publicShopApi: FastifyPluginAsync = async (app) => {
  await app.register(shopRoutes);
  await app.register(waitlistShopRoutes);
  await app.register(storefrontApiRoutes);
};
