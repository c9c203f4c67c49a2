// The public online shop's API types: baskets of timeslot items, paid once through a payment provider.
import { Type, type Static } from '@sinclair/typebox';
import { ACTIVITY_ID_PATTERN, ClockTime, LocalDate, RowId } from '../http/schemas.js';
import { Customer, GuestLocaleField, PosBookingBody } from '../bookings/schemas.js';
import { BookedTicket } from '../catalog/tickets/schemas.js';
import { BasketPayment, PaymentProviderField } from '../payments/schemas.js';

export const ShopParams = Type.Object({
  OperatorID: RowId('The operator whose shop this is (the shop is public: no API key)'),
});

/** 128 random bits, base64url: the only handle on a basket, so nobody can read or pay another's. */
export const BASKET_TOKEN_PATTERN = '^[A-Za-z0-9_-]{22}$';

export const BasketParams = Type.Composite([
  ShopParams,
  Type.Object({ BasketToken: Type.String({ pattern: BASKET_TOKEN_PATTERN, description: "The basket's token, as answered when it was created" }) }),
]);

export const ShopLocaleQuery = Type.Object({
  Locale: Type.Optional(
    Type.String({ maxLength: 64, description: 'BCP 47 language tag for the ticket type names and waiver questions, e.g. de or de-CH' }),
  ),
});

export const ShopActivityParams = Type.Composite([
  ShopParams,
  Type.Object({ ActivityID: Type.String({ pattern: ACTIVITY_ID_PATTERN, description: 'Activity identifier: s_ and 8 to 32 letters or digits' }) }),
]);

export const CreateBasketBody = Type.Object({
  Customer,
  // The booking pages send their language: the basket's bookings keep it for their e-mails.
  Locale: Type.Optional(GuestLocaleField),
});
export type CreateBasketBody = Static<typeof CreateBasketBody>;

/** A timeslot with Participants (of the default ticket type) or a Tickets mix, and the waiver answers. */
// The language is the basket's (CreateBasketBody), as is the guest.
export const AddItemBody = Type.Omit(PosBookingBody, ['Customer', 'PaymentReference', 'Locale']);
export type AddItemBody = Static<typeof AddItemBody>;

export const CheckoutBody = Type.Object({
  AcceptTerms: Type.Optional(
    Type.Boolean({
      description:
        "The guest accepted the shop's terms and privacy pages (the storefront profile's TermsUrl and PrivacyUrl): required, true, while the shop has either (422 naming AcceptTerms otherwise); kept with each booking",
    }),
  ),
  Payment: Type.Optional(
    Type.Object({
      Provider: PaymentProviderField,
      CardNumber: Type.Optional(
        Type.String({
          pattern: '^[0-9]{12,19}$',
          description:
            'The test provider only (required there; never sent with stripe, whose page takes the card): digits only. ' +
            '4242424242424242 succeeds, 4000000000000002 is declined, 4000000000009995 has insufficient funds',
        }),
      ),
    }),
  ),
});
export type CheckoutBody = Static<typeof CheckoutBody>;

const BasketTicket = Type.Composite([
  BookedTicket,
  Type.Object({ Amount: Type.Integer({ description: 'Quantity x UnitPrice: the total of this ticket type in the item' }) }),
]);

const BasketItem = Type.Object({
  BookingReference: Type.String(),
  ActivityID: Type.String(),
  ActivityName: Type.String(),
  Date: LocalDate,
  Time: ClockTime,
  StartsAt: Type.String({ format: 'date-time' }),
  Participants: Type.Integer({ description: 'People the tickets admit' }),
  Tickets: Type.Array(BasketTicket, { description: 'The ticket mix with its total per type, at the prices of the moment the item was added' }),
  UnitPrice: Type.Union([Type.Integer(), Type.Null()], {
    description:
      "Minor units of the basket's currency, per participant, when the item is of one ticket type admitting one person each; else null (see Tickets)",
  }),
  Amount: Type.Integer({ description: "The item's tickets together" }),
  Deposit: Type.Union([Type.Integer(), Type.Null()], {
    description:
      'What paying charges for this item now, its deposit (minor units), when its activity takes one; the rest (Amount - Deposit) is its balance, paid later. null: the whole Amount is paid now',
  }),
  Status: Type.String({
    description:
      "The booking's status: on_hold until paid (or until HoldExpiresAt), then confirmed; expired once the hold lapsed (or the operator released it)",
  }),
  HoldExpiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export type BasketStatus = 'open' | 'awaiting_payment' | 'paid';

export const Basket = Type.Object(
  {
    BasketToken: Type.String(),
    Status: Type.Unsafe<BasketStatus>({
      type: 'string',
      enum: ['open', 'awaiting_payment', 'paid'],
      description:
        "open until paid; a basket is paid once. awaiting_payment: the guest is paying on Stripe's page (Payment.RedirectURL); Stripe's webhook makes it paid",
    }),
    Currency: Type.Union([Type.String(), Type.Null()], { description: 'Set by the first item; every item is in this currency' }),
    Total: Type.Integer({ description: 'Minor units: the items on live hold (before payment) or confirmed (after)' }),
    DueNow: Type.Integer({
      description:
        "Minor units: what paying charges, the items' deposits (or whole amounts) of the items counted in Total; equal to Total without deposits",
    }),
    Customer: Type.Object({ FirstName: Type.String(), LastName: Type.String(), Email: Type.String(), Phone: Type.String() }),
    Items: Type.Array(BasketItem),
    PaymentReference: Type.Union([Type.String(), Type.Null()], { description: "The payment provider's reference, once paid" }),
    ConfirmationEmailed: Type.Boolean({
      description:
        "Paid, and the operator's booking-confirmed workflow e-mailed the guest (or is about to): the confirmation page says an e-mail was sent only then",
    }),
    CheckoutStartedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When the guest began checkout (POST .../begin-checkout): the seats are then held longer, and the basket takes no more items',
    }),
    CreatedAt: Type.String({ format: 'date-time' }),
    PaidAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    Payment: Type.Optional(
      Type.Composite([BasketPayment], {
        description: 'The latest payment through Stripe, once checkout with Provider stripe began (absent for the test provider)',
      }),
    ),
  },
  { $id: 'Basket' },
);
export type Basket = Static<typeof Basket>;
export type BasketItem = Static<typeof BasketItem>;
