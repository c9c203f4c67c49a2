import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const usageRoutes: FastifyPluginAsyncTypebox = async () => {};
