import { Type, type Static } from '@sinclair/typebox';
import { MAX_LIST_LIMIT } from '../http/schemas.js';

export const EMAIL_STATUSES = ['queued', 'sending', 'sent', 'failed', 'cancelled'] as const;
export const EMAIL_KINDS = [
  'workflow',
  'waitlist',
  'waitlist-confirmation',
  'staff',
  'webhook',
  'payment',
  'booking-notice',
  'balance',
  'departure',
] as const;
const Instant = (description: string) => Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });

export const Email = Type.Object(
  {
    ID: Type.Integer(),
    Kind: Type.Unsafe<(typeof EMAIL_KINDS)[number]>({
      type: 'string',
      enum: [...EMAIL_KINDS],
      description:
        "A workflow e-mail, a waitlist offer, the link that confirms a waitlist place's address, a staff account e-mail (sign-in link, reset, invitation: its Body is hidden), a notice to the operator about its webhooks, a notice to its owners about a payment (a dispute), a booking notice to staff who asked for them (each booking, or a daily digest), a guest's balance link (a deposit's rest), or a cancelled departure's message to a guest (departure)",
    }),
    To: Type.String(),
    Subject: Type.String(),
    Body: Type.String({ description: 'Plain text' }),
    Status: Type.Unsafe<(typeof EMAIL_STATUSES)[number]>({
      type: 'string',
      enum: [...EMAIL_STATUSES],
      description:
        'queued (waiting for ScheduledFor or a retry), sending, sent (to the SMTP server, or to this outbox without SMTP_URL), failed (gave up), cancelled (its booking was cancelled first)',
    }),
    Transport: Type.Union([Type.Literal('smtp'), Type.Literal('outbox'), Type.Null()], {
      description: 'Where it was delivered: the SMTP server or the outbox',
    }),
    ScheduledFor: Type.String({ format: 'date-time' }),
    NextAttemptAt: Instant('When the next attempt is due, while queued'),
    Attempts: Type.Integer(),
    LastError: Type.Union([Type.String(), Type.Null()]),
    WorkflowID: Type.Union([Type.Integer(), Type.Null()]),
    WaitlistID: Type.Union([Type.Integer(), Type.Null()]),
    BookingReference: Type.Union([Type.String(), Type.Null()]),
    CreatedAt: Type.String({ format: 'date-time' }),
    SentAt: Instant('When the server (or the outbox) accepted it'),
  },
  { $id: 'Email' },
);
export type Email = Static<typeof Email>;

export const EmailListQuery = Type.Object({
  Status: Type.Optional(
    Type.Unsafe<(typeof EMAIL_STATUSES)[number]>({ type: 'string', enum: [...EMAIL_STATUSES], description: 'Only e-mails in this status' }),
  ),
  WorkflowID: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Only e-mails of this workflow' })),
  Limit: Type.Integer({ minimum: 1, maximum: MAX_LIST_LIMIT, default: 100 }),
  Offset: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
});
export type EmailListQuery = Static<typeof EmailListQuery>;
