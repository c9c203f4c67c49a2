import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const availabilityPartnerRoutes: FastifyPluginAsyncTypebox = async () => {};
