// The OCTo interface, registered under /octo (app.ts). Its conventions (errors, 404/405, empty bodies,
// Octo-Capabilities) are set on this plugin only; the partner API beside it keeps RFC 7807.
import type { FastifyPluginAsync } from 'fastify';
import { registerOctoConventions } from './http.js';
import { octoSupplierRoutes } from './supplier-routes.js';
import { octoCatalogRoutes } from './catalog/routes.js';
import { octoBookingRoutes } from './bookings/routes.js';

export const octoRoutes: FastifyPluginAsync = async (app) => {
  registerOctoConventions(app);
  await app.register(octoSupplierRoutes);
  await app.register(octoCatalogRoutes);
  await app.register(octoBookingRoutes);
};
