// The shop's public waitlist endpoint: registered under the shop's prefix (/api/v2/shop/{OperatorID}),
// public and rate-limited per client address like the rest of the shop (`shopper`), 404 in a closed or
// unknown shop. The confirmation page a guest opens from the e-mail is page-routes.ts.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { envelope, problems } from '../http/schemas.js';
import { clientFingerprint } from '../shop/client.js';
import { ShopParams } from '../shop/schemas.js';
import { requireOpenShop } from '../shop/settings.js';
import { joinWaitlist } from './joining.js';
import { JoinWaitlistBody, WaitlistJoinAccepted } from './schemas.js';

export const waitlistShopRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Online shop (public)'];
  const config = { shopper: true };
  const settings = app.config;
  app.addHook('preHandler', async (request) => {
    await requireOpenShop(app.db.kysely, (request.params as { OperatorID: number }).OperatorID, app.config);
  });

  app.post('/waitlists', {
    config,
    schema: {
      tags,
      summary: 'Ask for a place on the waitlist of a sold-out timeslot',
      description:
        'For a timeslot without room for the party (409 if the seats are there: book them). 202: the address is sent a link to a page where the guest confirms the place ' +
        `(within ${settings.waitlistConfirmHours} hours, else it lapses); only confirmed places count. The answer is the same whether or not the address already waits ` +
        '(it is told nothing, and sent nothing again). When seats free up, confirmed places are offered them in the order they were confirmed: the seats are held in a ' +
        `basket and the guest is e-mailed a link to pay it. One client address may hold ${settings.waitlistMaxPlacesPerClient} places in a shop at once (429 quota-exceeded). A shop answers once its operator has opened it (PATCH /api/v2/admin/shop); a closed or unknown shop is 404.`,
      params: ShopParams,
      body: JoinWaitlistBody,
      response: { 202: envelope(WaitlistJoinAccepted), ...problems(400, 404, 409, 413, 415, 422, 429) },
    },
    handler: async (request, reply) =>
      reply.code(202).send({ data: await joinWaitlist(app.db, settings, request.params.OperatorID, request.body, clientFingerprint(request)) }),
  });
};
