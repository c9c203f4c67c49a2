// Ticket types: the operator's editing of them, with the rules of rules.ts. Every change runs in one write
// transaction that first touches the activity row (its UpdatedAt, since the product partners read
// changes with it): that row lock serialises the changes of one activity's types on PostgreSQL, so two
// concurrent edits can never both pass a check only one of them fits (one default, unique codes).
// The activity's UnitPrice is kept equal to its default type's price.
import type { Kysely } from 'kysely';
import type { Db, Tx } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';
import { Conflict, NotFound, ValidationFailed } from '../../http/errors.js';
import { activityPublicId, findActivity, touchActivity as touchActivityRow, type ActivityRow } from '../store.js';
import { toAdminTicketType, toColumns, toFields } from './view.js';
import { categoryOf, checkTicketType, dependentsOf, type TicketFields } from './rules.js';
import type { AdminTicketType, CreateTicketTypeBody, UpdateTicketTypeBody } from './schemas.js';
import { audit } from '../../audit/log.js';
import { recordProductEvent } from '../../events/outbox.js';
import {
  clearDefault,
  findTicketType,
  insertTicketType,
  listTicketTypes,
  nextTicketPosition,
  removeTicketType,
  setDefaultTypePrice,
  updateTicketType,
  type TicketTypeRow,
} from './store.js';
import { nowMillis } from '../../lib/clock.js';

/** The type every new activity starts with: what it sold before ticket types existed. */
export async function addDefaultTicketType(tx: Tx, activity: Pick<ActivityRow, 'id' | 'operator_id' | 'unit_price'>): Promise<TicketTypeRow> {
  return insertTicketType(tx, {
    operator_id: activity.operator_id,
    activity_id: activity.id,
    code: 'adult',
    ...toColumns({ ...NEW_TYPE, code: 'adult', name: 'Adult', price: activity.unit_price, category: 'adult', isDefault: true, position: 1 }),
    updated_at: nowMillis(),
  });
}

const NEW_TYPE: Omit<TicketFields, 'code' | 'name' | 'price' | 'category' | 'isDefault' | 'position'> = {
  translations: {},
  minAge: null,
  maxAge: null,
  people: 1,
  takesSeat: true,
  minPerBooking: 0,
  maxPerBooking: null,
  requires: null,
};

/** The operator's activity (archived or not), locked for this transaction and marked as changed. */
async function touchActivity(tx: Tx, operatorId: number, activityRowId: number, unitPrice?: number): Promise<void> {
  const touched = await touchActivityRow(tx, operatorId, activityRowId, unitPrice);
  // The product partners read changes with its ticket types: product.updated, once per transaction (with
  // the row as it then is; a second touch, of the default's price, comes right after in the same change).
  if (touched && unitPrice === undefined) await recordProductEvent(tx, touched, 'product.updated');
}

async function ownActivity(db: Kysely<Database>, operatorId: number, activityId: string): Promise<ActivityRow> {
  const activity = await findActivity(db, operatorId, activityId);
  if (!activity) throw new NotFound(`No activity ${activityId}`);
  return activity;
}

export async function listAdminTicketTypes(db: Kysely<Database>, operatorId: number, activityId: string): Promise<AdminTicketType[]> {
  const activity = await ownActivity(db, operatorId, activityId);
  return (await listTicketTypes(db, [activity.id])).map((row) => toAdminTicketType(row, activity.public_id));
}

export async function createTicketType(db: Db, operatorId: number, activityId: string, body: CreateTicketTypeBody): Promise<AdminTicketType> {
  const activity = await ownActivity(db.kysely, operatorId, activityId);
  const row = await db.write(async (tx) => {
    await touchActivity(tx, operatorId, activity.id);
    const current = (await listTicketTypes(tx, [activity.id])).map(toFields);
    const created: TicketFields = {
      ...NEW_TYPE,
      code: body.Type,
      name: body.Name,
      price: body.Price,
      category: body.Category ?? categoryOf(body.Type),
      minAge: body.MinAge ?? null,
      maxAge: body.MaxAge ?? null,
      people: body.People ?? 1,
      takesSeat: body.TakesSeat ?? true,
      minPerBooking: body.MinPerBooking ?? 0,
      maxPerBooking: body.MaxPerBooking ?? null,
      requires: body.Requires ?? null,
      // An activity without any type (only possible for rows written outside the API) gets its first as default.
      isDefault: body.Default ?? !current.some((type) => type.isDefault),
      position: body.Position ?? (await nextTicketPosition(tx, activity.id)),
      translations: body.Translations ?? {},
    };
    const checked = checkTicketType(created, [...current, created]);
    if (checked.isDefault) await setDefault(tx, operatorId, activity.id, checked.price);
    const inserted = await insertTicketType(tx, {
      operator_id: operatorId,
      activity_id: activity.id,
      code: checked.code,
      ...toColumns(checked),
      updated_at: nowMillis(),
    });
    await audit(tx, {
      operatorId,
      action: 'ticket-type.create',
      resource: { type: 'ticket-type', id: inserted.id },
      after: toAdminTicketType(inserted, activity.public_id),
    });
    return inserted;
  });
  return toAdminTicketType(row, activity.public_id);
}

