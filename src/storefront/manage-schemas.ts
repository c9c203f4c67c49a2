// The guest's view of their own booking (manage-routes.ts): what they booked and whether they may cancel.
import { Type, type Static } from '@sinclair/typebox';
import { ClockTime, LocalDate } from '../http/schemas.js';
import { BookedTicket } from '../catalog/tickets/schemas.js';
import { WaiverAnswer } from '../bookings/schemas.js';
import { Question } from '../questions/schemas.js';

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
    WaiverStatus: Type.Union([Type.Literal('pending'), Type.Literal('complete')], {
      description: 'pending: no answers were given with the booking (a desk, marketplace or waitlist booking); complete: answered',
    }),
    WaiverToComplete: Type.Boolean({
      description:
        'The guest has a waiver to complete (POST .../waiver): it is pending, the booking is live, and its activity has questions. The booking pages link it',
    }),
    Balance: Type.Object(
      {
        AmountPaid: Type.Integer({
          description: 'What the booking paid so far (its deposit, ...) less what was given back, minor units of Currency',
        }),
        AmountDue: Type.Integer({ description: 'What is still to pay (minor units of Currency): POST .../balance pays it' }),
      },
      { description: 'What the guest paid and still owes (docs/payments.md, "Deposits and balances")' },
    ),
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

export const BookingWaiver = Type.Object(
  {
    WaiverStatus: Type.Union([Type.Literal('pending'), Type.Literal('complete')]),
    Questions: Type.Array(Question, { description: "The activity's waiver questions, in Locale where the operator translated them" }),
  },
  { $id: 'BookingWaiver' },
);
export type BookingWaiver = Static<typeof BookingWaiver>;

export const CompleteWaiverBody = Type.Object(
  {
    WaiverAnswers: Type.Array(WaiverAnswer, {
      maxItems: 200,
      description:
        "Every required question of the activity answered (GET /api/v2/shop/{OperatorID}/activities/{ActivityID}/questions); a file question's answer is the FileID of an upload through this booking's link",
    }),
  },
  { additionalProperties: false },
);
export type CompleteWaiverBody = Static<typeof CompleteWaiverBody>;
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

export const BalanceBody = Type.Object(
  {
    CardNumber: Type.Optional(
      Type.String({
        pattern: '^[0-9]{12,19}$',
        description: "A test card's number: only in a shop that takes test payments (the booking pages say so)",
      }),
    ),
  },
  { additionalProperties: false },
);
export type BalanceBody = Static<typeof BalanceBody>;

export const BalancePayment = Type.Object(
  {
    Status: Type.Union([Type.Literal('paid'), Type.Literal('awaiting_payment')], {
      description: "paid: nothing is due any more; awaiting_payment: send the guest to RedirectURL, Stripe's page for the balance",
    }),
    RedirectURL: Type.Union([Type.String({ format: 'uri' }), Type.Null()]),
    AmountDue: Type.Integer({ description: 'What is still due (minor units), 0 once paid' }),
    Currency: Type.String(),
  },
  { $id: 'BalancePayment' },
);
export type BalancePayment = Static<typeof BalancePayment>;
