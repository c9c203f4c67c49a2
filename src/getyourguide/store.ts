// SQL of the GetYourGuide connection (migration 032): connections, product and category mappings, the
// GYG side of bookings, GYG's notifications and the bounded log of GYG's requests.
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Tx } from '../db/connection.js';
import type { Database, GygBookingTable, GygConnectionTable, GygNotificationTable, GygRequestTable } from '../db/schema.js';
import type { ActivityRow } from '../catalog/index.js';
import type { TimeslotRow } from '../availability/index.js';
import { nowMillis, type UnixSeconds } from '../lib/clock.js';

export type ConnectionRow = Selectable<GygConnectionTable>;
export type GygBookingRow = Selectable<GygBookingTable>;
export type NotificationRow = Selectable<GygNotificationTable>;
export type RequestRow = Selectable<GygRequestTable>;

// ---- connections -----------------------------------------------------------------------------------

export async function findConnection(db: Kysely<Database>, operatorId: number): Promise<ConnectionRow | undefined> {
  return db.selectFrom('gyg_connections').selectAll().where('operator_id', '=', operatorId).executeTakeFirst();
}

/** The connection an inbound Basic user name names (user names are unique over the instance). */
export async function findConnectionByUsername(db: Kysely<Database>, username: string): Promise<ConnectionRow | undefined> {
  return db.selectFrom('gyg_connections').selectAll().where('username', '=', username).executeTakeFirst();
}