async function setDefault(tx: Tx, operatorId: number, activityRowId: number, price: number): Promise<void> {
  await clearDefault(tx, activityRowId);
  await touchActivity(tx, operatorId, activityRowId, price);
}

async function requireTicketType(db: Kysely<Database>, operatorId: number, id: number): Promise<TicketTypeRow> {
  const row = await findTicketType(db, operatorId, id);
  if (!row) throw new NotFound(`No ticket type ${id}`);
  return row;
}

export async function changeTicketType(db: Db, operatorId: number, id: number, body: UpdateTicketTypeBody): Promise<AdminTicketType> {
  const found = await requireTicketType(db.kysely, operatorId, id);
  if (body.Type !== undefined && body.Type !== found.code) {
    throw ValidationFailed.field(
      'Type',
      'Type cannot change: partners and resellers book by it. Create a new ticket type and remove this one instead',
    );
  }
  const activityId = await activityPublicId(db.kysely, found.activity_id);
  const row = await db.write(async (tx) => {
    await touchActivity(tx, operatorId, found.activity_id);
    const rows = await listTicketTypes(tx, [found.activity_id]);
    const all = rows.map(toFields);
    const before = all.find((type) => type.id === id);
    if (!before) throw new NotFound(`No ticket type ${id}`);
    if (body.Default === false && before.isDefault) {
      throw ValidationFailed.field('Default', 'An activity always has a default type: make another type the default instead');
    }
    const after: TicketFields = {
      ...before,
      ...(body.Name !== undefined && { name: body.Name }),
      ...(body.Price !== undefined && { price: body.Price }),
      ...(body.Category !== undefined && { category: body.Category }),
      ...(body.MinAge !== undefined && { minAge: body.MinAge }),
      ...(body.MaxAge !== undefined && { maxAge: body.MaxAge }),
      ...(body.People !== undefined && { people: body.People }),
      ...(body.TakesSeat !== undefined && { takesSeat: body.TakesSeat }),
      ...(body.MinPerBooking !== undefined && { minPerBooking: body.MinPerBooking }),
      ...(body.MaxPerBooking !== undefined && { maxPerBooking: body.MaxPerBooking }),
      ...(body.Requires !== undefined && { requires: body.Requires }),
      ...(body.Default === true && { isDefault: true }),
      ...(body.Position !== undefined && { position: body.Position }),
      ...(body.Translations !== undefined && { translations: body.Translations }),
    };
    const checked = checkTicketType(
      after,
      all.map((type) => (type === before ? after : type)),
    );
    if (checked.isDefault && !before.isDefault) await setDefault(tx, operatorId, found.activity_id, checked.price);
    else if (checked.isDefault && checked.price !== before.price) await touchActivity(tx, operatorId, found.activity_id, checked.price);
    const updated = await updateTicketType(tx, id, { ...toColumns(checked), updated_at: nowMillis() });
    const previous = rows.find((candidate) => candidate.id === id)!;
    await audit(tx, {
      operatorId,
      action: 'ticket-type.update',
      resource: { type: 'ticket-type', id },
      before: toAdminTicketType(previous, activityId),
      after: toAdminTicketType(updated, activityId),
    });
    return updated;
  });
  return toAdminTicketType(row, activityId);
}

/**
 * Takes a type off sale. Bookings that name it keep it (the row stays, archived, and their tickets keep
 * their name and price); the default type, the last one, and one another type requires cannot go (409).
 */
export async function deleteTicketType(db: Db, operatorId: number, id: number): Promise<void> {
  const found = await requireTicketType(db.kysely, operatorId, id);
  await db.write(async (tx) => {
    await touchActivity(tx, operatorId, found.activity_id);
    const all = (await listTicketTypes(tx, [found.activity_id])).map(toFields);
    const type = all.find((candidate) => candidate.id === id);
    if (!type) throw new NotFound(`No ticket type ${id}`);
    if (type.isDefault) throw new Conflict(`"${type.code}" is the default ticket type: make another type the default first`);
    const dependents = dependentsOf(type.code, all);
    if (dependents.length > 0) {
      throw new Conflict(`${dependents.map((other) => `"${other.code}"`).join(', ')} require "${type.code}": change their Requires first`);
    }
    await removeTicketType(tx, id);
    await audit(tx, {
      operatorId,
      action: 'ticket-type.delete',
      resource: { type: 'ticket-type', id },
      before: { Type: type.code, Name: type.name, Price: type.price },
    });
  });
}

/** PATCH /activities/{ID} with UnitPrice: it is the default type's price, so it changes that type. */
export async function setDefaultTicketPrice(tx: Tx, activityRowId: number, price: number): Promise<void> {
  await setDefaultTypePrice(tx, activityRowId, price);
}
