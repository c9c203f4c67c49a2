import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const bookingAdminRoutes: FastifyPluginAsyncTypebox = async () => {};
