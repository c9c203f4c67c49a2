import type { Kysely } from 'kysely';
import type { Db, Tx } from '../db/connection.js';
import { depositColumns, depositView } from './deposits.js';
import { audit } from '../audit/log.js';
import type { Database } from '../db/schema.js';
import { recordProductEvent } from '../events/outbox.js';
import { BadRequest, Conflict, NotFound, ValidationFailed, type FieldError } from '../http/errors.js';
import { canonicalLocale } from '../lib/locale.js';
import { toTicketType } from './tickets/view.js';
import { refundRuleErrors, refundRulesOf, storedRefundRules } from './refund-rules.js';
import { detailsOf, meetingPointErrors, storedDetails } from './details.js';
import { addDefaultTicketType, setDefaultTicketPrice } from './tickets/service.js';
import { ticketTypesByActivity, type TicketTypeRow } from './tickets/store.js';
import { activityPhotos } from './photos/service.js';
import type { ActivityPhoto } from './photos/schemas.js';
import { newActivityId } from '../lib/ids.js';
import { MAX_ROW_ID } from '../http/schemas.js';
import { isValidTimeZone } from '../calendar/zoned-time.js';
import { findActivity, findActivityById, hasTimeslots, insertActivity, listActivities, updateActivity, type ActivityRow } from './store.js';
import type { AdminProduct, AvailabilityType, CreateActivityBody, Product, UpdateActivityBody } from './schemas.js';
import { nowMillis } from '../lib/clock.js';

export const DEFAULT_MAX_PARTICIPANTS = 20;
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

export const availabilityTypeOf = (row: Pick<ActivityRow, 'availability_type'>): AvailabilityType =>
  row.availability_type === 'opening_hours' ? 'opening_hours' : 'start_time';

export const requiredContactFieldsOf = (row: Pick<ActivityRow, 'required_contact_fields'>): string[] =>
  JSON.parse(row.required_contact_fields) as string[];

/** What a product shows besides its row: its live ticket types (in sort order) and its photos. */
export interface ProductParts {
  types: TicketTypeRow[];
  photos: ActivityPhoto[];
}

/** The product with its ticket types, their names in `locale` where translated, and its photos. */
export function toProduct(row: ActivityRow, { types, photos }: ProductParts, locale?: string): Product {
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
    AvailabilityType: availabilityTypeOf(row),
    TicketTypes: types.map((type) => toTicketType(type, locale)),
    ...detailsOf(row),
    Photos: photos,
  };
}

export function toAdminProduct(row: ActivityRow, parts: ProductParts): AdminProduct {
  return {
    ...toProduct(row, parts),
    Archived: row.archived === 1,
    RequiredContactFields: requiredContactFieldsOf(row),
    GuestCancelHours: row.guest_cancel_hours ?? null,
    GuestRescheduleHours: row.guest_reschedule_hours ?? null,
    GuestRefundRules: refundRulesOf(row),
    Deposit: depositView(row),
    BalanceDueDays: row.balance_due_days ?? null,
  };
}

/** Products of these activities: their ticket types in one query, their photos (addresses under publicUrl) in another. */
async function withProductParts<T>(
  db: Kysely<Database>,
  rows: ActivityRow[],
  publicUrl: string,
  map: (row: ActivityRow, parts: ProductParts) => T,
): Promise<T[]> {
  const ids = rows.map((row) => row.id);
  const [types, photos] = await Promise.all([ticketTypesByActivity(db, ids), activityPhotos(db, ids, publicUrl)]);
  return rows.map((row) => map(row, { types: types.get(row.id) ?? [], photos: photos.get(row.id) ?? [] }));
}

/** A Locale query parameter in canonical form; a malformed tag is a 422 on Locale. */
export function localeOf(locale: string | undefined): string | undefined {
  if (locale === undefined) return undefined;
  const canonical = canonicalLocale(locale);
  if (canonical === undefined) throw ValidationFailed.field('Locale', `Locale must be a BCP 47 language tag such as en or de-CH; got "${locale}"`);
  return canonical;
}

const fold = (text: string) => text.normalize('NFC').toLocaleLowerCase('und');

