// OCTo: supplier, capabilities, products and availability.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { availabilityCalendar, checkAvailability } from './availability.js';
import { wantsOf } from '../http.js';
import { getOctoProduct, listOctoProducts } from './products.js';
import { octoErrors, tags } from '../route-schemas.js';
import { Availability, AvailabilityCalendarDay, Capability, Product, Supplier } from './schemas.js';
import { AvailabilityCalendarBody, AvailabilityCheckBody, CapabilityHeaders, ProductParams } from '../bookings/schemas.js';
import { CAPABILITIES, getSupplier } from '../supplier.js';

const config = { scope: 'ota' as const };

export const octoCatalogRoutes: FastifyPluginAsyncTypebox = async (app) => {
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
        'on bookings (questionAnswers). Send them in Octo-Capabilities.',
      response: { 200: Type.Array(Capability), ...octoErrors() },
    },
    handler: async () => CAPABILITIES,
  });

  app.get('/products', {
    config,
    schema: {
      tags,
      summary: 'OCTo: list products',
      description:
        "Every live activity is a product (id = ActivityID) with one option DEFAULT whose units are its ticket types (unit id = the type's code, " +
        'restrictions its limits); availability is by START_TIME, or OPENING_HOURS for an attraction with a daily capacity.',
      headers: CapabilityHeaders,
      response: { 200: Type.Array(Product), ...octoErrors() },
    },
    handler: async (request) => listOctoProducts(app.db.kysely, request.caller.operatorId, wantsOf(request)),
  });

  app.get('/products/:id', {
    config,
    schema: {
      tags,
      summary: 'OCTo: get a product',
      description: 'An unknown, archived or malformed id is INVALID_PRODUCT_ID (400).',
      params: ProductParams,
      headers: CapabilityHeaders,
      response: { 200: Product, ...octoErrors() },
    },
    handler: async (request) => getOctoProduct(app.db.kysely, request.caller.operatorId, request.params.id, wantsOf(request)),
  });

  app.post('/availability/calendar', {
    config,
    schema: {
      tags,
      summary: 'OCTo: availability calendar',
      description:
        'One entry per date from localDateStart to localDateEnd (at most 366 days): vacancies is the most seats left in one timeslot of the day, ' +
        "capacity the day's total; a day without timeslots is CLOSED. units mark days without room for their seats as not available.",
      headers: CapabilityHeaders,
      body: AvailabilityCalendarBody,
      response: { 200: Type.Array(AvailabilityCalendarDay), ...octoErrors() },
    },
    handler: async (request) => availabilityCalendar(app.db.kysely, request.caller.operatorId, request.body, wantsOf(request)),
  });

  app.post('/availability', {
    config,
    schema: {
      tags,
      summary: 'OCTo: availability check',
      description:
        'The timeslots of localDate, of localDateStart to localDateEnd, or of availabilityIds (exactly one of these). Each availability id is the ' +
        "timeslot's start with its offset; vacancies are the seats left, the same number as the partner API's Available.",
      headers: CapabilityHeaders,
      body: AvailabilityCheckBody,
      response: { 200: Type.Array(Availability), ...octoErrors() },
    },
    handler: async (request) => checkAvailability(app.db.kysely, request.caller.operatorId, request.body, wantsOf(request)),
  });
};
