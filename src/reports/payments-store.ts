// The queries behind the payment report: money taken (succeeded payments, each split over the bookings it
// paid by its allocations) and money given back (succeeded refunds, each of one booking), in a window of
// instants wide enough for every time zone; the service keeps what falls on the period's dates in each
// activity's zone. Indexed by payments_succeeded and refunds_succeeded (migration 027).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { UnixMillis } from '../lib/clock.js';

type Integer = number | string | bigint;

export interface MoneyLine {
  /** The payment or the refund. */
  id: number;
  /** What the payment paid the booking (its allocation), or what the refund gave back. */
  amount: Integer;
  currency: string;
  succeeded_at: Integer;
  booking_id: number;
  source: string;
  partner: string | null;
  activity_public_id: string;
  activity_name: string;
  timezone: string;
}

/** Succeeded payments of the window, one line per booking they paid with what they paid it (their allocations). */
export async function paymentLines(db: Kysely<Database>, operatorId: number, fromMs: UnixMillis, toMs: UnixMillis): Promise<MoneyLine[]> {
  const lines = await db
    .selectFrom('payments')
    .innerJoin('payment_allocations', 'payment_allocations.payment_id', 'payments.id')
    .innerJoin('bookings', 'bookings.id', 'payment_allocations.booking_id')
    .innerJoin('timeslots', 'timeslots.id', 'bookings.timeslot_id')
    .innerJoin('activities', 'activities.id', 'timeslots.activity_id')
    .where('payments.operator_id', '=', operatorId)
    .where('payments.status', '=', 'succeeded')
    .where('payments.succeeded_at', '>=', fromMs)
    .where('payments.succeeded_at', '<', toMs)
    .select([
      'payments.id',
      'payment_allocations.amount',
      'payments.currency',
      'payments.succeeded_at',
      'bookings.id as booking_id',
      'bookings.source',
      'bookings.partner',
      'activities.public_id as activity_public_id',
      'activities.name as activity_name',
      'activities.timezone',
    ])
    .orderBy('payments.id')
    .orderBy('bookings.id')
    .execute();
  return lines as MoneyLine[];
}

/** Succeeded refunds of the window, each with its booking. */
export async function refundLines(db: Kysely<Database>, operatorId: number, fromMs: UnixMillis, toMs: UnixMillis): Promise<MoneyLine[]> {
  return db
    .selectFrom('refunds')
    .innerJoin('bookings', 'bookings.id', 'refunds.booking_id')
    .innerJoin('timeslots', 'timeslots.id', 'bookings.timeslot_id')
    .innerJoin('activities', 'activities.id', 'timeslots.activity_id')
    .where('refunds.operator_id', '=', operatorId)
    .where('refunds.status', '=', 'succeeded')
    .where('refunds.succeeded_at', '>=', fromMs)
    .where('refunds.succeeded_at', '<', toMs)
    .select([
      'refunds.id',
      'refunds.amount',
      'refunds.currency',
      'refunds.succeeded_at',
      'bookings.id as booking_id',
      'bookings.source',
      'bookings.partner',
      'activities.public_id as activity_public_id',
      'activities.name as activity_name',
      'activities.timezone',
    ])
    .orderBy('refunds.id')
    .execute() as Promise<MoneyLine[]>;
}