export async function insertConnection(tx: Tx, row: Insertable<GygConnectionTable>): Promise<ConnectionRow> {
  return tx.insertInto('gyg_connections').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateConnection(tx: Tx, operatorId: number, changes: Updateable<GygConnectionTable>): Promise<ConnectionRow | undefined> {
  return tx
    .updateTable('gyg_connections')
    .set({ ...changes, updated_at: nowMillis() })
    .where('operator_id', '=', operatorId)
    .returningAll()
    .executeTakeFirst();
}

// ---- product and category mappings -----------------------------------------------------------------

export interface ProductMapping {
  activity_id: number;
  product_id: string;
}

export async function listProductMappings(db: Kysely<Database>, operatorId: number): Promise<ProductMapping[]> {
  return db.selectFrom('gyg_products').select(['activity_id', 'product_id']).where('operator_id', '=', operatorId).orderBy('activity_id').execute();
}

/** The live activity GYG sells under `productId`, if the operator maps one. */
export async function findMappedActivity(db: Kysely<Database>, operatorId: number, productId: string): Promise<ActivityRow | undefined> {
  return db
    .selectFrom('gyg_products')
    .innerJoin('activities', 'activities.id', 'gyg_products.activity_id')
    .selectAll('activities')
    .where('gyg_products.operator_id', '=', operatorId)
    .where('gyg_products.product_id', '=', productId)
    .where('activities.archived', '=', 0)
    .executeTakeFirst();
}

/** Maps an activity to a GYG product ID (replacing its earlier one), or unmaps it with null. */
export async function setProductMapping(tx: Tx, operatorId: number, activityId: number, productId: string | null): Promise<void> {
  await tx.deleteFrom('gyg_products').where('operator_id', '=', operatorId).where('activity_id', '=', activityId).execute();
  if (productId !== null)
    await tx.insertInto('gyg_products').values({ operator_id: operatorId, activity_id: activityId, product_id: productId }).execute();
}

export async function findProductIdTaken(tx: Tx, operatorId: number, productId: string): Promise<number | undefined> {
  const row = await tx
    .selectFrom('gyg_products')
    .select('activity_id')
    .where('operator_id', '=', operatorId)
    .where('product_id', '=', productId)
    .executeTakeFirst();
  return row?.activity_id;
}

/** The operator's chosen categories by ticket type id (absent: the default of the type's own category). */
export async function categoryChoices(db: Kysely<Database>, operatorId: number): Promise<Map<number, string>> {
  const rows = await db.selectFrom('gyg_categories').select(['ticket_type_id', 'category']).where('operator_id', '=', operatorId).execute();
  return new Map(rows.map((row) => [row.ticket_type_id, row.category]));
}

export async function setCategoryChoice(tx: Tx, operatorId: number, ticketTypeId: number, category: string | null): Promise<void> {
  await tx.deleteFrom('gyg_categories').where('operator_id', '=', operatorId).where('ticket_type_id', '=', ticketTypeId).execute();
  if (category !== null) await tx.insertInto('gyg_categories').values({ operator_id: operatorId, ticket_type_id: ticketTypeId, category }).execute();
}

// ---- GYG's side of bookings ------------------------------------------------------------------------

/** The GYG row with what is read of its booking: reference, status, hold and seats. */
export type GygBookingLink = GygBookingRow & {
  reference: string;
  status: string;
  hold_expires_at: UnixSeconds | null;
  timeslot_id: number;
};

function selectLinks(db: Kysely<Database>, operatorId: number) {
  return db
    .selectFrom('gyg_bookings')
    .innerJoin('bookings', 'bookings.id', 'gyg_bookings.booking_id')
    .selectAll('gyg_bookings')
    .select(['bookings.reference', 'bookings.status', 'bookings.hold_expires_at', 'bookings.timeslot_id'])
    .where('gyg_bookings.operator_id', '=', operatorId);
}

export async function findByGygReference(db: Kysely<Database>, operatorId: number, gygReference: string): Promise<GygBookingLink | undefined> {
  return selectLinks(db, operatorId).where('gyg_bookings.gyg_booking_reference', '=', gygReference).executeTakeFirst();
}

export async function findByBookingReference(db: Kysely<Database>, operatorId: number, reference: string): Promise<GygBookingLink | undefined> {
  return selectLinks(db, operatorId).where('bookings.reference', '=', reference).executeTakeFirst();
}

/**
 * Records GYG's reference for a booking placed in this transaction; undefined when the reference is
 * already taken (a twin reserve committed first). ON CONFLICT, as a caught violation would abort a
 * PostgreSQL transaction.
 */
export async function insertGygBooking(tx: Tx, row: Insertable<GygBookingTable>): Promise<GygBookingRow | undefined> {
  return tx
    .insertInto('gyg_bookings')
    .values(row)
    .onConflict((oc) => oc.columns(['operator_id', 'gyg_booking_reference']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/**
 * Points GYG's reference at a new reservation when its earlier one lapsed or was released (GYG reserves
 * again under the same reference); undefined when a twin moved it first.
 */
export async function repointGygBooking(tx: Tx, previousBookingId: number, row: Insertable<GygBookingTable>): Promise<GygBookingRow | undefined> {
  return tx.updateTable('gyg_bookings').set(row).where('booking_id', '=', previousBookingId).returningAll().executeTakeFirst();
}

export async function markBooked(
  tx: Tx,
  bookingId: number,
  changes: Pick<GygBookingRow, 'ticket_style' | 'comment' | 'language' | 'booked_at'>,
): Promise<void> {
  await tx.updateTable('gyg_bookings').set(changes).where('booking_id', '=', bookingId).execute();
}

// ---- notifications and the request log -------------------------------------------------------------

export async function insertNotification(tx: Tx, row: Insertable<GygNotificationTable>): Promise<void> {
  await tx.insertInto('gyg_notifications').values(row).execute();
}

export async function listNotifications(db: Kysely<Database>, operatorId: number, limit: number): Promise<NotificationRow[]> {
  return db.selectFrom('gyg_notifications').selectAll().where('operator_id', '=', operatorId).orderBy('id', 'desc').limit(limit).execute();
}

/** Appends a request and drops the operator's older ones beyond the last `keep`. */
export async function logRequest(tx: Tx, row: Insertable<GygRequestTable>, keep: number): Promise<void> {
  await tx.insertInto('gyg_requests').values(row).execute();
  const boundary = await tx
    .selectFrom('gyg_requests')
    .select('id')
    .where('operator_id', '=', row.operator_id)
    .orderBy('id', 'desc')
    .offset(keep)
    .limit(1)
    .executeTakeFirst();
  if (boundary) await tx.deleteFrom('gyg_requests').where('operator_id', '=', row.operator_id).where('id', '<=', boundary.id).execute();
}

export async function listRequests(db: Kysely<Database>, operatorId: number, limit: number): Promise<RequestRow[]> {
  return db.selectFrom('gyg_requests').selectAll().where('operator_id', '=', operatorId).orderBy('id', 'desc').limit(limit).execute();
}

/** The activity's timeslot on `date` (an opening-hours activity has one a day). Reads timeslots, as OCTo's catalogue does. */
export async function findDayTimeslot(db: Kysely<Database>, activityRowId: number, date: string): Promise<TimeslotRow | undefined> {
  return db.selectFrom('timeslots').selectAll().where('activity_id', '=', activityRowId).where('date', '=', date).executeTakeFirst();
}

// ---- pushes to GYG (the marketplaces' push queue, marketplace-push/) ----------------------------------

/**
 * Of these timeslots, those of a product mapped on a connection that pushes, as the push queue's targets
 * (push.ts queueGygPushes).
 */
export async function pushTargets(tx: Tx, timeslotIds: number[]): Promise<{ timeslotId: number; operatorId: number; productId: string }[]> {
  if (timeslotIds.length === 0) return [];
  const rows = await tx
    .selectFrom('timeslots')
    .innerJoin('gyg_products', (join) =>
      join.onRef('gyg_products.activity_id', '=', 'timeslots.activity_id').onRef('gyg_products.operator_id', '=', 'timeslots.operator_id'),
    )
    .innerJoin('gyg_connections', 'gyg_connections.operator_id', 'timeslots.operator_id')
    .select(['timeslots.id', 'timeslots.operator_id', 'gyg_products.product_id'])
    .where('timeslots.id', 'in', timeslotIds)
    // Only connections that push (connection.ts pushesOn): switched on, with GYG's credentials for its API.
    .where('gyg_connections.enabled', '=', 1)
    .where('gyg_connections.outbound_username', 'is not', null)
    .where('gyg_connections.outbound_password_sealed', 'is not', null)
    .execute();
  return rows.map((row) => ({ timeslotId: row.id, operatorId: row.operator_id, productId: row.product_id }));
}

export async function findConnections(db: Kysely<Database>, operatorIds: number[]): Promise<Map<number, ConnectionRow>> {
  if (operatorIds.length === 0) return new Map();
  const rows = await db.selectFrom('gyg_connections').selectAll().where('operator_id', 'in', operatorIds).execute();
  return new Map(rows.map((row) => [row.operator_id, row]));
}
