// Operator API: whether the operator's public shop answers. New operators' shops are closed until opened.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { requires } from '../access/permissions.js';
import { AUTH_ERRORS, envelope, problems } from '../http/schemas.js';
import { openOrCloseShop, shopState, type ShopState } from './settings.js';

const ShopSettings = Type.Object(
  {
    Open: Type.Boolean({ description: 'Whether the public shop (and its waitlists) answers; a closed shop is 404 to everyone, like one that does not exist' }),
    URL: Type.String({ description: 'The public address of the shop\'s API' }),
    UpdatedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When it was last opened or closed' }),
  },
  { $id: 'ShopSettings' },
);
type ShopSettings = Static<typeof ShopSettings>;

const ShopSettingsBody = Type.Object({ Open: Type.Boolean({ description: 'true opens the shop to the public, false closes it' }) });

export const shopAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Operator API: online shop'];
  const view = (operatorId: number, state: ShopState): ShopSettings => ({
    Open: state.open,
    URL: `${app.config.publicUrl}/api/v2/shop/${operatorId}`,
    UpdatedAt: state.updatedAt === null ? null : new Date(state.updatedAt).toISOString(),
  });

  app.get('/shop', {
    config: requires('settings:manage'),
    schema: { tags, summary: 'The online shop\'s settings', response: { 200: envelope(ShopSettings), ...problems(...AUTH_ERRORS) } },
    handler: async (request) => ({ data: view(request.caller.operatorId, await shopState(app.db.kysely, request.caller.operatorId)) }),
  });

  app.patch('/shop', {
    config: requires('settings:manage'),
    schema: {
      tags,
      summary: 'Open or close the online shop',
      description:
        'A new operator\'s shop is closed: nobody can open baskets, list timeslots or join waitlists there, and its address answers 404 like one that does not exist. ' +
        'Open it when the shop should sell. Closing it later stops new baskets and waitlist places; baskets that already hold seats can still be read and paid by their guests.',
      body: ShopSettingsBody,
      response: { 200: envelope(ShopSettings), ...problems(...AUTH_ERRORS, 413, 415, 422) },
    },
    handler: async (request) => ({ data: view(request.caller.operatorId, await openOrCloseShop(app.db, request.caller.operatorId, request.body.Open)) }),
  });
};
