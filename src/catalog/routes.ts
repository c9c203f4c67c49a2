import etag from '@fastify/etag';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AUTH_ERRORS, envelope, PartnerParams, problems } from '../http/schemas.js';
import { ListProductsQuery, Product, ResolveProductQuery } from './schemas.js';
import { listProducts, resolveProduct } from './service.js';
import { CACHED_ANSWER_NOTE, sendCachedAnswer } from '../http/answer-cache.js';

/** Partner API: the operator's shopfront products. */
export const catalogPartnerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Partners are told to cache the product list; a strong ETag lets them revalidate for free (304).
  await app.register(etag);

  app.get('/products', {
    config: { scope: 'ota' },
    schema: {
      tags: ['Partner API'],
      summary: 'List products',
      description:
        "The activities of the operator's shopfront, ordered by ID, each with its ticket types and their prices (names in Locale where translated). " +
        'Archived activities are not listed.' +
        CACHED_ANSWER_NOTE,
      params: PartnerParams,
      querystring: ListProductsQuery,
      response: {
        200: envelope(Type.Array(Product)),
        304: Type.Null({ description: 'Not Modified (If-None-Match matched)' }),
        ...problems(...AUTH_ERRORS, 422),
      },
    },
    handler: (request, reply) =>
      sendCachedAnswer(
        request,
        reply,
        [request.query.name, request.query.Locale],
        async () => ({
          data: await listProducts(app.db.kysely, request.caller.operatorId, app.config.publicUrl, request.query.name, request.query.Locale),
        }),
        { etag: true },
      ),
  });

  app.get('/resolve-product', {
    config: { scope: 'ota' },
    schema: {
      tags: ['Partner API'],
      summary: 'Resolve a product by ID or name',
      description: `Exactly one of ID or Name. Name matches the whole name, case-insensitively. Locale translates the ticket type names.${CACHED_ANSWER_NOTE}`,
      params: PartnerParams,
      querystring: ResolveProductQuery,
      response: { 200: envelope(Product), 304: Type.Null({ description: 'Not Modified' }), ...problems(400, ...AUTH_ERRORS, 404, 422) },
    },
    handler: (request, reply) =>
      sendCachedAnswer(
        request,
        reply,
        [request.query.ID, request.query.Name, request.query.Locale],
        async () => ({
          data: await resolveProduct(app.db.kysely, request.caller.operatorId, request.query, app.config.publicUrl),
        }),
        { etag: true },
      ),
  });
};
