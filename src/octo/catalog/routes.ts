// OCTo: products and availability.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { availabilityCalendar, checkAvailability } from './availability.js';
import { wantsOf } from '../http.js';
import { getOctoProduct, listOctoProducts } from './products.js';
import { octoErrors, tags } from '../route-schemas.js';
import { CapabilityHeaders } from '../schemas.js';
import { Availability, AvailabilityCalendarBody, AvailabilityCalendarDay, AvailabilityCheckBody, Product, ProductParams } from './schemas.js';

const config = { scope: 'ota' as const };

export const octoCatalogRoutes: FastifyPluginAsyncTypebox = async (app) => {
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
    handler: async (request) => listOctoProducts(app.db.kysely, request.caller.operatorId, wantsOf(request), app.config.publicUrl),
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
    handler: async (request) => getOctoProduct(app.db.kysely, request.caller.operatorId, request.params.id, wantsOf(request), app.config.publicUrl),
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
