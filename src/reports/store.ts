// The one query behind the reports. It starts from the operator's timeslots of the period
// (timeslots_operator_date, migration 017) and reaches their bookings through bookings_timeslot, so its
// cost follows the period, not the operator's history. A booking's revenue is the sum of its tickets at
// the prices they were sold for; a booking's tickets share one currency (bookings/view.ts).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

export interface ReportRowData {
  date: string;
  activity_public_id: string;
  activity_name: string;
  source: string;
  partner: string | null;
  status: string;
  currency: string;
  bookings: number | string | bigint;
  guests: number | string | bigint | null;
  revenue: number | string | bigint | null;
}

export async function reportRows(db: Kysely<Database>, operatorId: number, from: string, to: string): Promise<ReportRowData[]> {
  const perBooking = db
    .selectFrom('timeslots')
    .innerJoin('bookings', 'bookings.timeslot_id', 'timeslots.id')
    .innerJoin('activities', 'activities.id', 'timeslots.activity_id')
    .where('timeslots.operator_id', '=', operatorId)
    .where('timeslots.date', '>=', from)
    .where('timeslots.date', '<=', to)
    .where('bookings.status', 'in', ['confirmed', 'cancelled'])
    .select([
      'timeslots.date',
      'activities.public_id as activity_public_id',
      'activities.name as activity_name',
      'bookings.source',
      'bookings.partner',
      'bookings.status',
      'bookings.participants',
      // A booking without ticket rows (none exist since migration 010) counts in its activity's currency.
      sql<string>`coalesce((SELECT min(bt.currency) FROM booking_tickets bt WHERE bt.booking_id = bookings.id), activities.currency)`.as('currency'),
      sql<number>`coalesce((SELECT sum(bt.quantity * bt.unit_price) FROM booking_tickets bt WHERE bt.booking_id = bookings.id), 0)`.as('revenue'),
    ])
    .as('b');
  return db
    .selectFrom(perBooking)
    .select(['b.date', 'b.activity_public_id', 'b.activity_name', 'b.source', 'b.partner', 'b.status', 'b.currency'])
    .select((eb) => [eb.fn.countAll().as('bookings'), eb.fn.sum('b.participants').as('guests'), eb.fn.sum('b.revenue').as('revenue')])
    .groupBy(['b.date', 'b.activity_public_id', 'b.activity_name', 'b.source', 'b.partner', 'b.status', 'b.currency'])
    .execute() as Promise<ReportRowData[]>;
}
