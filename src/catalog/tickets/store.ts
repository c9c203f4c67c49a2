// SQL of ticket types and of the tickets a booking holds.
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Tx } from '../../db/connection.js';
import type { BookingTicketTable, Database, TicketTypeTable } from '../../db/schema.js';
import { nowMillis } from '../../lib/clock.js';

export type TicketTypeRow = Selectable<TicketTypeTable>;
export type NewTicketTypeRow = Omit<Insertable<TicketTypeTable>, 'id'>;
export type BookingTicketRow = Selectable<BookingTicketTable>;

/** The live ticket types of these activities, each activity's in sort order. */
export async function listTicketTypes(db: Kysely<Database>, activityIds: number[]): Promise<TicketTypeRow[]> {
  if (activityIds.length === 0) return [];
  return db
    .selectFrom('ticket_types')
    .selectAll()
    .where('activity_id', 'in', activityIds)
    .where('archived', '=', 0)
    .orderBy('activity_id')
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/** The live types of each activity, by activity row ID. */
export async function ticketTypesByActivity(db: Kysely<Database>, activityIds: number[]): Promise<Map<number, TicketTypeRow[]>> {
  const byActivity = new Map<number, TicketTypeRow[]>(activityIds.map((id) => [id, []]));
  for (const row of await listTicketTypes(db, activityIds)) byActivity.get(row.activity_id)?.push(row);
  return byActivity;
}

/** One of the operator's live ticket types by ID; another operator's (or an archived one) is not found. */
export async function findTicketType(db: Kysely<Database>, operatorId: number, id: number): Promise<TicketTypeRow | undefined> {
  return db
    .selectFrom('ticket_types')
    .selectAll()
    .where('id', '=', id)
    .where('operator_id', '=', operatorId)
    .where('archived', '=', 0)
    .executeTakeFirst();
}

export async function insertTicketType(tx: Tx, row: NewTicketTypeRow): Promise<TicketTypeRow> {
  return tx.insertInto('ticket_types').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateTicketType(
  tx: Tx,
  id: number,
  changes: Partial<Omit<TicketTypeRow, 'id' | 'operator_id' | 'activity_id' | 'code'>>,
): Promise<TicketTypeRow> {
  return tx.updateTable('ticket_types').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** The activity's default type stops being it (before another becomes it: one live default per activity). */
export async function clearDefault(tx: Tx, activityId: number): Promise<void> {
  await tx.updateTable('ticket_types').set({ is_default: 0 }).where('activity_id', '=', activityId).where('is_default', '=', 1).execute();
}

/** The position after the activity's last type (1 for the first). */
export async function nextTicketPosition(db: Kysely<Database>, activityId: number): Promise<number> {
  const row = await db
    .selectFrom('ticket_types')
    .select((eb) => eb.fn.max('position').as('last'))
    .where('activity_id', '=', activityId)
    .where('archived', '=', 0)
    .executeTakeFirst();
  return row?.last === null || row?.last === undefined ? 1 : Number(row.last) + 1;
}

export async function ticketTypeWasBooked(tx: Tx, id: number): Promise<boolean> {
  const row = await tx.selectFrom('booking_tickets').select('booking_id').where('ticket_type_id', '=', id).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Removes a type from sale: the row stays (archived) when bookings name it, else it goes. */
export async function removeTicketType(tx: Tx, id: number): Promise<void> {
  if (await ticketTypeWasBooked(tx, id)) {
    await tx.updateTable('ticket_types').set({ archived: 1, is_default: 0, updated_at: nowMillis() }).where('id', '=', id).execute();
  } else {
    await tx.deleteFrom('ticket_types').where('id', '=', id).execute();
  }
}

/** The price of the activity's live default type (the activity's UnitPrice, changed with it). */
export async function setDefaultTypePrice(tx: Tx, activityId: number, price: number): Promise<void> {
  await tx
    .updateTable('ticket_types')
    .set({ price, updated_at: nowMillis() })
    .where('activity_id', '=', activityId)
    .where('is_default', '=', 1)
    .where('archived', '=', 0)
    .execute();
}

// ---- the tickets of bookings ----

export async function insertBookingTickets(tx: Tx, rows: BookingTicketRow[]): Promise<void> {
  if (rows.length > 0) await tx.insertInto('booking_tickets').values(rows).execute();
}

export async function deleteBookingTickets(tx: Tx, bookingId: number): Promise<void> {
  await tx.deleteFrom('booking_tickets').where('booking_id', '=', bookingId).execute();
}

/** The tickets of these bookings, each booking's in the order of its types. */
export async function bookingTicketsOf(db: Kysely<Database>, bookingIds: number[]): Promise<Map<number, BookingTicketRow[]>> {
  const byBooking = new Map<number, BookingTicketRow[]>(bookingIds.map((id) => [id, []]));
  if (bookingIds.length === 0) return byBooking;
  const rows = await db
    .selectFrom('booking_tickets')
    .selectAll()
    .where('booking_id', 'in', bookingIds)
    .orderBy('booking_id')
    .orderBy('position')
    .orderBy('ticket_type_id')
    .execute();
  for (const row of rows) byBooking.get(row.booking_id)?.push(row);
  return byBooking;
}
