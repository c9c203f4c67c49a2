// Operator API: the Viator connection (docs/channels/viator.md). Owners and admin keys only (keys:manage):
// the key Viator sends lets a marketplace book and cancel, as an API key does.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { requires } from '../access/permissions.js';
import { AUTH_ERRORS, envelope, problems } from '../http/schemas.js';
import { ActivityParams, OutboundBody, ProductMappingBody, UpdateConnectionBody, ViatorConnection, ViatorProductMapping } from './admin-schemas.js';
import { getConnection, listProducts, mapProduct, rotateKey, setOutboundKey, updateConnectionSettings } from './connection.js';

const tags = ['Operator API: Viator'];
const permission = requires('keys:manage');

export const viatorAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const settings = app.config;

  app.get('/viator', {
    config: permission,
    schema: {
      tags,
      summary: 'The Viator connection',
      description:
        "Whether it is set up and switched on, the base URL to give Viator and the start of its key (never the key), Viator's supplier ID, " +
        "the hold length, whether Viator's key for its notification endpoint is stored, and the latest requests of Viator.",
      response: { 200: envelope(ViatorConnection), ...problems(...AUTH_ERRORS) },
    },
    handler: async (request) => ({ data: await getConnection(app.db.kysely, settings, request.caller.operatorId) }),
  });

  app.patch('/viator', {
    config: permission,
    schema: {
      tags,
      summary: 'Set up or change the Viator connection',
      description:
        "Switch it on or off, or set Viator's supplier ID (digits). The first change sets the connection up with a new key for Viator " +
        'to send: that answer carries the Key, shown once.',
      body: UpdateConnectionBody,
      response: { 200: envelope(ViatorConnection), ...problems(400, ...AUTH_ERRORS, 413, 415, 422) },
    },
    handler: async (request) => ({ data: await updateConnectionSettings(app.db, settings, request.caller.operatorId, request.body) }),
  });

  app.post('/viator/key', {
    config: permission,
    schema: {
      tags,
      summary: 'Rotate the key Viator sends',
      description: 'A new key for Viator to send in X-Api-Key; the old one stops working at once. The Key is in this answer only.',
      response: { 200: envelope(ViatorConnection), ...problems(...AUTH_ERRORS) },
    },
    handler: async (request) => ({ data: await rotateKey(app.db, settings, request.caller.operatorId) }),
  });

  app.put('/viator/outbound', {
    config: permission,
    schema: {
      tags,
      summary: "Store Viator's key for its notification endpoint",
      description: 'The API key Viator issued for posting availability, capacity and price changes. It is sealed and never shown again.',
      body: OutboundBody,
      response: { 200: envelope(ViatorConnection), ...problems(400, ...AUTH_ERRORS, 413, 415, 422) },
    },
    handler: async (request) => ({ data: await setOutboundKey(app.db, app.instanceKeys, settings, request.caller.operatorId, request.body) }),
  });

  app.delete('/viator/outbound', {
    config: permission,
    schema: {
      tags,
      summary: "Forget Viator's key for its notification endpoint (nothing is pushed without it)",
      response: { 200: envelope(ViatorConnection), ...problems(...AUTH_ERRORS) },
    },
    handler: async (request) => ({ data: await setOutboundKey(app.db, app.instanceKeys, settings, request.caller.operatorId, null) }),
  });

  app.get('/viator/products', {
    config: permission,
    schema: {
      tags,
      summary: 'What Viator may sell',
      description:
        "Every live activity with the product option ID Viator books it by (null: not offered), and each ticket type's Viator age band: " +
        'offered, or the reason it is not (no band, a band taken by another type, a family ticket not mapped to UNIT, ...).',
      response: { 200: envelope(Type.Array(ViatorProductMapping)), ...problems(...AUTH_ERRORS) },
    },
    handler: async (request) => ({ data: await listProducts(app.db.kysely, request.caller.operatorId) }),
  });

  app.put('/viator/products/:ActivityID', {
    config: permission,
    schema: {
      tags,
      summary: 'Offer an activity on Viator',
      description:
        'ProductOptionID: the ID Viator books the activity by (null: no longer offered); unique per operator (422). ' +
        "Bands: a ticket type's Viator age band or UNIT (NONE: not offered; null: back to the default its own category implies).",
      params: ActivityParams,
      body: ProductMappingBody,
      response: { 200: envelope(ViatorProductMapping), ...problems(400, ...AUTH_ERRORS, 404, 413, 415, 422) },
    },
    handler: async (request) => ({ data: await mapProduct(app.db, request.caller.operatorId, request.params.ActivityID, request.body) }),
  });
};
