import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AUTH_ERRORS, envelope, PartnerActivityParams, problems } from '../http/schemas.js';
import { AvailableDate, DatesQuery, DayQuery, MAX_RANGE_DAYS, Timeslot } from './schemas.js';
import { listAvailableDates, listDayTimeslots } from './service.js';
import { CACHED_ANSWER_NOTE, sendCachedAnswer } from '../http/answer-cache.js';

/** Partner API: dates and timeslots with seats left. */
export const availabilityPartnerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Partner API'];

  app.get('/availability/:ActivityID/dates', {
    config: { scope: 'ota' },
    schema: {
      tags,
      summary: 'Get available dates',
      description:
        `The dates from StartDate to EndDate (inclusive, at most ${MAX_RANGE_DAYS} days apart) on which at least one timeslot has a seat left, ascending. ` +
        "Dates are in the activity's time zone. A range without room answers []." +
        CACHED_ANSWER_NOTE,
      params: PartnerActivityParams,
      querystring: DatesQuery,
      response: { 200: envelope(Type.Array(AvailableDate)), ...problems(400, ...AUTH_ERRORS, 404, 422) },
    },
    handler: (request, reply) => {
      const { ActivityID } = request.params;
      const { StartDate, EndDate } = request.query;
      return sendCachedAnswer(request, reply, [ActivityID, StartDate, EndDate], async () => ({
        data: await listAvailableDates(app.db.kysely, request.caller.operatorId, ActivityID, { StartDate, EndDate }),
      }));
    },
  });

  app.get('/availability/:ActivityID/timeslots', {
    config: { scope: 'ota' },
    schema: {
      tags,
      summary: 'Get available timeslots',
      description:
        'Every timeslot of the date, ordered by Time. Sold-out timeslots and those that have started are listed with Available 0. ' +
        "Date and Time are wall-clock values in the activity's time zone; StartsAt carries the offset in force that day." +
        CACHED_ANSWER_NOTE,
      params: PartnerActivityParams,
      querystring: DayQuery,
      response: { 200: envelope(Type.Array(Timeslot)), ...problems(400, ...AUTH_ERRORS, 404, 422) },
    },
    handler: (request, reply) => {
      const { ActivityID } = request.params;
      const { Date } = request.query;
      return sendCachedAnswer(request, reply, [ActivityID, Date], async () => ({
        data: await listDayTimeslots(app.db.kysely, request.caller.operatorId, ActivityID, Date),
      }));
    },
  });
};
