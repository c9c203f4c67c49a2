// OCTo availability over slotbook's timeslots. For a START_TIME product an availability is one timeslot;
// its id is the start in the activity's own time zone with the offset (what OCTo shows as
// localDateTimeStart), so a reseller can read it, and it names the same instant whatever zone it is
// parsed in. For an OPENING_HOURS product it is one day (the day's one timeslot holds its opening hours
// and capacity): id = the day's midnight with offset, allDay, bookable until closing. Seats left are
// computed by the partner API's own toTimeslot, over the same rows, so both APIs always show the same.
import type { Kysely } from 'kysely';
import { DateTime } from 'luxon';
import type { Database } from '../../db/schema.js';
import type { ActivityRow } from '../../catalog/index.js';
import { findTimeslotAt, listTimeslots, type TimeslotRow } from '../../availability/index.js';
import { MAX_RANGE_DAYS } from '../../availability/schemas.js';
import { unixNow } from '../../lib/clock.js';
import { daysBetween, eachDate } from '../../calendar/zoned-time.js';
import { listTicketTypes, type TicketTypeRow } from '../../catalog/index.js';
import { OctoError } from '../errors.js';
import type { Wants } from '../http.js';
import { unitPricingOf } from './pricing.js';
import { requireOption, requireProduct } from './products.js';
import { findDayTimeslot } from './store.js';
import { isOpeningHours, toAvailability, type Status, type Wanted } from './view.js';
import type { Availability, AvailabilityCalendarBody, AvailabilityCalendarDay, AvailabilityCheckBody } from './schemas.js';

/** The product, its option and currency checked; its ticket types (the units). */
async function productOf(db: Kysely<Database>, operatorId: number, body: { productId: string; optionId: string; currency?: string | null }) {
  const activity = await requireProduct(db, operatorId, body.productId);
  requireOption(body.optionId);
  checkCurrency(activity, body.currency);
  return { activity, types: await listTicketTypes(db, [activity.id]) };
}

/**
 * The timeslot an availability id names: it must parse as an ISO 8601 date-time with an offset, and a
 * timeslot of the activity must start at exactly that instant (for opening hours: be on that day).
 */
export async function resolveAvailability(db: Kysely<Database>, activity: ActivityRow, availabilityId: string): Promise<TimeslotRow> {
  const instant = DateTime.fromISO(availabilityId, { setZone: true });
  if (!instant.isValid || !/[+-]\d{2}:?\d{2}$|Z$/.test(availabilityId)) {
    throw OctoError.invalidAvailability(availabilityId, 'is not a start time with an offset, such as 2030-05-01T10:00:00+02:00');
  }
  const local = instant.setZone(activity.timezone);
  if (isOpeningHours(activity)) {
    const day = await findDayTimeslot(db, activity.id, local.toISODate()!);
    if (!day) throw OctoError.invalidAvailability(availabilityId, `is not a day product ${activity.public_id} is open`);
    return day;
  }
  const slot = await findTimeslotAt(db, activity.id, local.toISODate()!, local.toFormat('HH:mm'));
  if (!slot || slot.starts_at !== instant.toUnixInteger()) {
    throw OctoError.invalidAvailability(availabilityId, `is not a start time of product ${activity.public_id}`);
  }
  return slot;
}

/** The seats and people the request's units ask for, after checking that every unit is one of the product's. */
function wantedOf(units: { id: string; quantity: number }[] | undefined, types: TicketTypeRow[]): Wanted {
  const byCode = new Map(types.map((type) => [type.code, type]));
  const wanted = { seats: 0, people: 0 };
  for (const unit of units ?? []) {
    const type = byCode.get(unit.id);
    if (!type) throw OctoError.invalidUnit(unit.id, [...byCode.keys()]);
    wanted.people += unit.quantity * type.people;
    if (type.takes_seat === 1) wanted.seats += unit.quantity * type.people;
  }
  return wanted.people === 0 ? { seats: 1, people: 1 } : wanted;
}

