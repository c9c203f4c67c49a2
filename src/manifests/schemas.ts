// The manifest (who is on a timeslot), check-in requests and the no-show report, as the API shows them.
import { Type, type Static } from '@sinclair/typebox';
import { LocalDate, RowId } from '../http/schemas.js';
import { BookingWaiverAnswer } from '../questions/schemas.js';
import { PaymentStateField } from '../payments/schemas.js';

/** What is still due, per currency (exact sums, never mixed). */
export const DueAmount = Type.Object({
  Currency: Type.String(),
  Amount: Type.String({ description: 'A decimal in Currency ("80.00", "3000" JPY)' }),
  AmountMinorUnits: Type.Integer(),
});
export type DueAmount = Static<typeof DueAmount>;
const DueField = Type.Array(DueAmount, {
  description: 'What the confirmed bookings still owe the operator, one line per currency with something due (docs/payments.md, "The desk")',
});

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const ATTENDANCE = ['not-arrived', 'partial', 'checked-in', 'no-show'] as const;
export type Attendance = (typeof ATTENDANCE)[number];

export const ManifestTimeslot = Type.Object(
  {
    TimeslotID: Type.Integer(),
    ActivityID: Type.String(),
    ActivityName: Type.String(),
    Date: LocalDate,
    Time: Type.String({ description: "HH:MM in the activity's time zone" }),
    TimeZone: Type.String({ description: "The activity's time zone (IANA): Date, Time and the check-in times are read there" }),
    StartsAt: Type.String({ format: 'date-time' }),
    EndsAt: Type.String({ format: 'date-time' }),
    Ended: Type.Boolean({ description: 'The timeslot is over: guests not checked in count as no-shows' }),
    Capacity: Type.Integer(),
    Bookings: Type.Integer({ description: 'Confirmed bookings' }),
    Guests: Type.Integer({ description: 'People of the confirmed bookings' }),
    CheckedIn: Type.Integer({ description: 'People checked in' }),
    NoShows: Type.Integer({ description: 'Once Ended: confirmed bookings with nobody checked in' }),
    Due: DueField,
  },
  { $id: 'ManifestTimeslot' },
);
export type ManifestTimeslot = Static<typeof ManifestTimeslot>;

export const ManifestDay = Type.Object({
  Date: Type.String({
    format: 'date',
    description: "The date asked for; without one, today in the zone of the operator's first activity (each timeslot carries its own Date)",
  }),
  Today: Type.Boolean({
    description: "No date was asked for: the timeslots are each activity's own today in its time zone (two zones can be on different dates)",
  }),
  Timeslots: Type.Array(ManifestTimeslot, { description: "The day's timeslots by time, then activity name" }),
  Due: DueField,
});
export type ManifestDay = Static<typeof ManifestDay>;

const ManifestTicket = Type.Object({
  Type: Type.String({ description: 'The ticket type code (adult, child, ...)' }),
  Name: Type.String(),
  Quantity: Type.Integer(),
  People: Type.Integer({ description: 'People one ticket of this type admits' }),
  CheckedIn: Type.Integer({ description: 'Tickets of this type checked in, 0 to Quantity' }),
});