export async function listProducts(
  db: Kysely<Database>,
  operatorId: number,
  publicUrl: string,
  nameContains?: string,
  locale?: string,
): Promise<Product[]> {
  const canonical = localeOf(locale);
  const rows = await listActivities(db, operatorId);
  const needle = nameContains ? fold(nameContains) : undefined;
  const wanted = needle === undefined ? rows : rows.filter((row) => fold(row.name).includes(needle));
  return withProductParts(db, wanted, publicUrl, (row, parts) => toProduct(row, parts, canonical));
}

/** resolve-product: exactly one of ID (a positive integer) or Name (exact, case-insensitive). */
export async function resolveProduct(
  db: Kysely<Database>,
  operatorId: number,
  query: { ID?: string; Name?: string; Locale?: string },
  publicUrl: string,
): Promise<Product> {
  if ((query.ID === undefined) === (query.Name === undefined)) {
    throw new BadRequest('Give exactly one of the query parameters ID or Name');
  }
  const row = await resolveActivity(db, operatorId, query);
  const [product] = await withProductParts(db, [row], publicUrl, (found, parts) => toProduct(found, parts, localeOf(query.Locale)));
  return product!;
}

async function resolveActivity(db: Kysely<Database>, operatorId: number, query: { ID?: string; Name?: string }): Promise<ActivityRow> {
  if (query.ID !== undefined) {
    if (!/^[1-9]\d*$/.test(query.ID)) throw new BadRequest('ID must be a positive integer');
    // An integer beyond the largest row ID is well-formed but cannot name a product.
    const row = Number(query.ID) <= MAX_ROW_ID ? await findActivityById(db, operatorId, Number(query.ID)) : undefined;
    if (!row || row.archived) throw new NotFound(`No product with ID ${query.ID}`);
    return row;
  }
  const wanted = fold(query.Name!);
  const row = (await listActivities(db, operatorId)).find((candidate) => fold(candidate.name) === wanted);
  if (!row) throw new NotFound(`No product named "${query.Name}"`);
  return row;
}

/** One live product by ActivityID (the public shop's activity page). */
export async function getProduct(db: Kysely<Database>, operatorId: number, activityId: string, publicUrl: string, locale?: string): Promise<Product> {
  const canonical = localeOf(locale);
  const row = await requireActivity(db, operatorId, activityId);
  const [product] = await withProductParts(db, [row], publicUrl, (found, parts) => toProduct(found, parts, canonical));
  return product!;
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
  errors.push(...refundRuleErrors(body.GuestRefundRules), ...meetingPointErrors(body.MeetingPoint));
  if (errors.length > 0) throw new ValidationFailed(errors);
}

/** A fixed deposit is kept in minor units of the currency: it is read again when either changes. */
function depositChange(row: ActivityRow, body: UpdateActivityBody) {
  if (body.Deposit !== undefined) return depositColumns(body.Deposit, body.Currency ?? row.currency);
  if (body.Currency !== undefined && body.Currency !== row.currency && row.deposit_amount !== null)
    return depositColumns(depositView(row), body.Currency);
  return {};
}

export async function createActivity(db: Db, operatorId: number, body: CreateActivityBody): Promise<AdminProduct> {
  return db.write((tx) => addActivity(tx, operatorId, body));
}

/** createActivity inside the caller's transaction: the activity and its first ticket type, Adult at UnitPrice. */
export async function addActivity(tx: Tx, operatorId: number, body: CreateActivityBody): Promise<AdminProduct> {
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
    updated_at: nowMillis(),
    ...(body.AvailabilityType !== undefined && { availability_type: body.AvailabilityType }),
    ...(body.RequiredContactFields !== undefined && { required_contact_fields: JSON.stringify(body.RequiredContactFields) }),
    ...(body.GuestCancelHours !== undefined && { guest_cancel_hours: body.GuestCancelHours }),
    ...(body.GuestRescheduleHours !== undefined && { guest_reschedule_hours: body.GuestRescheduleHours }),
    ...(body.GuestRefundRules !== undefined && { guest_refund_rules: storedRefundRules(body.GuestRefundRules) }),
    ...storedDetails(body),
    ...(body.Deposit !== undefined && depositColumns(body.Deposit, body.Currency)),
    ...(body.BalanceDueDays !== undefined && { balance_due_days: body.BalanceDueDays }),
  });
  const adult = await addDefaultTicketType(tx, row);
  const product = toAdminProduct(row, { types: [adult], photos: [] });
  await audit(tx, { operatorId, action: 'activity.create', resource: { type: 'activity', id: product.ActivityID }, after: product });
  await recordProductEvent(tx, row, 'product.created');
  return product;
}

