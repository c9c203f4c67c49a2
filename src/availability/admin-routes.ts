import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const timeslotAdminRoutes: FastifyPluginAsyncTypebox = async () => {};
