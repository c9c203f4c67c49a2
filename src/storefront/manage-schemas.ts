// The guest's view of their own booking (manage-routes.ts): what they booked and whether they may cancel.
import { Type, type Static } from '@sinclair/typebox';
import { ClockTime, LocalDate } from '../http/schemas.js';
import { BookedTicket } from '../catalog/tickets/schemas.js';

// URL-safe characters only (no "."), so that the server log's redaction sees the whole token as one
// (http/log-redaction.ts replaces path segments of 22 or more such characters on the pages' wildcard route).
export const MANAGE_TOKEN_PATTERN = '^BK-[A-HJ-NP-Z2-9]{8}_[0-9a-f]{32}$';

export const ManageParams = Type.Object({
  OperatorID: Type.Integer({ minimum: 1, description: 'The operator whose shop this is' }),
  ManageToken: Type.String({ pattern: MANAGE_TOKEN_PATTERN, description: "The token of the booking's link in the guest's e-mails" }),
});

export const ManagedBooking = Type.Object(
  {
    BookingReference: Type.String(),
    Status: Type.String({ description: 'on_hold, confirmed, cancelled or expired' }),
    ActivityID: Type.String(),
    ActivityName: Type.String(),
    Timezone: Type.String({ description: "The activity's IANA time zone: Date and Time are its wall clock" }),
    Date: LocalDate,
    Time: Type.String(),
    StartsAt: Type.String({ format: 'date-time' }),
    Participants: Type.Integer(),
    Tickets: Type.Array(BookedTicket),
    Currency: Type.String(),
    Total: Type.Integer(),
    Customer: Type.Object({ FirstName: Type.String(), LastName: Type.String() }),
    Cancellation: Type.Object({
      Allowed: Type.Boolean({ description: 'Whether the guest may cancel now' }),
      Until: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
        description: 'The last moment the guest may cancel; null when the activity does not allow it',
      }),
      Refusal: Type.Union([Type.Literal('not-confirmed'), Type.Literal('not-allowed'), Type.Literal('too-late'), Type.Null()], {
        description: 'Why not: the booking is not confirmed, the operator does not let guests cancel this activity, or the time for it has passed',
      }),
      RefundPercent: Type.Union([Type.Integer(), Type.Null()], {
        description:
          "The percentage of what was paid that cancelling now gives back (the activity's refund rules); null when it cannot be cancelled now",
      }),
      Refund: Type.Union([Type.Integer(), Type.Null()], {
        description: 'What cancelling now gives back, minor units of Currency; null when it cannot be cancelled now or nothing was paid online',
      }),
    }),
    DepartureMessage: Type.Union([Type.String(), Type.Null()], {
      description: "The operator's message when they cancelled the booking's departure (the booking is then cancelled); null otherwise",
    }),
    Reschedule: Type.Object({
      Allowed: Type.Boolean({ description: 'Whether the guest may move it now to another time of the activity with room (POST .../reschedule)' }),
      Until: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
        description: 'The last moment the guest may move it; null when the activity does not allow it',
      }),
      Refusal: Type.Union([Type.Literal('not-confirmed'), Type.Literal('not-allowed'), Type.Literal('too-late'), Type.Null()], {
        description:
          'Why not: the booking is not confirmed, the operator does not let guests move bookings of this activity, or the time for it has passed',
      }),
    }),
  },
  { $id: 'ManagedBooking' },
);
export type ManagedBooking = Static<typeof ManagedBooking>;

export const GuestRescheduleBody = Type.Object({ Date: LocalDate, Time: ClockTime });
export type GuestRescheduleBody = Static<typeof GuestRescheduleBody>;

export const ManageLink = Type.Object(
  {
    BookingReference: Type.String(),
    ManageToken: Type.String({ description: "The booking's page is /book/{slug}/manage/{ManageToken}; GET .../bookings/{ManageToken} reads it" }),
  },
  { $id: 'ManageLink' },
);
export type ManageLink = Static<typeof ManageLink>;
