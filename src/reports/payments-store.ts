// The queries behind the payment report: money taken (succeeded payments, each split over the bookings it
// paid by their shares) and money given back (succeeded refunds, each of one booking), in a window of
// instants wide enough for every time zone; the service keeps what falls on the period's dates in each
// activity's zone. Indexed by payments_succeeded and refunds_succeeded (migration 027).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

type Integer = number | string | bigint;

export interface MoneyLine {
  /** The payment (for shares) or the refund. */
  id: number;
  amount: Integer;
  currency: string;
  succeeded_at: Integer;
  booking_id: number;
  /** What the booking's tickets cost: its share of a basket's payment. */
  share: Integer;
  source: string;
  partner: string | null;
  activity_public_id: string;
  activity_name: string;
  timezone: string;
}

const bookingShare = sql<number>`coalesce((SELECT sum(bt.quantity * bt.unit_price) FROM booking_tickets bt WHERE bt.booking_id = bookings.id), 0)`;

/** Succeeded payments of the window with the bookings they paid: a basket's, or the one booking a payment names. */
export async function paymentLines(db: Kysely<Database>, operatorId: number, fromMs: number, toMs: number): Promise<MoneyLine[]> {
  const base = db
    .selectFrom('payments')
    .where('payments.operator_id', '=', operatorId)
    .where('payments.status', '=', 'succeeded')
    .where('payments.succeeded_at', '>=', fromMs)
    .where('payments.succeeded_at', '<', toMs);
  const columns = [
    'payments.id',
    'payments.amount',
    'payments.currency',
    'payments.succeeded_at',
    'bookings.id as booking_id',
    'bookings.source',
    'bookings.partner',
    'activities.public_id as activity_public_id',
    'activities.name as activity_name',
    'activities.timezone',
  ] as const;
  const ofBaskets = await base
    .innerJoin('basket_items', 'basket_items.basket_id', 'payments.basket_id')
    .innerJoin('bookings', 'bookings.id', 'basket_items.booking_id')
    .innerJoin('timeslots', 'timeslots.id', 'bookings.timeslot_id')
    .innerJoin('activities', 'activities.id', 'timeslots.activity_id')
    .select(columns)
    .select(bookingShare.as('share'))
    .orderBy('payments.id')
    .orderBy('bookings.id')
    .execute();
  const ofBookings = await base
    .where('payments.basket_id', 'is', null)
    .innerJoin('bookings', 'bookings.id', 'payments.booking_id')
    .innerJoin('timeslots', 'timeslots.id', 'bookings.timeslot_id')
    .innerJoin('activities', 'activities.id', 'timeslots.activity_id')
    .select(columns)
    .select(sql<number>`payments.amount`.as('share'))
    .orderBy('payments.id')
    .execute();
  return [...ofBaskets, ...ofBookings] as MoneyLine[];
}

/** Succeeded refunds of the window, each with its booking. */
export async function refundLines(db: Kysely<Database>, operatorId: number, fromMs: number, toMs: number): Promise<MoneyLine[]> {
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
      'refunds.amount as share',
      'bookings.source',
      'bookings.partner',
      'activities.public_id as activity_public_id',
      'activities.name as activity_name',
      'activities.timezone',
    ])
    .orderBy('refunds.id')
    .execute() as Promise<MoneyLine[]>;
}
