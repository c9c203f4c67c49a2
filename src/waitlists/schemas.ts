import { Type, type Static } from '@sinclair/typebox';
import { RowId } from '../http/schemas.js';
import { Customer, ParticipantsField, PosBookingBody } from '../bookings/schemas.js';

/**
 * What the operator sees: `pending` (joined, address not confirmed yet; not in the queue), `lapsed` (not
 * confirmed in time), `waiting` (in the queue), `offered`, `claimed`, `expired` (the offer lapsed), `removed`.
 */
export const WAITLIST_STATUSES = ['pending', 'lapsed', 'waiting', 'offered', 'claimed', 'expired', 'removed'] as const;
export type WaitlistStatus = (typeof WAITLIST_STATUSES)[number];

/**
 * Who waits for which timeslot: the fields of a booking, without payment or waiver answers, and a party
 * of Participants of the default ticket type (the seats offered when they free up).
 */
export const JoinWaitlistBody = Type.Composite([
  Type.Omit(PosBookingBody, ['PaymentReference', 'WaiverAnswers', 'Tickets', 'Participants', 'Customer']),
  // The offer is e-mailed: a waiting guest gives an address (and the seed's phone), unlike a walk-in.
  Type.Object({ Participants: ParticipantsField, Customer }),
]);
export type JoinWaitlistBody = Static<typeof JoinWaitlistBody>;

/** The answer to every acceptable join, whether or not the address already waits: it reveals nothing about it. */
export const WaitlistJoinAccepted = Type.Object(
  {
    ActivityID: Type.String(),
    Date: Type.String(),
    Time: Type.String(),
    Participants: Type.Integer(),
    Message: Type.String({ description: 'What the guest should do next: open the confirmation link in the e-mail' }),
  },
  { $id: 'WaitlistJoinAccepted' },
);
export type WaitlistJoinAccepted = Static<typeof WaitlistJoinAccepted>;

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
      description:
        'pending (joined; the address is not confirmed yet, so the place does not count); lapsed (not confirmed in time); waiting (confirmed, in the queue); ' +
        'offered (seats held until OfferExpiresAt, e-mail queued or sent); claimed (paid); expired (the offer lapsed); removed (by the operator)',
    }),
    Position: Type.Union([Type.Integer(), Type.Null()], {
      description: 'Place in the queue among those waiting, in the order they confirmed (1 = next); null when not waiting',
    }),
    CreatedAt: Type.String({ format: 'date-time', description: 'When the customer joined' }),
    ConfirmedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When the customer confirmed the address (the link in the e-mail)',
    }),
    NotifiedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When the offer e-mail was sent' }),
    OfferExpiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'End of the claim window of an offer' }),
    MultiBookingID: Type.Union([Type.Integer(), Type.Null()], { description: 'The held group of bookings (basket) offered, once offered' }),
  },
  { $id: 'WaitlistEntry' },
);
export type WaitlistEntry = Static<typeof WaitlistEntry>;

export const WaitlistQuery = Type.Object({ TimeslotID: RowId('The timeslot whose waitlist to list') });
export const WaitlistIdParams = Type.Object({ ID: RowId('Waitlist entry ID') });
