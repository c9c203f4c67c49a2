// Stripe's Checkout Session for a basket: its lifetime, its idempotency key and the request Stripe is sent.
// The basket's side (its holds kept for the session's life, the pending payment) is the checkout flow's
// (src/flows/stripe-checkout.ts); what Stripe's events about the session do is checkout-events.ts's.
import type { PaymentRow } from '../../store.js';
import type { CheckoutSessionRequest } from './gateway.js';

/** Stripe refuses a Checkout Session that expires sooner than 30 minutes after it is made; a minute spare. */
export const SESSION_SECONDS = 31 * 60;
/** The seats stay held this long after the session expires: a payment made in its last second still finds them. */
export const HOLD_MARGIN_SECONDS = 5 * 60;
/** A pending payment whose session was never recorded (Stripe did not answer) is retried with its key this long. */
export const RETRY_SAME_KEY_SECONDS = 5 * 60;
/** A session closer than this to its expiry is not handed out again: the guest could not finish paying. */
export const SESSION_REUSE_MARGIN_SECONDS = 5 * 60;

/** The idempotency key of a payment's Checkout Session: the same payment always gets the same session. */
export const sessionIdempotencyKey = (payment: Pick<PaymentRow, 'operator_id' | 'id'>): string =>
  `slotbook-checkout-${payment.operator_id}-${payment.id}`;

/** One booking of the basket as Stripe's page lists it: what it charges now (minor units), a deposit or its whole price. */
export interface SessionLine {
  amount: number;
  deposit: number | string | null;
  activity_name: string;
  date: string;
  time: string;
  reference: string;
}

/**
 * What Stripe is asked for: one line per booking (its tickets' total, in minor units as slotbook keeps
 * them: Stripe's minor units too, zero-decimal currencies such as JPY included), the basket's currency,
 * the guest's e-mail, the operator and basket in client_reference_id and metadata (the webhook checks
 * them), and the booking pages as the way back. Built only from stored values, so a retry sends the same.
 */
export function sessionRequest(
  payment: PaymentRow,
  items: SessionLine[],
  basket: { id: number; token: string; customer_email: string },
  pages: string,
  shopName: string,
): CheckoutSessionRequest {
  const metadata = {
    slotbook_operator_id: String(payment.operator_id),
    slotbook_basket_id: String(basket.id),
    slotbook_payment_id: String(payment.id),
  };
  return {
    mode: 'payment',
    line_items: items.map((item) => ({
      quantity: 1,
      price_data: {
        currency: payment.currency.toLowerCase(),
        unit_amount: item.amount,
        product_data: {
          name: `${item.deposit === null ? '' : 'Deposit: '}${item.activity_name}, ${item.date} ${item.time}`,
          description: `${shopName}: booking ${item.reference}${item.deposit === null ? '' : ' (the balance is paid later)'}`,
        },
      },
    })),
    customer_email: basket.customer_email,
    client_reference_id: `${payment.operator_id}:${basket.id}`,
    metadata,
    payment_intent_data: { metadata, description: `${shopName}: basket ${basket.id}` },
    expires_at: Number(payment.session_expires_at),
    success_url: `${pages}/confirmation/${basket.token}?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${pages}/basket/${basket.token}`,
  };
}
