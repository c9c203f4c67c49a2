import { Type, type Static } from '@sinclair/typebox';
import { ACTIVITY_ID_PATTERN, LocalDate, RowId } from '../http/schemas.js';

export const HOLD_CHANNELS = ['shop', 'waitlist-offer', 'partner-api', 'octo', 'pos'] as const;
export type HoldChannel = (typeof HOLD_CHANNELS)[number];

/** At most this many holds in one answer (ordered by expiry; narrow the filter for more). */
export const MAX_HOLDS = 1000;

const filters = {
  TimeslotID: Type.Optional(RowId("Only this timeslot's holds")),
  ActivityID: Type.Optional(Type.String({ pattern: ACTIVITY_ID_PATTERN, description: "Only this activity's holds" })),
  Date: Type.Optional(Type.String({ format: 'date', description: "Only holds of timeslots on this date (YYYY-MM-DD, the activity's local date)" })),
  Client: Type.Optional(
    Type.String({ pattern: '^[0-9a-f]{12}$', description: 'Only the holds of this shop client (its fingerprint, as listed in Client)' }),
  ),
};

export const HoldsQuery = Type.Object(filters);
export type HoldsQuery = Static<typeof HoldsQuery>;

export const ReleaseHoldsBody = Type.Object(filters, {
  description: 'Which live holds to release: at least one of TimeslotID, ActivityID, Date and Client; all given must match',
});
export type ReleaseHoldsBody = Static<typeof ReleaseHoldsBody>;

export const Hold = Type.Object(
  {
    BookingReference: Type.String({ description: 'The booking on hold' }),
    TimeslotID: Type.Integer(),
    ActivityID: Type.String(),
    ActivityName: Type.String(),
    Date: LocalDate,
    Time: Type.String(),
    Participants: Type.Integer({ description: 'People the held tickets admit' }),
    Seats: Type.Integer({ description: 'Seats held (tickets that take no seat, such as infants, hold none)' }),
    Channel: Type.Unsafe<HoldChannel>({
      type: 'string',
      enum: [...HOLD_CHANNELS],
      description: 'Who holds the seats: a basket of the online shop, a waitlist offer, a partner through the partner API or through OCTo',
    }),
    Partner: Type.Union([Type.String(), Type.Null()], { description: 'The marketplace, for partner-api and octo holds' }),
    Client: Type.Union([Type.String(), Type.Null()], {
      description:
        'For shop holds: a fingerprint of the address of the client that added the item (a keyed hash; the address itself is not kept). Many holds with one fingerprint are one client.',
    }),
    CheckoutStarted: Type.Boolean({ description: 'For shop holds: the guest has begun checkout' }),
    Customer: Type.Object(
      { FirstName: Type.String(), LastName: Type.String(), Email: Type.String() },
      { description: 'As given by whoever made the hold' },
    ),
    HeldSince: Type.String({ format: 'date-time' }),
    HoldExpiresAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Hold' },
);
export type Hold = Static<typeof Hold>;

export const ReleasedHolds = Type.Object(
  {
    Released: Type.Integer({ description: 'How many holds were released' }),
    Seats: Type.Integer({ description: 'The seats they held, now on sale again' }),
    BookingReferences: Type.Array(Type.String()),
  },
  { $id: 'ReleasedHolds' },
);
export type ReleasedHolds = Static<typeof ReleasedHolds>;
