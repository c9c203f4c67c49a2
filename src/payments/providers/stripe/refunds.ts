// Sending a refund to its provider, after the commit that recorded it (never inside a transaction), and
// following Stripe's refund events. The refund row was made pending under the payment's lock (the check
// that a booking never refunds more than its share is src/payments/refunds.ts's); here its
// provider's answer moves it to succeeded, pending (Stripe confirms later) or failed.
import type Stripe from 'stripe';
import type { Db } from '../../../db/connection.js';
import type { InstanceKeys } from '../../../secrets/keys.js';
import type { RefundStatus } from '../../../db/schema.js';
import { changeRefundStatus, findPayment, findRefund, findRefundByReference, findStripeAccount, type RefundRow } from '../../store.js';
import { accountClient, createRefund, failureOf, type StripeSettings } from './gateway.js';
import type { StripeEventHandler } from './events.js';

/** The idempotency key of a refund: a retry of it is the same refund to Stripe. */
export const refundIdempotencyKey = (refund: Pick<RefundRow, 'id'>): string => `slotbook-refund-${refund.id}`;

/** Stripe's refund status in slotbook's words (requires_action waits, like pending). */
export function refundStatusOf(refund: Pick<Stripe.Refund, 'status'>): RefundStatus {
  if (refund.status === 'succeeded') return 'succeeded';
  if (refund.status === 'failed' || refund.status === 'canceled') return 'failed';
  return 'pending';
}

/**
 * Asks Stripe for a pending refund of a Stripe payment and records the answer; answers the refund as it is
 * then. A refusal or an unreachable Stripe leaves it failed, to be retried with the same key.
 */
export async function sendRefund(db: Db, keys: InstanceKeys, settings: StripeSettings, refund: RefundRow): Promise<RefundRow> {
  const payment = await findPayment(db.kysely, refund.operator_id, refund.payment_id);
  const account = await findStripeAccount(db.kysely, refund.operator_id);
  let outcome: { status: RefundStatus; providerReference?: string; failure: string | null };
  if (!payment?.provider_reference || !account) {
    outcome = { status: 'failed', failure: account ? 'The payment names no PaymentIntent to refund' : 'No Stripe account is connected' };
  } else {
    try {
      const answer = await createRefund(
        accountClient(settings, keys, account),
        {
          paymentIntent: payment.provider_reference,
          amount: Number(refund.amount),
          reason: 'requested_by_customer',
          metadata: {
            slotbook_operator_id: String(refund.operator_id),
            slotbook_payment_id: String(refund.payment_id),
            slotbook_refund_id: String(refund.id),
          },
        },
        refundIdempotencyKey(refund),
      );
      const status = refundStatusOf(answer);
      outcome = {
        status,
        providerReference: answer.id,
        failure: status === 'failed' ? (answer.failure_reason ?? 'Stripe refused the refund') : null,
      };
    } catch (error) {
      const failure = failureOf(error);
      outcome = {
        status: 'failed',
        failure:
          failure === 'unavailable' ? 'Stripe could not be reached' : failure === 'refused' ? 'Stripe refused the key' : 'Stripe refused the refund',
      };
    }
  }
  await db.write((tx) =>
    changeRefundStatus(tx, refund.id, ['pending'], outcome.status, {
      failure: outcome.failure,
      ...(outcome.providerReference !== undefined && { providerReference: outcome.providerReference }),
    }),
  );
  return (await findRefund(db.kysely, refund.operator_id, refund.id))!;
}

export const REFUND_EVENTS = ['refund.created', 'refund.updated', 'refund.failed', 'charge.refund.updated'] as const;

/**
 * Stripe's word on a refund moves its row: pending -> succeeded or failed (a succeeded one may still fail
 * later, Stripe says so with refund.failed). The refund is found by the id slotbook put in its metadata,
 * else by Stripe's id; another operator's or an unknown refund changes nothing.
 */
export const followRefund: StripeEventHandler = async (tx, context) => {
  const object = context.event.data.object as Stripe.Refund;
  const named = Number(object.metadata?.slotbook_refund_id);
  const refund =
    (Number.isSafeInteger(named) && named > 0 ? await findRefund(tx, context.operatorId, named) : undefined) ??
    (await findRefundByReference(tx, context.operatorId, object.id));
  if (!refund) return void context.ignore('no refund of this operator');
  const status = context.event.type === 'refund.failed' ? 'failed' : refundStatusOf(object);
  const from: RefundStatus[] = status === 'failed' ? ['pending', 'succeeded'] : ['pending'];
  const moved = await changeRefundStatus(tx, refund.id, from, status, {
    providerReference: object.id,
    failure: status === 'failed' ? (object.failure_reason ?? 'Stripe could not refund it') : null,
  });
  if (!moved) context.ignore(`the refund is ${refund.status} already`);
  return undefined;
};

/** charge.refunded: the charge's refunds, each followed as its own refund event would be. */
export const followChargeRefunds: StripeEventHandler = async (tx, context) => {
  const charge = context.event.data.object as Stripe.Charge;
  const refunds = charge.refunds?.data ?? [];
  if (refunds.length === 0) return void context.ignore('the charge lists no refunds');
  for (const refund of refunds) {
    await followRefund(tx, {
      ...context,
      event: { ...context.event, type: 'refund.updated', data: { ...context.event.data, object: refund } } as typeof context.event,
    });
  }
  return undefined;
};
