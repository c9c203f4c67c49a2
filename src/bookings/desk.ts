// The desk's payments (docs/payments.md, "The desk"): how a point-of-sale booking was paid, and what staff
// take later (the balance at check-in). Each is a payments row of the booking alone (provider `desk`, its
// method). Never more than is due: the check and the insert run in one transaction with the booking's row
// locked (lockBooking: an UPDATE that changes nothing, so PostgreSQL holds the row; SQLite's write
// transaction is serial), so two clicks at once never collect twice.
import type { Kysely } from 'kysely';
import type { Db, Tx } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { audit } from '../audit/log.js';
import { DomainError, NotFound, ValidationFailed } from '../http/errors.js';
import { formatMinorUnits, parseMinorUnits } from '../lib/money.js';
import { owedOf, type Owed } from '../payments/booking-money.js';
import type { DeskMethod, DeskPaymentAnswer, DeskPaymentBody, PosPayment } from '../payments/schemas.js';
import { changePaymentStatus, findPayment, insertBookingPayment, openInvoice, type PaymentRow } from '../payments/index.js';
import { bookingPaymentView } from '../payments/view.js';
import { findBookingId } from './store.js';
import { lockBooking } from './lifecycle/store.js';

/** More than is due: 409 naming the amount's field. */
const tooMuch = (field: string, message: string) => new DomainError('conflict', message, [{ field, message }]);

const NEEDS_REFERENCE: readonly DeskMethod[] = ['card_terminal', 'voucher'];

/** Amount (decimal text, or all that is due when absent) and Reference checked against what is due; 422/409 naming `prefix` fields. */
function deskAmount(body: { Method: string; Amount?: string; Reference?: string }, owed: Owed, reference: string, prefix: string): number {
  const errors = [];
  if (NEEDS_REFERENCE.includes(body.Method as DeskMethod) && body.Reference === undefined)
    errors.push({ field: `${prefix}Reference`, message: `Reference is required for ${body.Method} (the receipt's number or the voucher's code)` });
  let amount = owed.AmountDue;
  if (body.Amount !== undefined) {
    const parsed = parseMinorUnits(body.Amount, owed.Currency);
    if (parsed === undefined)
      errors.push({ field: `${prefix}Amount`, message: `Amount must be a decimal with at most the minor digits of ${owed.Currency}` });
    else if (parsed <= 0) errors.push({ field: `${prefix}Amount`, message: 'Amount must be more than 0' });
    else amount = parsed;
  }
  if (errors.length > 0) throw new ValidationFailed(errors);
  if (owed.PaymentState === 'partner')
    throw tooMuch(`${prefix}Amount`, `${reference} is a partner booking, paid to the marketplace: nothing is due to the operator`);
  if (owed.AmountDue === 0) throw tooMuch(`${prefix}Amount`, `Nothing is due for ${reference}`);
  if (amount > owed.AmountDue)
    throw tooMuch(
      `${prefix}Amount`,
      `Amount is more than is due for ${reference}: ${formatMinorUnits(owed.AmountDue, owed.Currency)} ${owed.Currency}`,
    );
  return amount;
}

async function owedNow(tx: Kysely<Database>, operatorId: number, bookingId: number): Promise<Owed> {
  return (await owedOf(tx, operatorId, [bookingId])).get(bookingId)!;
}

async function record(
  tx: Tx,
  operatorId: number,
  bookingId: number,
  reference: string,
  payment: { method: DeskMethod; amount: number; currency: string; reference: string | null },
): Promise<PaymentRow> {
  const row = await insertBookingPayment(tx, {
    operatorId,
    bookingId,
    provider: 'desk',
    method: payment.method,
    status: 'succeeded',
    amount: payment.amount,
    currency: payment.currency,
    reference: payment.reference,
  });
  await audit(tx, { operatorId, action: 'booking.payment', resource: { type: 'booking', id: reference }, after: bookingPaymentView(row) });
  return row;
}

/**
 * A point-of-sale booking's payment, in the booking's transaction (its row is new: nobody else pays it).
 * unpaid records nothing; invoice records the invoice issued (pending: owed until paid); the others the
 * money taken. Errors name Payment.Amount and Payment.Reference, and undo the booking.
 */
export async function recordPosPayment(tx: Tx, operatorId: number, reference: string, payment: PosPayment | undefined): Promise<void> {
  if (payment === undefined || payment.Method === 'unpaid') {
    if (payment?.Amount !== undefined || payment?.Reference !== undefined)
      throw ValidationFailed.field('Payment.Amount', 'An unpaid booking takes no Amount or Reference');
    return;
  }
  const bookingId = (await findBookingId(tx, operatorId, reference))!;
  const owed = await owedNow(tx, operatorId, bookingId);
  if (owed.AmountDue === 0 && payment.Amount === undefined) return; // a free booking: nothing to take
  const amount = deskAmount(payment, owed, reference, 'Payment.');
  const taken = { method: payment.Method, amount, currency: owed.Currency, reference: payment.Reference ?? null };
  if (payment.Method !== 'invoice') {
    await record(tx, operatorId, bookingId, reference, taken);
    return;
  }
  const invoice = await insertBookingPayment(tx, { operatorId, bookingId, provider: 'desk', ...taken, status: 'pending' });
  await audit(tx, { operatorId, action: 'booking.invoice', resource: { type: 'booking', id: reference }, after: bookingPaymentView(invoice) });
}

/**
 * Staff record a later payment of a booking (the balance at check-in): at most what is due, under the
 * booking's lock. Method invoice pays the booking's open invoice when Amount is absent or its amount.
 */
export async function recordDeskPayment(db: Db, operatorId: number, reference: string, body: DeskPaymentBody): Promise<DeskPaymentAnswer> {
  const found = await findBookingId(db.kysely, operatorId, reference);
  if (found === undefined) throw new NotFound(`Booking ${reference} not found`);
  const bookingId = found;
  const paymentId = await db.write(async (tx) => {
    const locked = await lockBooking(tx, bookingId);
    // A booking on hold is not sold yet (a basket being paid, a partner's hold): the desk takes money for confirmed ones.
    if (locked?.status === 'on_hold') throw tooMuch('Amount', `${reference} is on hold, not confirmed: nothing is due yet`);
    const owed = await owedNow(tx, operatorId, bookingId);
    const amount = deskAmount(body, owed, reference, '');
    const invoice = body.Method === 'invoice' ? await openInvoice(tx, bookingId) : undefined;
    if (invoice && Number(invoice.amount) === amount) {
      await changePaymentStatus(tx, invoice.id, ['pending'], 'succeeded', body.Reference === undefined ? {} : { providerReference: body.Reference });
      const paid = (await findPayment(tx, operatorId, invoice.id))!;
      await audit(tx, { operatorId, action: 'booking.payment', resource: { type: 'booking', id: reference }, after: bookingPaymentView(paid) });
      return invoice.id;
    }
    const row = await record(tx, operatorId, bookingId, reference, {
      method: body.Method,
      amount,
      currency: owed.Currency,
      reference: body.Reference ?? null,
    });
    return row.id;
  });
  const payment = (await findPayment(db.kysely, operatorId, paymentId))!;
  const owed = await owedNow(db.kysely, operatorId, bookingId);
  return {
    BookingReference: reference,
    Payment: bookingPaymentView(payment),
    AmountPaid: owed.AmountPaid,
    AmountDue: owed.AmountDue,
    PaymentState: owed.PaymentState,
  };
}
