import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const questionPartnerRoutes: FastifyPluginAsyncTypebox = async () => {};
export const questionCoreRoutes: FastifyPluginAsyncTypebox = async () => {};
