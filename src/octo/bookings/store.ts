// octo_bookings: the reseller's uuid, notes, unit items and contact extras beside a booking (migrations 003, 008, 010).
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, OctoBookingTable } from '../../db/schema.js';
import type { Tx } from '../../db/connection.js';
import type { Contact } from './schemas.js';
import { nowMillis } from '../../lib/clock.js';

export type OctoBookingRow = Selectable<OctoBookingTable>;
/** The OCTo row with the booking's reference, for reading the booking through the bookings store. */
export type OctoBookingLink = OctoBookingRow & { reference: string };

export interface StoredUnitItem {
  uuid: string;
  /** The ticket type's code. */
  unitId: string;
  resellerReference: string | null;
  /** The ticket holder, when the reseller named one. */
  contact?: Contact | null;
}

export const parseUnitItems = (row: OctoBookingRow): StoredUnitItem[] => JSON.parse(row.unit_items) as StoredUnitItem[];

function selectLinks(db: Kysely<Database>, operatorId: number) {
  return db
    .selectFrom('octo_bookings')
    .innerJoin('bookings', 'bookings.id', 'octo_bookings.booking_id')
    .selectAll('octo_bookings')
    .select('bookings.reference')
    .where('octo_bookings.operator_id', '=', operatorId);
}

/**
 * The reseller's OCTo booking with this uuid. Uuids are the reseller's own (unique per operator and
 * marketplace): another reseller's booking with the same uuid is neither found nor in the way.
 */
export async function findByUuid(db: Kysely<Database>, operatorId: number, partner: string, uuid: string): Promise<OctoBookingLink | undefined> {
  return selectLinks(db, operatorId).where('octo_bookings.partner', '=', partner).where('octo_bookings.uuid', '=', uuid).executeTakeFirst();
}

/** The marketplace's OCTo bookings with the given reseller reference and/or booking reference, oldest first. */
export async function findByReferences(
  db: Kysely<Database>,
  operatorId: number,
  partner: string,
  references: { resellerReference?: string; supplierReference?: string },
  limit: number,
): Promise<OctoBookingLink[]> {
  let query = selectLinks(db, operatorId).where('octo_bookings.partner', '=', partner);
  if (references.resellerReference !== undefined) query = query.where('bookings.payment_reference', '=', references.resellerReference);
  if (references.supplierReference !== undefined) query = query.where('bookings.reference', '=', references.supplierReference);
  return query.orderBy('bookings.created_at').orderBy('bookings.id').limit(limit).execute();
}

/**
 * Records the uuid of a booking placed in this transaction; undefined when the uuid is already taken
 * (a twin reservation committed first). ON CONFLICT rather than a caught violation: on PostgreSQL a
 * failed statement would abort the transaction.
 */
export async function insertOctoBooking(tx: Tx, row: Insertable<OctoBookingTable>): Promise<OctoBookingRow | undefined> {
  return tx
    .insertInto('octo_bookings')
    .values(row)
    .onConflict((oc) => oc.columns(['operator_id', 'partner', 'uuid']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function updateOctoBooking(
  tx: Tx,
  bookingId: number,
  changes: Partial<Pick<OctoBookingRow, 'notes' | 'unit_items' | 'cancel_reason' | 'confirmed_at' | 'contact'>>,
): Promise<void> {
  await tx
    .updateTable('octo_bookings')
    .set({ ...changes, updated_at: nowMillis() })
    .where('booking_id', '=', bookingId)
    .execute();
}
