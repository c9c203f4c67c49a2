// OCTo: the supplier and the capabilities of this interface.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { octoErrors, tags } from './route-schemas.js';
import { Capability, CapabilityHeaders, Supplier } from './schemas.js';
import { CAPABILITIES, getSupplier } from './supplier.js';

const config = { scope: 'ota' as const };

export const octoSupplierRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/supplier', {
    config,
    schema: {
      tags,
      summary: 'OCTo: the supplier',
      description:
        "slotbook speaks OCTo (Open Connectivity for Tours, Activities and Attractions) under /octo: any OCTo reseller can sell the operator's " +
        'activities with a Bearer API key of scope ota (its marketplace is the reseller). Errors on /octo are OCTo error bodies, not RFC 7807. ' +
        'The paths of the OCTo document with a trailing slash (/octo/products/) redirect (308) to these. The supplier is the operator of the key.',
      headers: CapabilityHeaders,
      response: { 200: Supplier, ...octoErrors() },
    },
    handler: async (request) => getSupplier(app.db.kysely, request.caller.operatorId, app.config.publicUrl),
  });

  app.get('/capabilities', {
    config,
    schema: {
      tags,
      summary: 'OCTo: capabilities',
      description:
        'octo/pricing: prices of each unit (ticket type), in minor units. octo/questions: the waiver questions on the option and their answers ' +
        "on bookings (questionAnswers). octo/content: the product's title, description, inclusions, meeting point and what to bring (redemptionInstructions) " +
        'and photos (coverImageUrl, galleryImages). Send them in Octo-Capabilities.',
      response: { 200: Type.Array(Capability), ...octoErrors() },
    },
    handler: async () => CAPABILITIES,
  });
};
