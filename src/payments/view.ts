// Payment rows and Stripe accounts as the API shows them. Secrets never leave the store: an account is
// shown by its key's last 4 characters and mode only.
import { formatMinorUnits } from '../lib/money.js';
import type { BasketPayment, BookingDispute, BookingPayment, Refund, StripeAccountSettings } from './schemas.js';
import type { DisputeRow } from './dispute-store.js';
import type { PaymentRow, RefundRow, StripeAccountRow } from './store.js';
import type { UnixSeconds } from '../lib/clock.js';

const isoSeconds = (seconds: UnixSeconds | null) => (seconds === null ? null : new Date(Number(seconds) * 1000).toISOString());

/** A basket's Stripe payment; a pending session past its expiry shows as expired (Stripe's event may not have come). */
export function basketPaymentView(payment: PaymentRow, now: UnixSeconds): BasketPayment {
  const expiresAt = payment.session_expires_at;
  const lapsed = payment.status === 'pending' && expiresAt !== null && expiresAt <= now;
  const open = payment.status === 'pending' && !lapsed && payment.redirect_url !== null;
  return {
    Provider: 'stripe',
    Status: lapsed ? 'expired' : payment.status,
    RedirectURL: open ? payment.redirect_url : null,
    ExpiresAt: isoSeconds(expiresAt),
  };
}

export function stripeAccountView(account: StripeAccountRow | undefined, webhookUrl: string): StripeAccountSettings {
  return {
    Connected: account !== undefined,
    AccountID: account?.account_id ?? null,
    KeyLast4: account?.key_last4 ?? null,
    Mode: account === undefined ? null : Number(account.live_mode) === 1 ? 'live' : 'test',
    WebhookURL: webhookUrl,
    UpdatedAt: account === undefined ? null : new Date(Number(account.updated_at)).toISOString(),
  };
}

/** A refund as the operator API shows it: its amount both as decimal text and in minor units. */
export function refundView(refund: RefundRow, bookingReference: string, provider: string): Refund {
  return {
    RefundID: refund.id,
    BookingReference: bookingReference,
    Amount: formatMinorUnits(Number(refund.amount), refund.currency),
    AmountMinorUnits: Number(refund.amount),
    Currency: refund.currency,
    Provider: provider === 'stripe' ? 'stripe' : 'test',
    ProviderReference: refund.provider_reference,
    Status: refund.status,
    Failure: refund.failure,
    Reason: refund.reason,
    RequestedBy: refund.requested_by_type,
    CreatedAt: new Date(Number(refund.created_at)).toISOString(),
    UpdatedAt: new Date(Number(refund.updated_at)).toISOString(),
  };
}

const providerName = (provider: string): BookingPayment['Provider'] => (provider === 'stripe' || provider === 'desk' ? provider : 'test');

export function bookingPaymentView(payment: PaymentRow): BookingPayment {
  return {
    PaymentID: payment.id,
    Amount: formatMinorUnits(Number(payment.amount), payment.currency),
    AmountMinorUnits: Number(payment.amount),
    Currency: payment.currency,
    Provider: providerName(payment.provider),
    Method: (payment.method ?? 'online') as BookingPayment['Method'],
    ProviderReference: payment.provider_reference,
    Status: payment.status,
    BookingOnly: payment.basket_id === null,
    CreatedAt: new Date(Number(payment.created_at)).toISOString(),
  };
}

export function disputeView(dispute: DisputeRow): BookingDispute {
  return {
    DisputeID: dispute.dispute_reference,
    Amount: formatMinorUnits(Number(dispute.amount), dispute.currency),
    AmountMinorUnits: Number(dispute.amount),
    Currency: dispute.currency,
    Reason: dispute.reason,
    Status: dispute.status,
    EvidenceDueBy: isoSeconds(dispute.evidence_due_by),
    StripeURL: dispute.dashboard_url,
    CreatedAt: new Date(Number(dispute.created_at)).toISOString(),
    UpdatedAt: new Date(Number(dispute.updated_at)).toISOString(),
  };
}
