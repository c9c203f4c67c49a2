// The webhook events of money moving: payment.succeeded when a payment takes money, payment.refunded
// when a refund gives it back. Written into the outbox by the payments store at the one place each status
// is set (insertPayment / changePaymentStatus, insertRefund / changeRefundStatus), inside the transaction
// of that change, so an event exists exactly when its money moved. Ids only: amounts, references and the
// bookings' references (asked of the shop, payment-bookings.ts), never a basket token or a guest's details.
import type { Tx } from '../db/connection.js';
import { operatorListens, recordEvents } from '../events/outbox.js';
import { formatMinorUnits } from '../lib/money.js';
import { paymentBookings } from './payment-bookings.js';
import type { PaymentRefundedEvent, PaymentSucceededEvent } from './schemas.js';
import type { Selectable } from 'kysely';
import type { PaymentTable, RefundTable } from '../db/schema.js';

// Row types from the schema (not store.ts, which calls these: no circle).
type PaymentRow = Selectable<PaymentTable>;
type RefundRow = Selectable<RefundTable>;

const money = (amount: number, currency: string, provider: string) => ({
  Amount: formatMinorUnits(amount, currency),
  AmountMinorUnits: amount,
  Currency: currency,
  Provider: provider,
});

export async function publishPaymentSucceeded(tx: Tx, payment: PaymentRow): Promise<void> {
  if (!(await operatorListens(tx, payment.operator_id))) return;
  const bookings = await paymentBookings(tx, payment);
  const data: PaymentSucceededEvent = {
    PaymentID: payment.id,
    ...money(Number(payment.amount), payment.currency, payment.provider),
    ProviderReference: payment.provider_reference,
    BookingReferences: bookings.map((booking) => booking.reference),
    SucceededAt: new Date(Number(payment.succeeded_at ?? Date.now())).toISOString(),
  };
  await recordEvents(tx, payment.operator_id, [
    { type: 'payment.succeeded', resource: `payment:${payment.id}`, audience: 'operator', data: JSON.stringify(data) },
  ]);
}

export async function publishRefundSucceeded(tx: Tx, refund: RefundRow, payment: PaymentRow): Promise<void> {
  if (!(await operatorListens(tx, refund.operator_id))) return;
  const booking = (await paymentBookings(tx, payment)).find((paid) => paid.id === refund.booking_id);
  const data: PaymentRefundedEvent = {
    RefundID: refund.id,
    PaymentID: payment.id,
    ...money(Number(refund.amount), refund.currency, payment.provider),
    ProviderReference: refund.provider_reference,
    PaymentProviderReference: payment.provider_reference,
    BookingReferences: booking ? [booking.reference] : [],
    Reason: refund.reason,
    SucceededAt: new Date(Number(refund.succeeded_at ?? Date.now())).toISOString(),
  };
  // The payment's resource: a refund is delivered after the payment it refunds.
  await recordEvents(tx, refund.operator_id, [
    { type: 'payment.refunded', resource: `payment:${payment.id}`, audience: 'operator', data: JSON.stringify(data) },
  ]);
}
