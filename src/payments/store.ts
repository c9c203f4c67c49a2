// SQL of payments (every attempt, whatever the provider), the operators' Stripe accounts and the Stripe
// events received. Row types stay here; view.ts maps them to the API.
import type { Kysely, Selectable } from 'kysely';
import { dialectOf, type Tx } from '../db/connection.js';
import type { Database, PaymentStatus, PaymentTable, RefundRequester, RefundStatus, RefundTable, StripeAccountTable } from '../db/schema.js';
import { publishPaymentSucceeded, publishRefundSucceeded } from './money-events.js';
import { asUnixSeconds, nowMillis, type UnixMillis, type UnixSeconds } from '../lib/clock.js';

export type PaymentRow = Selectable<PaymentTable>;
export type StripeAccountRow = Selectable<StripeAccountTable>;
export type RefundRow = Selectable<RefundTable>;

/** What a payment paid each booking, minor units of its currency: written when it takes money. */
export interface Allocation {
  bookingId: number;
  amount: number;
}

export interface NewPayment {
  operatorId: number;
  basketId: number;
  provider: string;
  status: 'succeeded' | 'declined' | 'pending';
  amount: number;
  currency: string;
  reference: string | null;
  failure: string | null;
  clientHmac: string | null;
  /** Stripe: when the Checkout Session about to be made will expire (Unix seconds). */
  sessionExpiresAt?: UnixSeconds;
  /** Which bookings it paid, when it is recorded succeeded (a basket's payment: what each item was charged). */
  allocations?: Allocation[];
}

/** What differs between a basket's payment and a booking's own; the rest of the row is the same. */
type PaymentOwner = Pick<PaymentTable, 'basket_id' | 'booking_id' | 'failure' | 'client_hmac'> & { method?: string };

/**
 * A payment taking money says which bookings it paid: a payment of one booking paid that booking all of it; a
 * basket's payment must be told (what each item was charged). Written in the transaction that makes the
 * payment succeeded, before payment.succeeded is published, so that every reader sees both or neither.
 */
async function allocate(tx: Tx, payment: PaymentRow, allocations: Allocation[] | undefined): Promise<void> {
  const parts = payment.booking_id !== null ? [{ bookingId: payment.booking_id, amount: Number(payment.amount) }] : allocations;
  if (parts === undefined) throw new Error(`Payment ${payment.id} took money without saying which bookings it paid`);
  const total = parts.reduce((sum, part) => sum + part.amount, 0);
  if (total !== Number(payment.amount)) throw new Error(`Payment ${payment.id} of ${payment.amount} was allocated ${total}`);
  if (parts.length === 0) return;
  await tx
    .insertInto('payment_allocations')
    .values(parts.map((part) => ({ payment_id: payment.id, booking_id: part.bookingId, operator_id: payment.operator_id, amount: part.amount })))
    .execute();
}

/** The payment took money: its allocations, then payment.succeeded (money-events.ts), in this transaction. */
async function tookMoney(tx: Tx, payment: PaymentRow, allocations: Allocation[] | undefined): Promise<void> {
  await allocate(tx, payment, allocations);
  await publishPaymentSucceeded(tx, payment);
}

/**
 * Writes a payment row. One recorded succeeded (a test card, a desk payment taken now) is money moved like
 * any other: its allocations are written and payment.succeeded is published in this transaction.
 */
