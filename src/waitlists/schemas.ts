import { Type, type Static } from '@sinclair/typebox';
import { RowId } from '../http/schemas.js';
import { ParticipantsField, PosBookingBody } from '../bookings/schemas.js';

export const WAITLIST_STATUSES = ['waiting', 'offered', 'claimed', 'expired', 'removed'] as const;
export type WaitlistStatus = (typeof WAITLIST_STATUSES)[number];

/**
 * Who waits for which timeslot: the fields of a booking, without payment or waiver answers, and a party
 * of Participants of the default ticket type (the seats offered when they free up).
 */
export const JoinWaitlistBody = Type.Composite([
  Type.Omit(PosBookingBody, ['PaymentReference', 'WaiverAnswers', 'Tickets', 'Participants']),
  Type.Object({ Participants: ParticipantsField }),
]);
export type JoinWaitlistBody = Static<typeof JoinWaitlistBody>;

export const WaitlistEntry = Type.Object(
  {
    ID: Type.Integer({ description: 'The WaitlistID (also in the waitlist-notified meter entry)' }),
    TimeslotID: Type.Integer(),
    ActivityID: Type.String(),
    Date: Type.String(),
    Time: Type.String(),
    Participants: Type.Integer(),
    Customer: Type.Object({ FirstName: Type.String(), LastName: Type.String(), Email: Type.String(), Phone: Type.String() }),
    Status: Type.Unsafe<WaitlistStatus>({
      type: 'string',
      enum: [...WAITLIST_STATUSES],
      description: 'waiting; offered (seats held until OfferExpiresAt, e-mail queued or sent); claimed (paid); expired (the offer lapsed); removed (by the operator)',
    }),
    Position: Type.Union([Type.Integer(), Type.Null()], { description: 'Place in the queue among those waiting (1 = next); null when not waiting' }),
    CreatedAt: Type.String({ format: 'date-time', description: 'When the customer joined' }),
    NotifiedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When the offer e-mail was sent' }),
    OfferExpiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'End of the claim window of an offer' }),
    MultiBookingID: Type.Union([Type.Integer(), Type.Null()], { description: 'The held group of bookings (basket) offered, once offered' }),
  },
  { $id: 'WaitlistEntry' },
);
export type WaitlistEntry = Static<typeof WaitlistEntry>;

export const WaitlistQuery = Type.Object({ TimeslotID: RowId('The timeslot whose waitlist to list') });
export const WaitlistIdParams = Type.Object({ ID: RowId('Waitlist entry ID') });