function checkRange(from: string, to: string): void {
  const days = daysBetween(from, to);
  if (days < 0) throw OctoError.badRequest('localDateEnd must not be before localDateStart');
  if (days > MAX_RANGE_DAYS) throw OctoError.badRequest(`localDateEnd must be at most ${MAX_RANGE_DAYS} days after localDateStart`);
}

export function checkCurrency(activity: ActivityRow, currency: string | null | undefined): void {
  if (currency && currency !== activity.currency) throw OctoError.badRequest(`Product ${activity.public_id} is sold in ${activity.currency} only`);
}

/** POST /availability: by localDate, by localDateStart and localDateEnd, or by availabilityIds. */
export async function checkAvailability(
  db: Kysely<Database>,
  operatorId: number,
  body: AvailabilityCheckBody,
  wants: Wants,
): Promise<Availability[]> {
  const { activity, types } = await productOf(db, operatorId, body);
  const wanted = wantedOf(body.units, types);
  const byRange = body.localDateStart !== undefined || body.localDateEnd !== undefined;
  const ways = [body.localDate !== undefined, byRange, body.availabilityIds !== undefined].filter(Boolean).length;
  if (ways !== 1) throw OctoError.badRequest('Send exactly one of: localDate; localDateStart and localDateEnd; availabilityIds');
  const now = unixNow();

  let from: string;
  let to: string;
  let ids: Set<number> | undefined;
  if (body.localDate !== undefined) {
    from = to = body.localDate;
  } else if (byRange) {
    if (body.localDateStart === undefined || body.localDateEnd === undefined)
      throw OctoError.badRequest('localDateStart and localDateEnd go together');
    [from, to] = [body.localDateStart, body.localDateEnd];
    checkRange(from, to);
  } else {
    const slots = await Promise.all(body.availabilityIds!.map((id) => resolveAvailability(db, activity, id)));
    if (slots.length === 0) return [];
    ids = new Set(slots.map((slot) => slot.id));
    const dates = slots.map((slot) => slot.date).sort();
    [from, to] = [dates[0]!, dates[dates.length - 1]!];
  }
  const rows = await listTimeslots(db, activity.id, { from, to }, now);
  return rows.filter((row) => !ids || ids.has(row.id)).map((row) => toAvailability(row, activity, types, now, wants, wanted));
}

/** POST /availability/calendar: one entry per date of the range, days without timeslots CLOSED. */
export async function availabilityCalendar(
  db: Kysely<Database>,
  operatorId: number,
  body: AvailabilityCalendarBody,
  wants: Wants,
): Promise<AvailabilityCalendarDay[]> {
  const { activity, types } = await productOf(db, operatorId, body);
  const wanted = wantedOf(body.units, types);
  checkRange(body.localDateStart, body.localDateEnd);
  const now = unixNow();
  const rows = await listTimeslots(db, activity.id, { from: body.localDateStart, to: body.localDateEnd }, now);
  const byDate = new Map<string, Availability[]>();
  for (const row of rows)
    byDate.set(row.date, [...(byDate.get(row.date) ?? []), toAvailability(row, activity, types, now, { pricing: false }, wanted)]);

  return [...eachDate(body.localDateStart, body.localDateEnd)].map(({ date }) => {
    const slots = byDate.get(date) ?? [];
    const vacancies = Math.max(0, ...slots.map((slot) => slot.vacancies ?? 0));
    const capacity = slots.reduce((sum, slot) => sum + (slot.capacity ?? 0), 0);
    const open = slots.filter((slot) => slot.status !== 'CLOSED');
    const status: Status =
      open.length === 0 ? 'CLOSED' : vacancies === 0 ? 'SOLD_OUT' : open.some((s) => s.status === 'AVAILABLE') ? 'AVAILABLE' : 'LIMITED';
    return {
      localDate: date,
      available: slots.some((slot) => slot.available),
      status,
      vacancies,
      capacity,
      openingHours: slots.flatMap((slot) => slot.openingHours),
      ...(wants.pricing && { unitPricingFrom: unitPricingOf(activity, types) }),
    };
  });
}
