// Operator API: whether the operator's public shop answers, and whether it is a test shop. New operators'
// shops are closed until opened; in production a shop opens only with a payment provider (Stripe, or test mode).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { requires } from '../access/permissions.js';
import { AUTH_ERRORS, envelope, problems } from '../http/schemas.js';
import { changeShop, shopState, type ShopState } from './settings.js';
import { PAYMENT_PROVIDERS, type PaymentProviderName } from '../payments/schemas.js';

const ShopSettings = Type.Object(
  {
    Open: Type.Boolean({
      description:
        'Whether the public shop (and its waitlists) answers; a closed shop is 404 to everyone, like one that does not exist. ' +
        'An opened shop without a payment provider (PaymentProvider null) answers as closed.',
    }),
    TestMode: Type.Boolean({
      description:
        'A test shop: the test provider charges its checkouts (test cards such as 4242424242424242; no money moves), in production too, ' +
        'and its booking pages say "test mode" on every page, even with a Stripe account connected. In production a shop opens with a Stripe account, or in test mode.',
    }),
    PaymentProvider: Type.Union([Type.Unsafe<PaymentProviderName>({ type: 'string', enum: [...PAYMENT_PROVIDERS] }), Type.Null()], {
      description:
        "Who charges the shop's checkouts: stripe (the operator's Stripe account, PUT /api/v2/admin/settings/stripe; not in test mode), " +
        'test (no real money; in test mode, or outside production without Stripe), or null: nobody (production without either), so the shop cannot open',
    }),
    URL: Type.String({ description: "The public address of the shop's API" }),
    UpdatedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When it was last opened, closed or switched in or out of test mode',
    }),
  },
  { $id: 'ShopSettings' },
);
type ShopSettings = Static<typeof ShopSettings>;

const ShopSettingsBody = Type.Object(
  {
    Open: Type.Optional(Type.Boolean({ description: 'true opens the shop to the public, false closes it' })),
    TestMode: Type.Optional(Type.Boolean({ description: "true makes it a test shop (see the answer's TestMode); false ends test mode" })),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const shopAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Operator API: online shop'];
  const view = (operatorId: number, state: ShopState): ShopSettings => ({
    Open: state.open,
    TestMode: state.testMode,
    PaymentProvider: state.provider?.name ?? null,
    URL: `${app.config.publicUrl}/api/v2/shop/${operatorId}`,
    UpdatedAt: state.updatedAt === null ? null : new Date(state.updatedAt).toISOString(),
  });

  app.get('/shop', {
    config: requires('settings:manage'),
    schema: { tags, summary: "The online shop's settings", response: { 200: envelope(ShopSettings), ...problems(...AUTH_ERRORS) } },
    handler: async (request) => ({ data: view(request.caller.operatorId, await shopState(app.db.kysely, request.caller.operatorId, app.config)) }),
  });

  app.patch('/shop', {
    config: requires('settings:manage'),
    schema: {
      tags,
      summary: 'Open or close the online shop, or switch its test mode',
      description:
        "A new operator's shop is closed: nobody can open baskets, list timeslots or join waitlists there, and its address answers 404 like one that does not exist. " +
        'Open it when the shop should sell. Closing it later stops new baskets and waitlist places; baskets that already hold seats can still be read and paid by their guests. ' +
        'Only the fields sent change. In production a shop needs a payment provider to open: a connected Stripe account, or test mode; ' +
        'opening one otherwise, or ending test mode while it is open, is 409 on TestMode.',
      body: ShopSettingsBody,
      response: { 200: envelope(ShopSettings), ...problems(...AUTH_ERRORS, 409, 413, 415, 422) },
    },
    handler: async (request) => {
      const { Open: open, TestMode: testMode } = request.body;
      return { data: view(request.caller.operatorId, await changeShop(app.db, app.config, request.caller.operatorId, { open, testMode })) };
    },
  });
};
