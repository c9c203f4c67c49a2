// Staff accounts, the user's side, under /api/v2/staff: signing in (public, sign-in/routes.ts), then one's
// own account (signed in, accounts/routes.ts). One module, so that one Origin check covers them all.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Forbidden } from '../http/errors.js';
import { foreignOrigin } from './sessions/service.js';
import { signInRoutes } from './sign-in/routes.js';
import { ownAccountRoutes } from './accounts/routes.js';

export const staffRoutes: FastifyPluginAsyncTypebox = async (app, options) => {
  // Sign-in requests from another site's page are refused too (login CSRF: signing a victim in as the
  // attacker); signed-in requests get the same check with their CSRF token (sessions/service.ts).
  app.addHook('onRequest', async (request) => {
    if (request.method === 'POST' && foreignOrigin(request)) throw new Forbidden('This request came from another site (Origin); it was refused');
  });
  // Called, not registered: their routes are this module's, in this order, under its hook.
  await signInRoutes(app, options);
  await ownAccountRoutes(app, options);
};
