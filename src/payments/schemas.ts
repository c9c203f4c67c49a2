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
        "The address to add in Stripe's dashboard as a webhook endpoint, with the events checkout.session.completed, checkout.session.async_payment_succeeded and checkout.session.expired, " +
        'the refund events (refund.created, refund.updated, refund.failed, charge.refunded) and the dispute events (charge.dispute.*)',
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
    Reason: Type.String({
      description:
        'Why it was made: staff, guest-cancellation, departure-cancelled (the operator cancelled the timeslot), price-difference (a move to a cheaper activity)',
    }),
    RequestedBy: Type.Union([Type.Literal('user'), Type.Literal('key'), Type.Literal('guest'), Type.Literal('system')], {
      description: 'Who asked: a staff user, an API key, a guest cancelling, or slotbook',
    }),
    CreatedAt: Type.String({ format: 'date-time' }),
    UpdatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Refund' },
);
export type Refund = Static<typeof Refund>;

/** How a booking's payment was made: online (the shop, a balance link), or at the desk. */
export const PAYMENT_METHODS = ['online', 'cash', 'card_terminal', 'invoice', 'voucher'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/** What the desk may record: a method, or `unpaid` (a point-of-sale booking only: nothing taken yet). */
export const DESK_METHODS = ['cash', 'card_terminal', 'invoice', 'voucher'] as const;
export type DeskMethod = (typeof DESK_METHODS)[number];

/**
 * Where a booking stands with its money (docs/payments.md, "What a booking owes"). `partner`: a marketplace
 * booking, paid to the marketplace, nothing due to the operator.
 */
export const PAYMENT_STATES = ['unpaid', 'part_paid', 'paid', 'partially_refunded', 'refunded', 'partner'] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

export const PaymentStateField = Type.Unsafe<PaymentState>({
  type: 'string',
  enum: [...PAYMENT_STATES],
  description:
    'unpaid: nothing paid (AmountDue is the price); part_paid: a deposit or part paid, AmountDue is the rest; paid: nothing due; ' +
    'partially_refunded: some of what was paid was refunded; refunded: all of it was refunded; ' +
    'partner: a marketplace booking, paid to the marketplace (nothing due to the operator)',
});

const DESK_PROVIDER_NOTE = 'desk: recorded by staff (cash, a card terminal, a voucher, an invoice)';

/** A payment as the operator's booking page lists it. */
export const BookingPayment = Type.Object({
  PaymentID: Type.Integer(),
  Amount: Type.String({
    description: 'What was paid, a decimal in Currency ("135.00"): the whole basket the booking was bought in, or a payment of this booking alone',
  }),
  AmountMinorUnits: Type.Integer(),
  Currency: Type.String(),
  Provider: Type.Union([Type.Literal('test'), Type.Literal('stripe'), Type.Literal('desk')], {
    description: `stripe, test (the test provider) or ${DESK_PROVIDER_NOTE}`,
  }),
  Method: Type.Unsafe<PaymentMethod>({
    type: 'string',
    enum: [...PAYMENT_METHODS],
    description: 'online (the shop or a balance link), or at the desk: cash, card_terminal, invoice, voucher',
  }),
  ProviderReference: Type.Union([Type.String(), Type.Null()], {
    description:
      "The money moved: Stripe's PaymentIntent (pi_...), test_..., or the desk's reference (the terminal's receipt, the voucher's code, the invoice's number)",
  }),
  Status: Type.Unsafe<(typeof PAYMENT_STATUSES)[number]>({
    type: 'string',
    enum: [...PAYMENT_STATUSES],
    description: 'succeeded: the money was taken; pending: a Stripe session under way, or an invoice issued and not yet paid',
  }),
  BookingOnly: Type.Boolean({ description: "true: a payment of this booking alone (the desk, a balance); false: its basket's payment" }),
  CreatedAt: Type.String({ format: 'date-time' }),
});
export type BookingPayment = Static<typeof BookingPayment>;

/** A cardholder's dispute of the payment that paid a booking, as the operator's booking answer shows it. */
export const BookingDispute = Type.Object({
  DisputeID: Type.String({ description: "Stripe's dispute (dp_...)" }),
  Amount: Type.String({ description: 'The amount disputed, a decimal in Currency ("135.00": of the whole payment)' }),
  AmountMinorUnits: Type.Integer(),
  Currency: Type.String(),
  Reason: Type.String({ description: "Stripe's reason: fraudulent, product_not_received, duplicate, ..." }),
  Status: Type.String({
    description: "Stripe's status: warning_needs_response, needs_response, under_review, won, lost (and the warning_ states of an inquiry)",
  }),
  EvidenceDueBy: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: "Evidence must reach Stripe before this (submit it in Stripe's dashboard, StripeURL)",
  }),
  StripeURL: Type.String({ format: 'uri', description: "The payment in Stripe's dashboard, where the dispute is answered" }),
  CreatedAt: Type.String({ format: 'date-time' }),
  UpdatedAt: Type.String({ format: 'date-time' }),
});
export type BookingDispute = Static<typeof BookingDispute>;

