// Disputes (chargebacks): Stripe's charge.dispute.* events, received and deduplicated like every Stripe
// event (routes.ts). The first event of a dispute (created, or whichever arrives first: Stripe does not
// keep order) records it with the bookings its payment paid, e-mails the operator's owners once and writes
// an audit entry per booking; later events keep its status, amount and deadline, unless they are older
// than what is stored. A dispute of a payment that is not this operator's is acknowledged and ignored.
// The disputes are the payments domain's rows (payments/dispute-store.ts); telling the owners needs the
// e-mails and the staff, which the payments domain may not import (e-mails import bookings, which import
// payments), so the handler lives here, registered by the composition like the Checkout events'.
import type Stripe from 'stripe';
import type { Tx } from '../db/connection.js';
import { audit } from '../audit/log.js';
import { queueEmail } from '../emails/outbox.js';
import { operatorName } from '../operators/service.js';
import { listUsers } from '../staff/index.js';
import { unixToZonedIso } from '../calendar/zoned-time.js';
import { formatMinorUnits } from '../lib/money.js';
import { findPaymentByReference, insertDispute, updateDispute, type DisputeRow, type DisputeState } from '../payments/index.js';
import { paymentBookings, type PaymentBooking } from '../payments/payment-bookings.js';
import { findStripeAccount } from '../payments/index.js';
import type { StripeEventHandler } from '../payments/providers/stripe/events.js';
import { disputeView } from '../payments/view.js';
import { unixNow, type UnixSeconds } from '../lib/clock.js';

export const DISPUTE_EVENTS = [
  'charge.dispute.created',
  'charge.dispute.updated',
  'charge.dispute.closed',
  'charge.dispute.funds_withdrawn',
  'charge.dispute.funds_reinstated',
] as const;

const STRIPE = { type: 'system', id: null, label: 'Stripe' } as const;

/** The payment in Stripe's dashboard; test/ for an account connected with a test-mode key. */
export const stripePaymentUrl = (paymentIntent: string, live: boolean) =>
  `https://dashboard.stripe.com/${live ? '' : 'test/'}payments/${encodeURIComponent(paymentIntent)}`;

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null));

export const followDispute: StripeEventHandler = async (tx, context) => {
  const object = context.event.data.object as Stripe.Dispute;
  const paymentIntent = idOf(object.payment_intent);
  const payment = paymentIntent ? await findPaymentByReference(tx, context.operatorId, paymentIntent) : undefined;
  if (!payment || !paymentIntent) return void context.ignore('no payment of this operator');
  const state: DisputeState = {
    amount: object.amount,
    currency: object.currency.toUpperCase(),
    reason: object.reason,
    status: object.status,
    evidenceDueBy: object.evidence_details?.due_by ?? null,
    eventAt: context.event.created,
  };
  const account = await findStripeAccount(tx, context.operatorId);
  const bookings = await paymentBookings(tx, payment);
  const created = await insertDispute(
    tx,
    {
      ...state,
      operatorId: context.operatorId,
      paymentId: payment.id,
      reference: object.id,
      dashboardUrl: stripePaymentUrl(paymentIntent, Number(account?.live_mode ?? 0) === 1),
    },
    bookings.map((booking) => booking.id),
  );
  if (created) {
    for (const booking of bookings) {
      await audit(
        tx,
        {
          operatorId: context.operatorId,
          action: 'booking.dispute',
          resource: { type: 'booking', id: booking.reference },
          after: disputeView(created),
        },
        STRIPE,
      );
    }
    await tellOwners(tx, context.operatorId, created, bookings);
    return undefined;
  }
  if (!(await updateDispute(tx, context.operatorId, object.id, state))) context.ignore('a newer event of this dispute was applied');
  return undefined;
};

/** The deadline as the operator reads it: in the (first) booked activity's time zone. */
function deadline(dueBy: UnixSeconds | null, zone: string | undefined): string {
  if (dueBy === null) return 'Stripe names no deadline for evidence.';
  const timeZone = zone ?? 'UTC';
  const local = unixToZonedIso(dueBy, timeZone);
  const offset = local.slice(19);
  return `Evidence is due by ${local.slice(0, 10)} ${local.slice(11, 16)} (${timeZone} time, UTC${offset === 'Z' || offset === '' ? '+00:00' : offset}).`;
}

/** One e-mail per active owner, queued in the transaction that records the dispute: so once per dispute. */
async function tellOwners(tx: Tx, operatorId: number, dispute: DisputeRow, bookings: PaymentBooking[]): Promise<void> {
  const owners = (await listUsers(tx, operatorId)).filter((user) => user.role === 'owner' && user.status === 'active');
  if (owners.length === 0) return;
  const name = await operatorName(tx, operatorId);
  const references = bookings.map((booking) => booking.reference);
  const amount = `${formatMinorUnits(Number(dispute.amount), dispute.currency)} ${dispute.currency}`;
  const subject = `Payment disputed: ${references.join(', ') || dispute.dispute_reference} (${amount})`;
  const body =
    `A cardholder disputed a payment to ${name}.\n\n` +
    `Booking${references.length === 1 ? '' : 's'}: ${references.join(', ') || '(none found)'}\n` +
    `Amount disputed: ${amount}\n` +
    `Reason given: ${dispute.reason}\n` +
    `${deadline(dispute.evidence_due_by, bookings[0]?.timezone)}\n\n` +
    `Answer it in Stripe, where the payment is:\n${dispute.dashboard_url}\n\n` +
    'Without evidence before the deadline, the cardholder keeps the money. The booking shows the dispute in the dashboard.\n';
  const now = unixNow();
  for (const owner of owners) {
    await queueEmail(tx, { operatorId, kind: 'payment', to: owner.email, subject, body, sendAt: now, meter: null, meterExtraInfo: null });
  }
}
