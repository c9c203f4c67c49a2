import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const bookingPartnerRoutes: FastifyPluginAsyncTypebox = async () => {};
