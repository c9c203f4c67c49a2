// The payments API types: the providers a checkout names, a basket's payment as the shop shows it, and
// the operator's Stripe account settings.
import { Type, type Static } from '@sinclair/typebox';

export const PAYMENT_PROVIDERS = ['test', 'stripe'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

export const PaymentProviderField = Type.Unsafe<PaymentProviderName>({
  type: 'string',
  enum: [...PAYMENT_PROVIDERS],
  description:
    "The shop's payment provider: `stripe` once the operator connected a Stripe account (the guest pays on Stripe's page), " +
    '`test` the built-in test provider (no money moves; outside production, or in a shop in test mode)',
});

export const PAYMENT_STATUSES = ['pending', 'succeeded', 'declined', 'expired', 'refunding', 'refunded'] as const;

/** A basket's payment through Stripe, as the shop answers it. */
export const BasketPayment = Type.Object({
  Provider: PaymentProviderField,
  Status: Type.Unsafe<(typeof PAYMENT_STATUSES)[number]>({
    type: 'string',
    enum: [...PAYMENT_STATUSES],
    description:
      "pending: the guest is paying on Stripe's page (RedirectURL) until the session expires; succeeded: Stripe confirmed the payment and the basket is paid; " +
      'expired: the session lapsed unpaid (pay again while the seats are held); refunding/refunded: Stripe took the payment after the seats were gone, ' +
      'so it is refunded in full and nothing is booked',
  }),
  RedirectURL: Type.Union([Type.String({ format: 'uri' }), Type.Null()], {
    description: "Stripe's Checkout page for this basket: send the guest there. Null once the payment is settled",
  }),
  ExpiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When the Checkout Session expires' }),
});
export type BasketPayment = Static<typeof BasketPayment>;

export const StripeAccountSettings = Type.Object(
  {
    Connected: Type.Boolean({
      description: 'Whether a Stripe account is connected: the shop then takes payments through Stripe (unless in test mode)',
    }),
    AccountID: Type.Union([Type.String(), Type.Null()], { description: "Stripe's account id (acct_...), when the key may read it" }),
    KeyLast4: Type.Union([Type.String(), Type.Null()], {
      description: 'The last 4 characters of the key, to tell keys apart; the key itself is never shown again',
    }),
    Mode: Type.Union([Type.Literal('live'), Type.Literal('test'), Type.Null()], {
      description: "live: real money (sk_live_/rk_live_); test: Stripe's test mode (sk_test_/rk_test_), the booking pages say so",
    }),
    WebhookURL: Type.String({
      format: 'uri',
      description:
        "The address to add in Stripe's dashboard as a webhook endpoint, with the events checkout.session.completed, checkout.session.async_payment_succeeded and checkout.session.expired",
    }),
    UpdatedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { $id: 'StripeAccountSettings' },
);
export type StripeAccountSettings = Static<typeof StripeAccountSettings>;

export const ConnectStripeBody = Type.Object({
  SecretKey: Type.String({
    pattern: '^(sk|rk)_(live|test)_[A-Za-z0-9]{8,247}$',
    description:
      'A secret key (sk_...) or restricted key (rk_...) of the account. A restricted key needs write access to Checkout Sessions and Refunds and read access to the account or balance. Checked with Stripe on save',
  }),
  WebhookSecret: Type.String({
    pattern: '^whsec_[A-Za-z0-9+/=]{8,247}$',
    description: "The signing secret (whsec_...) of the webhook endpoint you added in Stripe's dashboard for WebhookURL",
  }),
});
export type ConnectStripeBody = Static<typeof ConnectStripeBody>;

export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const;

export const RefundBody = Type.Object(
  {
    Amount: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,12}(\\.[0-9]{1,6})?$',
        description:
          'How much to refund, a decimal in the currency of the payment (e.g. "12.50" EUR, "1500" JPY) with at most its minor digits; ' +
          'omit it to refund all that remains of the booking',
      }),
    ),
  },
  { additionalProperties: false },
);
export type RefundBody = Static<typeof RefundBody>;

export const RefundIdParams = Type.Object({
  BookingReference: Type.String({ pattern: '^BK-[A-HJ-NP-Z2-9]{8}$', description: 'A booking reference: BK- and 8 letters or digits' }),
  RefundID: Type.Integer({ minimum: 1, description: 'The refund, as the refund answer names it' }),
});

export const Refund = Type.Object(
  {
    RefundID: Type.Integer(),
    BookingReference: Type.String(),
    Amount: Type.String({ description: 'The amount refunded as a decimal in Currency ("12.50")' }),
    AmountMinorUnits: Type.Integer({ description: 'The same in minor units of Currency (1250)' }),
    Currency: Type.String({ description: "ISO 4217, the payment's" }),
    Provider: PaymentProviderField,
    ProviderReference: Type.Union([Type.String(), Type.Null()], { description: "The provider's refund (Stripe's re_...), once it answered" }),
    Status: Type.Unsafe<(typeof REFUND_STATUSES)[number]>({
      type: 'string',
      enum: [...REFUND_STATUSES],
      description:
        'pending: asked, the provider has not confirmed it; succeeded: the money is on its way back; failed: the provider refused or could not be reached ' +
        '(POST .../refunds/{RefundID}/retry asks again)',
    }),
    Failure: Type.Union([Type.String(), Type.Null()], { description: 'Why it failed, when it did' }),
    Reason: Type.String({ description: 'Why it was made: staff, guest-cancellation, departure-cancelled (the operator cancelled the timeslot)' }),
    RequestedBy: Type.Union([Type.Literal('user'), Type.Literal('key'), Type.Literal('guest'), Type.Literal('system')], {
      description: 'Who asked: a staff user, an API key, a guest cancelling, or slotbook',
    }),
    CreatedAt: Type.String({ format: 'date-time' }),
    UpdatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Refund' },
);
export type Refund = Static<typeof Refund>;

/** A payment as the operator's booking page lists it. */
export const BookingPayment = Type.Object({
  PaymentID: Type.Integer(),
  Amount: Type.String({ description: 'What was paid, a decimal in Currency ("135.00"): the whole basket the booking was bought in' }),
  AmountMinorUnits: Type.Integer(),
  Currency: Type.String(),
  Provider: PaymentProviderField,
  ProviderReference: Type.Union([Type.String(), Type.Null()], { description: "The money moved: Stripe's PaymentIntent (pi_...) or test_..." }),
  Status: Type.Unsafe<(typeof PAYMENT_STATUSES)[number]>({ type: 'string', enum: [...PAYMENT_STATUSES] }),
  CreatedAt: Type.String({ format: 'date-time' }),
});
export type BookingPayment = Static<typeof BookingPayment>;

/** What the operator's booking answer adds about money (docs/payments.md). */
export const BookingMoney = {
  Payments: Type.Array(BookingPayment, { description: 'The payments of the basket the booking was bought in (none for a booking not paid online)' }),
  Refunds: Type.Array(Refund, { description: "The booking's refunds, oldest first, whatever their status" }),
  AmountPaid: Type.Integer({ description: "The booking's share of what was paid (its tickets), minor units of Currency; 0 when not paid online" }),
  AmountRefunded: Type.Integer({ description: "What the booking's succeeded refunds gave back, minor units of Currency" }),
};
export interface BookingMoney {
  Payments: BookingPayment[];
  Refunds: Refund[];
  AmountPaid: number;
  AmountRefunded: number;
}
