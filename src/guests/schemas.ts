import { Type, type Static } from '@sinclair/typebox';
import { EmailAddress } from '../http/schemas.js';
import { Booking } from '../bookings/schemas.js';
import { BookingWaiverAnswer } from '../questions/schemas.js';
import { BookingPayment, Refund } from '../payments/schemas.js';

const GuestEmail = EmailAddress({ description: "The guest's e-mail address, as given with their bookings (compared in any case)" });

export const GuestQuery = Type.Object({ Email: GuestEmail });
export type GuestQuery = Static<typeof GuestQuery>;

export const EraseGuestBody = Type.Object({ Email: GuestEmail }, { additionalProperties: false });
export type EraseGuestBody = Static<typeof EraseGuestBody>;

const Time = Type.String({ format: 'date-time' });
const NullableTime = Type.Union([Time, Type.Null()]);

export const GuestExport = Type.Object(
  {
    Email: Type.String({ description: 'The address asked for' }),
    ExportedAt: Time,
    Bookings: Type.Array(
      Type.Object({
        Booking,
        WaiverAnswers: Type.Array(BookingWaiverAnswer, { description: "The booking's waiver answers; a file answer names its file" }),
        TermsAccepted: Type.Union(
          [
            Type.Object({
              AcceptedAt: Time,
              TermsUrl: Type.Union([Type.String(), Type.Null()]),
              PrivacyUrl: Type.Union([Type.String(), Type.Null()]),
            }),
            Type.Null(),
          ],
          { description: "The shop's terms and privacy pages the guest accepted at checkout" },
        ),
      }),
    ),
    Uploads: Type.Array(
      Type.Object({
        FileID: Type.String(),
        ContentType: Type.String(),
        Size: Type.Integer({ description: 'Bytes' }),
        UploadedAt: Time,
        BookingReference: Type.Union([Type.String(), Type.Null()], { description: 'The booking whose answers name it, when one does' }),
        Download: Type.Union([Type.String(), Type.Null()], {
          description: 'Where staff download it (the booking answers route), when a booking names it',
        }),
      }),
      { description: 'The files the guest uploaded (waiver answers): listed, their bytes are downloaded one by one' },
    ),
    WaitlistEntries: Type.Array(
      Type.Object({
        ID: Type.Integer(),
        ActivityID: Type.String(),
        ActivityName: Type.String(),
        Date: Type.String(),
        Time: Type.String(),
        Participants: Type.Integer(),
        Status: Type.String(),
        CreatedAt: Time,
      }),
    ),
    Emails: Type.Array(
      Type.Object({
        ID: Type.Integer(),
        Kind: Type.String(),
        To: Type.String(),
        Subject: Type.String(),
        Status: Type.String({ description: 'queued, sending, sent, failed or cancelled' }),
        BookingReference: Type.Union([Type.String(), Type.Null()]),
        CreatedAt: Time,
        SentAt: NullableTime,
      }),
      { description: "The e-mails written to the guest (a workflow e-mail's body is composed when sent and not kept)" },
    ),
    Payments: Type.Array(
      Type.Composite([
        BookingPayment,
        Type.Object({
          BookingReferences: Type.Array(Type.String(), { description: 'The bookings it paid' }),
          Refunds: Type.Array(Refund),
        }),
      ]),
    ),
  },
  { $id: 'GuestExport' },
);
export type GuestExport = Static<typeof GuestExport>;

export const GUEST_ERASURE_REASONS = ['request', 'retention'] as const;
export type GuestErasureReason = (typeof GUEST_ERASURE_REASONS)[number];

/** What an erasure changed: also the `guest.erased` webhook event's data (no personal data: the address is not in it). */
export const GuestErasure = Type.Object(
  {
    Reason: Type.Unsafe<GuestErasureReason>({
      type: 'string',
      enum: [...GUEST_ERASURE_REASONS],
      description: "request: staff or an admin key erased the guest; retention: GUEST_RETENTION_DAYS passed since the guest's last activity",
    }),
    BookingReferences: Type.Array(Type.String(), {
      description: 'The bookings whose guest details were anonymised (they stay, with their payments)',
    }),
    WaitlistEntryIDs: Type.Array(Type.Integer()),
    UploadsDeleted: Type.Integer(),
    AnswersDeleted: Type.Integer(),
    EmailsErased: Type.Integer({ description: 'E-mails whose address, subject and body were erased (queued ones withdrawn)' }),
    PaymentsKept: Type.Integer({ description: 'Payments (and their refunds) kept as accounting and tax law require' }),
    ErasedAt: Time,
  },
  { $id: 'GuestErasure' },
);
export type GuestErasure = Static<typeof GuestErasure>;