export const ManifestEntry = Type.Object(
  {
    BookingReference: Type.String(),
    Status: Type.String({ description: "The booking's status: the manifest lists confirmed bookings; a look-up by reference may find another" }),
    Customer: Type.Object({ FirstName: Type.String(), LastName: Type.String(), Email: Type.String(), Phone: Type.String() }),
    Participants: Type.Integer({ description: 'Party size (people)' }),
    Tickets: Type.Array(ManifestTicket),
    CheckedIn: Type.Integer({ description: 'People checked in' }),
    CheckedInAt: Nullable(Type.String({ format: 'date-time', description: 'The first check-in; null while nobody is in' })),
    Attendance: Type.Unsafe<Attendance>({
      type: 'string',
      enum: [...ATTENDANCE],
      description: 'not-arrived, partial (some of the party), checked-in (everyone); no-show once the timeslot ended with nobody in',
    }),
    Source: Type.String({ description: 'partner, online or pos' }),
    Channel: Type.String({ description: 'Where it was sold, for people: "Partner API: viator", "OCTo: viator", "Online shop", "Point of sale"' }),
    Partner: Nullable(Type.String({ description: 'The marketplace, for partner and OCTo bookings' })),
    WaiverStatus: Type.String({ description: 'pending or complete' }),
    WaiverMissing: Type.Boolean({
      description:
        'The waiver is pending and the activity asks a required question: check-in needs WaiverConfirmed (staff have checked the guest may take part)',
    }),
    WaiverAnswers: Type.Array(BookingWaiverAnswer, { description: "A file answer's Download is the manifest's own file address (staff only)" }),
    Notes: Nullable(Type.String({ description: "The guest's or reseller's notes (OCTo), their words, not the operator's" })),
    PaymentState: PaymentStateField,
    AmountDue: Type.String({ description: 'What the booking still owes, a decimal in Currency: collect it at check-in (0 for a partner booking)' }),
    AmountDueMinorUnits: Type.Integer(),
    Currency: Type.String({ description: "ISO 4217, the booking's" }),
  },
  { $id: 'ManifestEntry' },
);
export type ManifestEntry = Static<typeof ManifestEntry>;

export const TimeslotManifest = Type.Object({
  Timeslot: ManifestTimeslot,
  Entries: Type.Array(ManifestEntry, { description: 'Confirmed bookings by last name, first name' }),
});
export type TimeslotManifest = Static<typeof TimeslotManifest>;

export const CheckinAnswer = Type.Object({
  Timeslot: ManifestTimeslot,
  Booking: ManifestEntry,
  Changed: Type.Boolean({ description: 'False when the booking already was so (a double tap): nothing was written' }),
});
export type CheckinAnswer = Static<typeof CheckinAnswer>;

export const CheckinBody = Type.Object(
  {
    Tickets: Type.Optional(
      Type.Array(
        Type.Object({
          Type: Type.String({ minLength: 1, maxLength: 64, description: 'A ticket type code of the booking' }),
          CheckedIn: Type.Integer({ minimum: 0, maximum: 1000, description: 'How many of these tickets are in now (not how many more)' }),
        }),
        {
          minItems: 1,
          maxItems: 50,
          description: 'Counts per ticket type; types not named keep theirs. Without Tickets, the whole booking is checked in',
        },
      ),
    ),
    WaiverConfirmed: Type.Optional(
      Type.Boolean({
        description:
          'Staff have confirmed that a guest whose waiver is pending may take part (a paper waiver signed at the desk, say). Checking anyone of a booking with WaiverStatus pending in is 409 naming WaiverConfirmed without it; the audit entry records the confirmation',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CheckinBody = Static<typeof CheckinBody>;

export const ManifestDayQuery = Type.Object({
  Date: Type.Optional(Type.String({ format: 'date', description: "YYYY-MM-DD; when absent, each activity's own today in its time zone" })),
});

export const TimeslotParams = Type.Object({ TimeslotID: RowId('The timeslot ID') });

export const NoShowQuery = Type.Object({
  From: Type.String({ format: 'date', description: 'First date (YYYY-MM-DD)' }),
  To: Type.String({ format: 'date', description: 'Last date, at most 92 days after From' }),
});

export const NoShowTimeslot = Type.Object({
  Timeslot: ManifestTimeslot,
  Entries: Type.Array(ManifestEntry, { description: 'Bookings of the ended timeslot with somebody missing: no-show or partial' }),
});
export const NoShowReport = Type.Object({
  From: LocalDate,
  To: LocalDate,
  Bookings: Type.Integer({ description: 'No-show bookings (nobody checked in) in the period' }),
  Guests: Type.Integer({ description: 'People missing: of no-show and partial bookings' }),
  Timeslots: Type.Array(NoShowTimeslot, { description: 'Ended timeslots with someone missing, by date and time' }),
});
export type NoShowReport = Static<typeof NoShowReport>;
