import type { Kysely } from 'kysely';
import type { Tx } from '../db/connection.js';
import { audit } from '../audit/log.js';
import type { Database } from '../db/schema.js';
import { BadRequest, Conflict, NotFound, ValidationFailed, type FieldError } from '../http/errors.js';
import { newActivityId } from '../ids.js';
import { MAX_ROW_ID } from '../http/schemas.js';
import { isValidTimeZone } from '../calendar/zoned-time.js';
import { findActivity, findActivityById, hasTimeslots, insertActivity, listActivities, updateActivity, type ActivityRow } from './store.js';
import type { AdminProduct, CreateActivityBody, Product, UpdateActivityBody } from './schemas.js';

export const DEFAULT_MAX_PARTICIPANTS = 20;
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

export function toProduct(row: ActivityRow): Product {
  return {
    ID: row.id,
    ActivityID: row.public_id,
    Name: row.name,
    Description: row.description,
    DurationMinutes: row.duration_minutes,
    Timezone: row.timezone,
    Currency: row.currency,
    UnitPrice: row.unit_price,
    MaxParticipantsPerBooking: row.max_participants_per_booking,
    UpdatedAt: new Date(row.updated_at).toISOString(),
  };
}

export function toAdminProduct(row: ActivityRow): AdminProduct {
  return { ...toProduct(row), Archived: row.archived === 1 };
}

const fold = (text: string) => text.normalize('NFC').toLocaleLowerCase('und');

export async function listProducts(db: Kysely<Database>, operatorId: number, nameContains?: string): Promise<Product[]> {
  const rows = await listActivities(db, operatorId);
  if (!nameContains) return rows.map(toProduct);
  const needle = fold(nameContains);
  return rows.filter((row) => fold(row.name).includes(needle)).map(toProduct);
}

/** resolve-product: exactly one of ID (a positive integer) or Name (exact, case-insensitive). */
export async function resolveProduct(
  db: Kysely<Database>,
  operatorId: number,
  query: { ID?: string; Name?: string },
): Promise<Product> {
  if ((query.ID === undefined) === (query.Name === undefined)) {
    throw new BadRequest('Give exactly one of the query parameters ID or Name');
  }
  if (query.ID !== undefined) {
    if (!/^[1-9]\d*$/.test(query.ID)) throw new BadRequest('ID must be a positive integer');
    // An integer beyond the largest row ID is well-formed but cannot name a product.
    const row = Number(query.ID) <= MAX_ROW_ID ? await findActivityById(db, operatorId, Number(query.ID)) : undefined;
    if (!row || row.archived) throw new NotFound(`No product with ID ${query.ID}`);
    return toProduct(row);
  }
  const wanted = fold(query.Name!);
  const row = (await listActivities(db, operatorId)).find((candidate) => fold(candidate.name) === wanted);
  if (!row) throw new NotFound(`No product named "${query.Name}"`);
  return toProduct(row);
}

/** The operator's live activity by ActivityID; archived and foreign activities are not found. */
export async function requireActivity(db: Kysely<Database>, operatorId: number, activityId: string): Promise<ActivityRow> {
  const row = await findActivity(db, operatorId, activityId);
  if (!row || row.archived) throw new NotFound(`No activity ${activityId}`);
  return row;
}

function checkActivityFields(body: Partial<CreateActivityBody>): void {
  const errors: FieldError[] = [];
  if (body.Name !== undefined && body.Name.trim() === '') errors.push({ field: 'Name', message: 'Name must not be blank' });
  if (body.Timezone !== undefined && !isValidTimeZone(body.Timezone)) {
    errors.push({ field: 'Timezone', message: `Timezone must be an IANA time zone such as Europe/Berlin; got "${body.Timezone}"` });
  }
  if (body.Currency !== undefined && !CURRENCIES.has(body.Currency)) {
    errors.push({ field: 'Currency', message: `Currency must be an ISO 4217 code; got "${body.Currency}"` });
  }
  if (errors.length > 0) throw new ValidationFailed(errors);
}

export async function createActivity(tx: Tx, operatorId: number, body: CreateActivityBody): Promise<AdminProduct> {
  checkActivityFields(body);
  const row = await insertActivity(tx, {
    operator_id: operatorId,
    public_id: newActivityId(),
    name: body.Name.trim(),
    description: body.Description ?? '',
    duration_minutes: body.DurationMinutes,
    timezone: body.Timezone,
    currency: body.Currency,
    unit_price: body.UnitPrice,
    max_participants_per_booking: body.MaxParticipantsPerBooking ?? DEFAULT_MAX_PARTICIPANTS,
    updated_at: Date.now(),
  });
  const product = toAdminProduct(row);
  await audit(tx, { operatorId, action: 'activity.create', resource: { type: 'activity', id: product.ActivityID }, after: product });
  return product;
}

export async function listAdminProducts(db: Kysely<Database>, operatorId: number): Promise<AdminProduct[]> {
  return (await listActivities(db, operatorId, true)).map(toAdminProduct);
}

export async function getAdminProduct(db: Kysely<Database>, operatorId: number, activityId: string): Promise<AdminProduct> {
  const row = await findActivity(db, operatorId, activityId);
  if (!row) throw new NotFound(`No activity ${activityId}`);
  return toAdminProduct(row);
}

/**
 * Timeslots keep the instants they were created with, so an activity's time zone can change only while
 * it has none (otherwise every Date/Time already sold would silently name another instant).
 */
export async function changeActivity(
  db: Tx,
  operatorId: number,
  activityId: string,
  body: UpdateActivityBody,
): Promise<AdminProduct> {
  const row = await findActivity(db, operatorId, activityId);
  if (!row) throw new NotFound(`No activity ${activityId}`);
  checkActivityFields(body);
  if (body.Timezone !== undefined && body.Timezone !== row.timezone && (await hasTimeslots(db, row.id))) {
    throw new Conflict('Timezone cannot change on an activity that has timeslots; create a new activity instead');
  }
  const updated = await updateActivity(db, row.id, {
    ...(body.Name !== undefined && { name: body.Name.trim() }),
    ...(body.Description !== undefined && { description: body.Description }),
    ...(body.DurationMinutes !== undefined && { duration_minutes: body.DurationMinutes }),
    ...(body.Timezone !== undefined && { timezone: body.Timezone }),
    ...(body.Currency !== undefined && { currency: body.Currency }),
    ...(body.UnitPrice !== undefined && { unit_price: body.UnitPrice }),
    ...(body.MaxParticipantsPerBooking !== undefined && { max_participants_per_booking: body.MaxParticipantsPerBooking }),
    ...(body.Archived !== undefined && { archived: body.Archived ? 1 : 0 }),
    updated_at: Date.now(),
  });
  const after = toAdminProduct(updated);
  await audit(db, { operatorId, action: 'activity.update', resource: { type: 'activity', id: activityId }, before: toAdminProduct(row), after });
  return after;
}
