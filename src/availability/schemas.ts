import { Type, type Static } from '@sinclair/typebox';
import { ClockTime, LocalDate, RowId } from '../http/schemas.js';

/** At most this many days from the start to the end of a requested range (a leap year and a day). */
export const MAX_RANGE_DAYS = 366;

export const Timeslot = Type.Object(
  {
    Time: Type.String({ description: "Start, HH:MM wall clock in the activity's time zone" }),
    EndTime: Type.String({ description: "End, HH:MM wall clock in the activity's time zone" }),
    StartsAt: Type.String({ format: 'date-time', description: 'Start as ISO 8601 with the offset in force that day' }),
    Capacity: Type.Integer(),
    Booked: Type.Integer({ description: 'Seats taken by confirmed bookings and live holds' }),
    Available: Type.Integer({ description: 'Seats that can still be booked: Capacity - Booked, and 0 once the timeslot has started' }),
  },
  { $id: 'Timeslot' },
);
export type Timeslot = Static<typeof Timeslot>;

export const AvailableDate = Type.Object(
  {
    Date: LocalDate,
    Timeslots: Type.Integer({ description: 'Timeslots of the day with at least one seat left' }),
    Available: Type.Integer({ description: 'Seats left over all timeslots of the day' }),
  },
  { $id: 'AvailableDate' },
);
export type AvailableDate = Static<typeof AvailableDate>;

export const AdminTimeslot = Type.Composite(
  [
    Type.Object({
      ID: Type.Integer({ description: 'Timeslot ID, for PATCH /timeslots/{ID}' }),
      ActivityID: Type.String(),
      Date: LocalDate,
    }),
    Timeslot,
    Type.Object({
      Free: Type.Integer({ description: 'Capacity - Booked, also after the start (for the record)' }),
      CancelledAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
        description: 'When the operator cancelled the departure (POST /timeslots/{ID}/cancel): it takes no bookings; null unless cancelled',
      }),
    }),
  ],
  // No $id: the creation response lists it in both branches of a union, and an $id may appear once.
  { title: 'AdminTimeslot' },
);
export type AdminTimeslot = Static<typeof AdminTimeslot>;

export const DatesQuery = Type.Object({
  StartDate: LocalDate,
  EndDate: Type.String({ format: 'date', description: `A calendar date, YYYY-MM-DD, from StartDate to ${MAX_RANGE_DAYS} days after it` }),
});
export type DatesQuery = Static<typeof DatesQuery>;

export const DayQuery = Type.Object({ Date: LocalDate });

export const AdminRangeQuery = Type.Object({
  From: LocalDate,
  To: Type.String({ format: 'date', description: `A calendar date, YYYY-MM-DD, from From to ${MAX_RANGE_DAYS} days after it` }),
});
export type AdminRangeQuery = Static<typeof AdminRangeQuery>;

const Capacity = Type.Integer({ minimum: 1, maximum: 100_000, description: 'Seats of each timeslot' });

/**
 * One object with the fields of both shapes rather than a JSON Schema union: a union would report every
 * field of the shape the client did not mean as missing. The service picks the shape and says which
 * fields it lacks.
 */
export const CreateTimeslotsBody = Type.Object(
  {
    Date: Type.Optional(LocalDate),
    Time: Type.Optional(ClockTime),
    From: Type.Optional(LocalDate),
    To: Type.Optional(LocalDate),
    Weekdays: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1, maximum: 7 }), {
        minItems: 1,
        maxItems: 7,
        uniqueItems: true,
        description: 'ISO weekdays, 1 = Monday ... 7 = Sunday',
      }),
    ),
    Times: Type.Optional(Type.Array(ClockTime, { minItems: 1, maxItems: 96, uniqueItems: true, description: 'Start times, HH:MM' })),
    Capacity,
  },
  {
    description:
      `Either one timeslot {Date, Time, Capacity}, or a schedule {From, To, Weekdays, Times, Capacity} creating a timeslot at each of Times on each of Weekdays from From to To (at most ${MAX_RANGE_DAYS} days apart). ` +
      'A schedule skips date and time pairs that already exist or that the time zone skips (daylight saving) and answers only the timeslots it created.',
  },
);
export type CreateTimeslotsBody = Static<typeof CreateTimeslotsBody>;

export const UpdateTimeslotBody = Type.Object({
  Capacity: Type.Integer({ minimum: 0, maximum: 100_000, description: 'New capacity; not below the seats already booked. 0 closes the timeslot.' }),
});
export type UpdateTimeslotBody = Static<typeof UpdateTimeslotBody>;

// The database's INTEGER is 32 bits: a larger ID must be a 400 here, not an out-of-range error in SQL.

export const TimeslotIdParams = Type.Object({ ID: RowId('Timeslot ID') });