/** What the operator's booking answer adds about money (docs/payments.md). */
export const BookingMoney = {
  Payments: Type.Array(BookingPayment, {
    description: "The payments of the basket the booking was bought in, and the booking's own (the desk's, a balance's), oldest first",
  }),
  Refunds: Type.Array(Refund, { description: "The booking's refunds, oldest first, whatever their status" }),
  AmountPaid: Type.Integer({
    description:
      "What the booking paid, minor units of Currency: its share of its basket's payment (its tickets, or its deposit) and its own succeeded payments; 0 for a partner booking",
  }),
  AmountRefunded: Type.Integer({ description: "What the booking's succeeded refunds gave back, minor units of Currency" }),
  AmountRefundable: Type.Integer({
    description:
      'What POST .../refund may still give back now, minor units of Currency: its share of the online payment less refunds pending or made; 0 when nothing was paid online (desk payments are not refunded through slotbook)',
  }),
  Disputes: Type.Array(BookingDispute, {
    description: "Cardholders' disputes of the payment that paid the booking (Stripe's charge.dispute.* events), oldest first; empty when none",
  }),
  AmountDue: Type.Integer({
    description:
      'What the booking still owes the operator, minor units of Currency: Total less AmountPaid, never below 0; 0 for a cancelled or expired booking and for a partner booking',
  }),
  PaymentState: PaymentStateField,
};
export interface BookingMoney {
  Payments: BookingPayment[];
  Refunds: Refund[];
  AmountPaid: number;
  AmountRefunded: number;
  AmountRefundable: number;
  AmountDue: number;
  PaymentState: PaymentState;
  Disputes: BookingDispute[];
}

const MoneyMoved = {
  Amount: Type.String({ description: 'A decimal in Currency ("135.00"; "1500" for JPY)' }),
  AmountMinorUnits: Type.Integer({ description: 'The same in minor units of Currency (13500)' }),
  Currency: Type.String({ description: 'ISO 4217' }),
  Provider: Type.String({ description: 'Who moved the money: stripe, or test (the built-in test provider: no money moved)' }),
};

/** payment.succeeded (webhooks): a payment took money. */
export const PaymentSucceededEvent = Type.Object(
  {
    PaymentID: Type.Integer(),
    ...MoneyMoved,
    ProviderReference: Type.Union([Type.String(), Type.Null()], { description: "The money moved: Stripe's PaymentIntent (pi_...) or test_..." }),
    BookingReferences: Type.Array(Type.String(), { description: 'The bookings it paid: those of its basket, or the one booking it was for' }),
    SucceededAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'PaymentSucceededEvent' },
);
export type PaymentSucceededEvent = Static<typeof PaymentSucceededEvent>;

/** payment.refunded (webhooks): a refund of a booking succeeded. */
export const PaymentRefundedEvent = Type.Object(
  {
    RefundID: Type.Integer({ description: "As in the booking answer's Refunds" }),
    PaymentID: Type.Integer({ description: 'The payment refunded (its payment.succeeded names it too)' }),
    ...MoneyMoved,
    ProviderReference: Type.Union([Type.String(), Type.Null()], { description: "The refund: Stripe's re_... or test_refund_..." }),
    PaymentProviderReference: Type.Union([Type.String(), Type.Null()], { description: "The payment's: pi_... or test_..." }),
    BookingReferences: Type.Array(Type.String(), { description: 'The booking refunded (one)' }),
    Reason: Type.String({ description: 'Why: staff, guest-cancellation' }),
    SucceededAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'PaymentRefundedEvent' },
);
export type PaymentRefundedEvent = Static<typeof PaymentRefundedEvent>;

export const DeskPaymentBody = Type.Object(
  {
    Method: Type.Unsafe<DeskMethod>({
      type: 'string',
      enum: [...DESK_METHODS],
      description: 'cash, card_terminal (Reference: the receipt), voucher (Reference: its code), invoice (an invoice paid; Reference: its number)',
    }),
    Amount: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,12}(\\.[0-9]{1,6})?$',
        description: "A decimal in the booking's currency with at most its minor digits; omit it for all that is due",
      }),
    ),
    Reference: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        pattern: '^[^\\u0000-\\u001F\\u007F]*$',
        description: "The terminal's receipt, the voucher's code or the invoice's number: required for card_terminal and voucher",
      }),
    ),
  },
  { additionalProperties: false },
);
export type DeskPaymentBody = Static<typeof DeskPaymentBody>;

/** A point-of-sale booking's payment: a desk method, or unpaid (nothing taken yet). */
export const PosPaymentField = Type.Object(
  {
    Method: Type.Unsafe<DeskMethod | 'unpaid'>({
      type: 'string',
      enum: [...DESK_METHODS, 'unpaid'],
      description:
        'cash, card_terminal, voucher: taken now (Reference required for card_terminal and voucher); invoice: an invoice issued, owed until paid; unpaid: nothing taken (the balance is due at check-in)',
    }),
    Amount: DeskPaymentBody.properties.Amount,
    Reference: DeskPaymentBody.properties.Reference,
  },
  {
    additionalProperties: false,
    description: 'How the booking was paid at the desk (docs/payments.md, "The desk"); without it the booking is unpaid',
  },
);
export type PosPayment = Static<typeof PosPaymentField>;

/** A payment recorded at the desk: the payment, and what the booking owes after it. */
export const DeskPaymentAnswer = Type.Object(
  {
    BookingReference: Type.String(),
    Payment: BookingPayment,
    AmountPaid: BookingMoney.AmountPaid,
    AmountDue: BookingMoney.AmountDue,
    PaymentState: PaymentStateField,
  },
  { $id: 'DeskPayment' },
);
export type DeskPaymentAnswer = Static<typeof DeskPaymentAnswer>;
