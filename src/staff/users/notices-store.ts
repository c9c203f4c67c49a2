// SQL of the staff's choice of booking e-mails (migration 031): none, each booking, or a daily digest. The
// notices themselves are the notices/ folder's (a reaction to bookings, a daily job).
import { expressionBuilder, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Tx } from '../../db/connection.js';
import type { BookingNotices, Database } from '../../db/schema.js';
import { nowMillis } from '../../lib/clock.js';

export interface NoticeRecipient {
  id: number;
  operator_id: number;
  email: string;
  name: string;
}

export async function setBookingNotices(tx: Tx, operatorId: number, userId: number, notices: BookingNotices): Promise<void> {
  await tx
    .updateTable('staff_users')
    .set({ booking_notices: notices, updated_at: nowMillis() })
    .where('id', '=', userId)
    .where('operator_id', '=', operatorId)
    .execute();
}

/** The operator's active staff who asked for an e-mail per booking. */
export async function recipientsOfEachBooking(db: Kysely<Database>, operatorId: number): Promise<NoticeRecipient[]> {
  return db
    .selectFrom('staff_users')
    .select(['id', 'operator_id', 'email', 'name'])
    .where('operator_id', '=', operatorId)
    .where('booking_notices', '=', 'each')
    .where('status', '=', 'active')
    .orderBy('id')
    .execute();
}

/** Whether any of the operator's staff asked for an e-mail per booking, as a condition a booking's first query folds in. */
export function anyoneNoticesEachBooking(operatorId: number): Expression<SqlBool> {
  const eb = expressionBuilder<Database, never>();
  return eb.exists(
    eb
      .selectFrom('staff_users')
      .select('staff_users.id')
      .where('staff_users.operator_id', '=', operatorId)
      .where('staff_users.booking_notices', '=', 'each')
      .where('staff_users.status', '=', 'active'),
  );
}

/** Active staff of any operator who asked for the daily digest and have not had today's (a UTC date). */
export async function digestRecipients(db: Kysely<Database>, today: string, limit: number): Promise<NoticeRecipient[]> {
  return db
    .selectFrom('staff_users')
    .select(['id', 'operator_id', 'email', 'name'])
    .where('booking_notices', '=', 'digest')
    .where('status', '=', 'active')
    .where((eb) => eb.or([eb('digest_sent_on', 'is', null), eb('digest_sent_on', '<', today)]))
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Marks today's digest as sent to the user; false when another process did first. */
export async function markDigestSent(tx: Tx, userId: number, today: string): Promise<boolean> {
  const result = await tx
    .updateTable('staff_users')
    .set({ digest_sent_on: today })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('digest_sent_on', 'is', null), eb('digest_sent_on', '<', today)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
