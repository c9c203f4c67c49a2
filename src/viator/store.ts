// SQL of the Viator connection (migration 039): connections, product and age-band mappings, Viator's side
// of bookings and the bounded log of Viator's requests.
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Tx } from '../db/connection.js';
import type { Database, ViatorBookingTable, ViatorConnectionTable, ViatorRequestTable } from '../db/schema.js';
import type { ActivityRow } from '../catalog/index.js';
import { nowMillis, type UnixSeconds } from '../lib/clock.js';

export type ConnectionRow = Selectable<ViatorConnectionTable>;
export type ViatorBookingRow = Selectable<ViatorBookingTable>;
export type RequestRow = Selectable<ViatorRequestTable>;

// ---- connections -----------------------------------------------------------------------------------

export async function findConnection(db: Kysely<Database>, operatorId: number): Promise<ConnectionRow | undefined> {
  return db.selectFrom('viator_connections').selectAll().where('operator_id', '=', operatorId).executeTakeFirst();
}

/** The connection an inbound key names (keys are unique over the instance). */
export async function findConnectionByKeyHash(db: Kysely<Database>, keyHash: string): Promise<ConnectionRow | undefined> {
  return db.selectFrom('viator_connections').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
}

export async function insertConnection(tx: Tx, row: Insertable<ViatorConnectionTable>): Promise<ConnectionRow> {
  return tx.insertInto('viator_connections').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateConnection(tx: Tx, operatorId: number, changes: Updateable<ViatorConnectionTable>): Promise<ConnectionRow | undefined> {
  return tx
    .updateTable('viator_connections')
    .set({ ...changes, updated_at: nowMillis() })
    .where('operator_id', '=', operatorId)
    .returningAll()
    .executeTakeFirst();
}

export async function findConnections(db: Kysely<Database>, operatorIds: number[]): Promise<Map<number, ConnectionRow>> {
  if (operatorIds.length === 0) return new Map();
  const rows = await db.selectFrom('viator_connections').selectAll().where('operator_id', 'in', operatorIds).execute();
  return new Map(rows.map((row) => [row.operator_id, row]));
}

// ---- product and age-band mappings -----------------------------------------------------------------

export interface ProductMapping {
  activity_id: number;
  product_option_id: string;
  notify: number;
}

export async function listProductMappings(db: Kysely<Database>, operatorId: number): Promise<ProductMapping[]> {
  return db
    .selectFrom('viator_products')
    .select(['activity_id', 'product_option_id', 'notify'])
    .where('operator_id', '=', operatorId)
    .orderBy('activity_id')
    .execute();
}

/** The live activities Viator sells under these product option IDs, by ID. */
export async function findMappedActivities(
  db: Kysely<Database>,
  operatorId: number,
  optionIds: string[],
): Promise<Map<string, ActivityRow & { notify: number }>> {
  if (optionIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('viator_products')
    .innerJoin('activities', 'activities.id', 'viator_products.activity_id')
    .selectAll('activities')
    .select(['viator_products.product_option_id', 'viator_products.notify'])
    .where('viator_products.operator_id', '=', operatorId)
    .where('viator_products.product_option_id', 'in', optionIds)
    .where('activities.archived', '=', 0)
    .execute();
  return new Map(rows.map(({ product_option_id, ...activity }) => [product_option_id, activity as ActivityRow & { notify: number }]));
}

/** Maps an activity to a product option ID (replacing its earlier one), or unmaps it with null. */
export async function setProductMapping(tx: Tx, operatorId: number, activityId: number, optionId: string | null): Promise<void> {
  await tx.deleteFrom('viator_products').where('operator_id', '=', operatorId).where('activity_id', '=', activityId).execute();
  if (optionId !== null)
    await tx.insertInto('viator_products').values({ operator_id: operatorId, activity_id: activityId, product_option_id: optionId }).execute();
}

export async function findOptionIdTaken(tx: Tx, operatorId: number, optionId: string): Promise<number | undefined> {
  const row = await tx
    .selectFrom('viator_products')
    .select('activity_id')
    .where('operator_id', '=', operatorId)
    .where('product_option_id', '=', optionId)
    .executeTakeFirst();
  return row?.activity_id;
}

/** Event notifications on (Viator asked the calendar) or off (Viator refused the option) for these options. */
export async function setNotify(tx: Tx, operatorId: number, optionIds: string[], on: boolean): Promise<void> {
  if (optionIds.length === 0) return;
  await tx
    .updateTable('viator_products')
    .set({ notify: on ? 1 : 0 })
    .where('operator_id', '=', operatorId)
    .where('product_option_id', 'in', optionIds)
    .where('notify', '=', on ? 0 : 1)
    .execute();
}

/** The operator's chosen bands by ticket type id (absent: the default of the type's own category). */
export async function bandChoices(db: Kysely<Database>, operatorId: number): Promise<Map<number, string>> {
  const rows = await db.selectFrom('viator_age_bands').select(['ticket_type_id', 'band']).where('operator_id', '=', operatorId).execute();
  return new Map(rows.map((row) => [row.ticket_type_id, row.band]));
}

export async function setBandChoice(tx: Tx, operatorId: number, ticketTypeId: number, band: string | null): Promise<void> {
  await tx.deleteFrom('viator_age_bands').where('operator_id', '=', operatorId).where('ticket_type_id', '=', ticketTypeId).execute();
  if (band !== null) await tx.insertInto('viator_age_bands').values({ operator_id: operatorId, ticket_type_id: ticketTypeId, band }).execute();
}

// ---- Viator's side of bookings ---------------------------------------------------------------------

/** The Viator row with what is read of its booking: reference, status, hold and timeslot. */
export type ViatorBookingLink = ViatorBookingRow & {
  reference: string;
  status: string;
  hold_expires_at: UnixSeconds | null;
  timeslot_id: number;
};

function selectLinks(db: Kysely<Database>, operatorId: number) {
  return db
    .selectFrom('viator_bookings')
    .innerJoin('bookings', 'bookings.id', 'viator_bookings.booking_id')
    .selectAll('viator_bookings')
    .select(['bookings.reference', 'bookings.status', 'bookings.hold_expires_at', 'bookings.timeslot_id'])
    .where('viator_bookings.operator_id', '=', operatorId);
}

export async function findByBookingReference(db: Kysely<Database>, operatorId: number, reference: string): Promise<ViatorBookingLink | undefined> {
  return selectLinks(db, operatorId).where('bookings.reference', '=', reference).executeTakeFirst();
}

export async function findByViatorReference(
  db: Kysely<Database>,
  operatorId: number,
  viatorReference: string,
): Promise<ViatorBookingLink | undefined> {
  return selectLinks(db, operatorId).where('viator_bookings.viator_reference', '=', viatorReference).executeTakeFirst();
}

/** Records Viator's side of a booking placed in this transaction; false when its Viator reference is taken (a twin committed first). */
export async function insertViatorBooking(tx: Tx, row: Insertable<ViatorBookingTable>): Promise<boolean> {
  const inserted = await tx
    .insertInto('viator_bookings')
    .values(row)
    .onConflict((oc) => oc.columns(['operator_id', 'viator_reference']).doNothing())
    .returning('booking_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** After an amendment: the product option and tickets the booking now has, and Viator's latest note. */
export async function changeViatorBooking(
  tx: Tx,
  bookingId: number,
  changes: Pick<ViatorBookingRow, 'product_option_id' | 'tickets' | 'note'>,
): Promise<void> {
  await tx.updateTable('viator_bookings').set(changes).where('booking_id', '=', bookingId).execute();
}

/**
 * Records Viator's booking reference on its reservation; false when the reservation already carries
 * another one, or the reference is taken by another booking (a twin committed first). ON CONFLICT, as a
 * caught violation would abort a PostgreSQL transaction.
 */
export async function markBooked(tx: Tx, operatorId: number, bookingId: number, viatorReference: string, note: string | null): Promise<boolean> {
  const taken = await tx
    .selectFrom('viator_bookings')
    .select('booking_id')
    .where('operator_id', '=', operatorId)
    .where('viator_reference', '=', viatorReference)
    .where('booking_id', '<>', bookingId)
    .executeTakeFirst();
  if (taken) return false;
  const result = await tx
    .updateTable('viator_bookings')
    .set({ viator_reference: viatorReference, note, booked_at: nowMillis() })
    .where('booking_id', '=', bookingId)
    .where((eb) => eb.or([eb('viator_reference', 'is', null), eb('viator_reference', '=', viatorReference)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

// ---- the request log -------------------------------------------------------------------------------

/** Appends a request and drops the operator's older ones beyond the last `keep`. */
export async function logRequest(tx: Tx, row: Insertable<ViatorRequestTable>, keep: number): Promise<void> {
  await tx.insertInto('viator_requests').values(row).execute();
  const boundary = await tx
    .selectFrom('viator_requests')
    .select('id')
    .where('operator_id', '=', row.operator_id)
    .orderBy('id', 'desc')
    .offset(keep)
    .limit(1)
    .executeTakeFirst();
  if (boundary) await tx.deleteFrom('viator_requests').where('operator_id', '=', row.operator_id).where('id', '<=', boundary.id).execute();
}

export async function listRequests(db: Kysely<Database>, operatorId: number, limit: number): Promise<RequestRow[]> {
  return db.selectFrom('viator_requests').selectAll().where('operator_id', '=', operatorId).orderBy('id', 'desc').limit(limit).execute();
}

// ---- pushes ----------------------------------------------------------------------------------------

/** Timeslots of options Viator asked the calendar of, on switched-on connections with Viator's key and supplier ID. */
/** The timeslots of the activity still to start, as pushTargets answers them (a price change: every future date). */
export async function futurePushTargets(
  tx: Tx,
  activityId: number,
  now: UnixSeconds,
): Promise<{ timeslotId: number; operatorId: number; productId: string }[]> {
  const ids = await tx.selectFrom('timeslots').select('id').where('activity_id', '=', activityId).where('starts_at', '>', now).execute();
  return ids.length === 0
    ? []
    : pushTargets(
        tx,
        ids.map((row) => row.id),
      );
}

export async function pushTargets(tx: Tx, timeslotIds: number[]): Promise<{ timeslotId: number; operatorId: number; productId: string }[]> {
  const rows = await tx
    .selectFrom('timeslots')
    .innerJoin('viator_products', (join) =>
      join.onRef('viator_products.activity_id', '=', 'timeslots.activity_id').onRef('viator_products.operator_id', '=', 'timeslots.operator_id'),
    )
    .innerJoin('viator_connections', 'viator_connections.operator_id', 'timeslots.operator_id')
    .select(['timeslots.id', 'timeslots.operator_id', 'viator_products.product_option_id'])
    .where('timeslots.id', 'in', timeslotIds)
    .where('viator_products.notify', '=', 1)
    .where('viator_connections.enabled', '=', 1)
    .where('viator_connections.outbound_key_sealed', 'is not', null)
    .where('viator_connections.supplier_id', 'is not', null)
    .execute();
  return rows.map((row) => ({ timeslotId: row.id, operatorId: row.operator_id, productId: row.product_option_id }));
}