async function writePayment(
  tx: Tx,
  owner: PaymentOwner,
  payment: Pick<NewPayment, 'operatorId' | 'provider' | 'amount' | 'currency' | 'reference' | 'sessionExpiresAt' | 'allocations'> & {
    status: PaymentStatus;
  },
): Promise<PaymentRow> {
  const now = nowMillis();
  const row = await tx
    .insertInto('payments')
    .values({
      ...owner,
      operator_id: payment.operatorId,
      provider: payment.provider,
      status: payment.status,
      amount: payment.amount,
      currency: payment.currency,
      provider_reference: payment.reference,
      created_at: now,
      checkout_session_id: null,
      redirect_url: null,
      session_expires_at: payment.sessionExpiresAt ?? null,
      refund_reference: null,
      updated_at: now,
      succeeded_at: payment.status === 'succeeded' ? now : null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (row.status === 'succeeded') await tookMoney(tx, row, payment.allocations);
  return row;
}

/** Records a basket's payment attempt. */
export function insertPayment(tx: Tx, payment: NewPayment): Promise<PaymentRow> {
  return writePayment(tx, { basket_id: payment.basketId, booking_id: null, failure: payment.failure, client_hmac: payment.clientHmac }, payment);
}

/** Declined attempts since `sinceMs` for a basket, a booking's balance or from an address: their count and the last one's time. */
export async function recentDeclines(tx: Tx, by: { basketId: number } | { bookingId: number } | { clientHmac: string }, sinceMs: UnixMillis) {
  let query = tx
    .selectFrom('payments')
    .select((eb) => [eb.fn.countAll<number>().as('declines'), eb.fn.max<number>('created_at').as('last')])
    .where('status', '=', 'declined')
    .where('created_at', '>', sinceMs);
  if ('basketId' in by) query = query.where('basket_id', '=', by.basketId);
  else if ('bookingId' in by) query = query.where('booking_id', '=', by.bookingId);
  else query = query.where('client_hmac', '=', by.clientHmac);
  const row = await query.executeTakeFirst();
  return { declines: Number(row?.declines ?? 0), last: row?.last === null || row?.last === undefined ? null : Number(row.last) };
}

/** The basket's latest payment through `provider` (its newest attempt), if any. */
export async function latestBasketPayment(db: Kysely<Database>, basketId: number, provider?: string): Promise<PaymentRow | undefined> {
  let query = db.selectFrom('payments').selectAll().where('basket_id', '=', basketId);
  if (provider !== undefined) query = query.where('provider', '=', provider);
  return query.orderBy('id', 'desc').limit(1).executeTakeFirst();
}

export async function findPayment(db: Kysely<Database>, operatorId: number, paymentId: number): Promise<PaymentRow | undefined> {
  return db.selectFrom('payments').selectAll().where('operator_id', '=', operatorId).where('id', '=', paymentId).executeTakeFirst();
}

/** The operator's payment for a Checkout Session. */
export async function findPaymentBySession(db: Kysely<Database>, operatorId: number, sessionId: string): Promise<PaymentRow | undefined> {
  return db.selectFrom('payments').selectAll().where('operator_id', '=', operatorId).where('checkout_session_id', '=', sessionId).executeTakeFirst();
}

/**
 * The payment again, locked until the transaction ends (PostgreSQL; SQLite's write transaction holds the
 * database already). Callers lock its basket first, as checkout does, so two writers never wait on each other.
 */
export async function lockPayment(tx: Tx, paymentId: number): Promise<PaymentRow> {
  let query = tx.selectFrom('payments').selectAll().where('id', '=', paymentId);
  if (dialectOf(tx) === 'postgres') query = query.forUpdate();
  return query.executeTakeFirstOrThrow();
}

/**
 * The session Stripe made for a pending payment: how a retried checkout answers the same one. `expiresAt` is
 * Stripe's `expires_at` as it came, Unix seconds.
 */
export async function recordCheckoutSession(tx: Tx, paymentId: number, session: { id: string; url: string; expiresAt: number }): Promise<void> {
  await tx
    .updateTable('payments')
    .set({
      checkout_session_id: session.id,
      redirect_url: session.url,
      session_expires_at: asUnixSeconds(session.expiresAt),
      updated_at: nowMillis(),
    })
    .where('id', '=', paymentId)
    .execute();
}

/**
 * Moves a payment from one of `from` to `status`, with what is known by then; false when it was not in
 * one of them (another delivery got there first). Becoming succeeded is the one place a payment takes
 * money after it was recorded: it stamps succeeded_at and publishes payment.succeeded.
 */
export async function changePaymentStatus(
  tx: Tx,
  paymentId: number,
  from: PaymentStatus[],
  status: PaymentStatus,
  changes: { providerReference?: string | null; refundReference?: string; failure?: string; allocations?: Allocation[] } = {},
): Promise<boolean> {
  const now = nowMillis();
  const row = await tx
    .updateTable('payments')
    .set({
      status,
      updated_at: now,
      ...(status === 'succeeded' && { succeeded_at: now }),
      ...(changes.providerReference !== undefined && { provider_reference: changes.providerReference }),
      ...(changes.refundReference !== undefined && { refund_reference: changes.refundReference }),
      ...(changes.failure !== undefined && { failure: changes.failure }),
    })
    .where('id', '=', paymentId)
    .where('status', 'in', from)
    .returningAll()
    .executeTakeFirst();
  if (row && status === 'succeeded') await tookMoney(tx, row, changes.allocations);
  return row !== undefined;
}

export async function findStripeAccount(db: Kysely<Database>, operatorId: number): Promise<StripeAccountRow | undefined> {
  return db.selectFrom('stripe_accounts').selectAll().where('operator_id', '=', operatorId).executeTakeFirst();
}

export async function saveStripeAccount(tx: Tx, row: Omit<StripeAccountRow, 'created_at' | 'updated_at'>): Promise<void> {
  const now = nowMillis();
  const { operator_id: _operator, ...changes } = row;
  await tx
    .insertInto('stripe_accounts')
    .values({ ...row, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('operator_id').doUpdateSet({ ...changes, updated_at: now }))
    .execute();
}

export async function deleteStripeAccount(tx: Tx, operatorId: number): Promise<boolean> {
  const result = await tx.deleteFrom('stripe_accounts').where('operator_id', '=', operatorId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Records a Stripe event as received for the operator; false when it was received before. */
export async function recordStripeEvent(tx: Tx, operatorId: number, event: { id: string; type: string }): Promise<boolean> {
  const inserted = await tx
    .insertInto('stripe_events')
    .values({ operator_id: operatorId, event_id: event.id, type: event.type, received_at: nowMillis() })
    .onConflict((oc) => oc.columns(['operator_id', 'event_id']).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
}

/** Forgets a received event, so that Stripe's next delivery of it is handled again (its follow-up failed). */
export async function forgetStripeEvent(tx: Tx, operatorId: number, eventId: string): Promise<void> {
  await tx.deleteFrom('stripe_events').where('operator_id', '=', operatorId).where('event_id', '=', eventId).execute();
}

export interface NewRefund {
  operatorId: number;
  paymentId: number;
  bookingId: number;
  amount: number;
  currency: string;
  status: RefundStatus;
  providerReference: string | null;
  reason: string;
  requestedBy: { type: RefundRequester; id: number | null };
}

/** Records a refund; one recorded succeeded (the test provider's) publishes payment.refunded (money-events.ts). */
export async function insertRefund(tx: Tx, refund: NewRefund): Promise<RefundRow> {
  const now = nowMillis();
  const row = await tx
    .insertInto('refunds')
    .values({
      operator_id: refund.operatorId,
      payment_id: refund.paymentId,
      booking_id: refund.bookingId,
      amount: refund.amount,
      currency: refund.currency,
      status: refund.status,
      provider_reference: refund.providerReference,
      reason: refund.reason,
      failure: null,
      requested_by_type: refund.requestedBy.type,
      requested_by_id: refund.requestedBy.id,
      created_at: now,
      updated_at: now,
      succeeded_at: refund.status === 'succeeded' ? now : null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (row.status === 'succeeded') await refundSucceeded(tx, row);
  return row;
}

async function refundSucceeded(tx: Tx, refund: RefundRow): Promise<void> {
  const payment = await tx.selectFrom('payments').selectAll().where('id', '=', refund.payment_id).executeTakeFirstOrThrow();
  await publishRefundSucceeded(tx, refund, payment);
}

export async function findRefund(db: Kysely<Database>, operatorId: number, refundId: number): Promise<RefundRow | undefined> {
  return db.selectFrom('refunds').selectAll().where('operator_id', '=', operatorId).where('id', '=', refundId).executeTakeFirst();
}

/** The operator's refund that the provider knows by `reference` (re_...). */
export async function findRefundByReference(db: Kysely<Database>, operatorId: number, reference: string): Promise<RefundRow | undefined> {
  return db.selectFrom('refunds').selectAll().where('operator_id', '=', operatorId).where('provider_reference', '=', reference).executeTakeFirst();
}

/** The booking's refunds, oldest first. */
export async function listBookingRefunds(db: Kysely<Database>, operatorId: number, bookingId: number): Promise<RefundRow[]> {
  return db.selectFrom('refunds').selectAll().where('operator_id', '=', operatorId).where('booking_id', '=', bookingId).orderBy('id').execute();
}

/**
 * Moves a refund from one of `from` to `status`; false when it was in none of them (someone else moved it
 * first). Becoming succeeded stamps succeeded_at and publishes payment.refunded, once: a refund leaves
 * succeeded only for failed, and failed goes back to pending before it may succeed again.
 */
export async function changeRefundStatus(
  tx: Tx,
  refundId: number,
  from: RefundStatus[],
  status: RefundStatus,
  changes: { providerReference?: string; failure?: string | null } = {},
): Promise<boolean> {
  const now = nowMillis();
  const row = await tx
    .updateTable('refunds')
    .set({
      status,
      updated_at: now,
      succeeded_at: status === 'succeeded' ? now : null,
      ...(changes.providerReference !== undefined && { provider_reference: changes.providerReference }),
      ...(changes.failure !== undefined && { failure: changes.failure }),
    })
    .where('id', '=', refundId)
    .where('status', 'in', from)
    .returningAll()
    .executeTakeFirst();
  if (row?.status === 'succeeded') await refundSucceeded(tx, row);
  return row !== undefined;
}

/** Stripe refunds recorded but never answered by Stripe (a guest's cancellation's, or a process that stopped before asking). */
export async function unsentRefunds(db: Kysely<Database>, limit: number, operatorId?: number): Promise<RefundRow[]> {
  let query = db
    .selectFrom('refunds')
    .innerJoin('payments', 'payments.id', 'refunds.payment_id')
    .selectAll('refunds')
    .where('refunds.status', '=', 'pending')
    .where('refunds.provider_reference', 'is', null)
    .where('payments.provider', '=', 'stripe');
  if (operatorId !== undefined) query = query.where('refunds.operator_id', '=', operatorId);
  return query.orderBy('refunds.id').limit(limit).execute();
}

export interface NewBookingPayment {
  operatorId: number;
  bookingId: number;
  /** desk: recorded by staff; stripe or test: a balance paid online. */
  provider: string;
  method: string;
  status: 'succeeded' | 'pending' | 'declined';
  amount: number;
  currency: string;
  reference: string | null;
  /** Stripe: when the balance's Checkout Session about to be made will expire (Unix seconds). */
  sessionExpiresAt?: UnixSeconds;
  /** A declined attempt: why, and the HMAC of the paying client's address (declines are slowed per address). */
  failure?: string;
  clientHmac?: string;
}

/** A payment of one booking alone (the desk's, a balance's): booking_id, no basket. */
export function insertBookingPayment(tx: Tx, payment: NewBookingPayment): Promise<PaymentRow> {
  return writePayment(
    tx,
    {
      basket_id: null,
      booking_id: payment.bookingId,
      failure: payment.failure ?? null,
      client_hmac: payment.clientHmac ?? null,
      method: payment.method,
    },
    payment,
  );
}

/** The booking's newest balance payment through Stripe (a Checkout Session), if any. */
export async function latestBalancePayment(db: Kysely<Database>, bookingId: number): Promise<PaymentRow | undefined> {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('booking_id', '=', bookingId)
    .where('provider', '=', 'stripe')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The booking's oldest invoice issued at the desk and not yet paid. */
export async function openInvoice(tx: Tx, bookingId: number): Promise<PaymentRow | undefined> {
  return tx
    .selectFrom('payments')
    .selectAll()
    .where('booking_id', '=', bookingId)
    .where('provider', '=', 'desk')
    .where('method', '=', 'invoice')
    .where('status', '=', 'pending')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Payments and refunds by status, for the metrics (read at each scrape: one pass over each table, which
 * stays small beside the bookings; an operator's many payments are still far below a scrape interval).
 */
export async function moneyCountsByStatus(db: Kysely<Database>): Promise<{ payments: Record<string, number>; refunds: Record<string, number> }> {
  const payments = await db
    .selectFrom('payments')
    .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
    .groupBy('status')
    .execute();
  const refunds = await db
    .selectFrom('refunds')
    .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
    .groupBy('status')
    .execute();
  return {
    payments: Object.fromEntries(payments.map((row) => [row.status, Number(row.n)])),
    refunds: Object.fromEntries(refunds.map((row) => [row.status, Number(row.n)])),
  };
}
