import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const questionAdminRoutes: FastifyPluginAsyncTypebox = async () => {};