export async function listAdminProducts(db: Kysely<Database>, operatorId: number, publicUrl: string): Promise<AdminProduct[]> {
  return withProductParts(db, await listActivities(db, operatorId, true), publicUrl, toAdminProduct);
}

export async function getAdminProduct(db: Kysely<Database>, operatorId: number, activityId: string, publicUrl: string): Promise<AdminProduct> {
  const row = await findActivity(db, operatorId, activityId);
  if (!row) throw new NotFound(`No activity ${activityId}`);
  const [product] = await withProductParts(db, [row], publicUrl, toAdminProduct);
  return product!;
}

/**
 * Timeslots keep the instants they were created with, so an activity's time zone can change only while
 * it has none (otherwise every Date/Time already sold would silently name another instant); the same
 * holds for its AvailabilityType (a timeslot is bookable until its start, or until its end). UnitPrice
 * is the default ticket type's price: it changes that type, in the same transaction.
 */
export async function changeActivity(
  db: Db,
  operatorId: number,
  activityId: string,
  body: UpdateActivityBody,
  publicUrl: string,
): Promise<AdminProduct> {
  const row = await findActivity(db.kysely, operatorId, activityId);
  if (!row) throw new NotFound(`No activity ${activityId}`);
  checkActivityFields(body);
  if (body.Timezone !== undefined && body.Timezone !== row.timezone && (await hasTimeslots(db.kysely, row.id))) {
    throw new Conflict('Timezone cannot change on an activity that has timeslots; create a new activity instead');
  }
  if (body.AvailabilityType !== undefined && body.AvailabilityType !== availabilityTypeOf(row) && (await hasTimeslots(db.kysely, row.id))) {
    throw new Conflict('AvailabilityType cannot change on an activity that has timeslots; create a new activity instead');
  }
  return db.write(async (tx) => {
    const [before] = await withProductParts(tx, [row], publicUrl, toAdminProduct);
    // The activity row first, then its types: the lock order of the ticket type service.
    const changed = await updateActivity(tx, row.id, {
      ...(body.Name !== undefined && { name: body.Name.trim() }),
      ...(body.Description !== undefined && { description: body.Description }),
      ...(body.DurationMinutes !== undefined && { duration_minutes: body.DurationMinutes }),
      ...(body.Timezone !== undefined && { timezone: body.Timezone }),
      ...(body.Currency !== undefined && { currency: body.Currency }),
      ...(body.UnitPrice !== undefined && { unit_price: body.UnitPrice }),
      ...(body.MaxParticipantsPerBooking !== undefined && { max_participants_per_booking: body.MaxParticipantsPerBooking }),
      ...(body.Archived !== undefined && { archived: body.Archived ? 1 : 0 }),
      ...(body.AvailabilityType !== undefined && { availability_type: body.AvailabilityType }),
      ...(body.RequiredContactFields !== undefined && { required_contact_fields: JSON.stringify(body.RequiredContactFields) }),
      ...(body.GuestCancelHours !== undefined && { guest_cancel_hours: body.GuestCancelHours }),
      ...(body.GuestRescheduleHours !== undefined && { guest_reschedule_hours: body.GuestRescheduleHours }),
      ...(body.GuestRefundRules !== undefined && { guest_refund_rules: storedRefundRules(body.GuestRefundRules) }),
      ...storedDetails(body),
      ...depositChange(row, body),
      ...(body.BalanceDueDays !== undefined && { balance_due_days: body.BalanceDueDays }),
      updated_at: nowMillis(),
    });
    if (body.UnitPrice !== undefined) await setDefaultTicketPrice(tx, row.id, body.UnitPrice);
    const [after] = await withProductParts(tx, [changed], publicUrl, toAdminProduct);
    await audit(tx, { operatorId, action: 'activity.update', resource: { type: 'activity', id: activityId }, before: before!, after: after! });
    await recordProductEvent(tx, changed, changed.archived === 1 && row.archived === 0 ? 'product.archived' : 'product.updated');
    return after!;
  });
}
