// OCTo availability over slotbook's timeslots. An availability is one timeslot; its id is the start in
// the activity's own time zone with the offset (what OCTo shows as localDateTimeStart), so a reseller
// can read it, and it names the same instant whatever zone it is parsed in. Seats left are computed by
// the partner API's own toTimeslot, over the same rows, so both APIs always show the same number.
import type { Kysely } from 'kysely';
import { DateTime } from 'luxon';
import type { Database } from '../db/schema.js';
import type { ActivityRow } from '../catalog/store.js';
import { toTimeslot } from '../availability/service.js';
import { findTimeslotAt, listTimeslots, type LiveTimeslotRow, type TimeslotRow } from '../availability/store.js';
import { MAX_RANGE_DAYS } from '../availability/schemas.js';
import { unixNow } from '../availability/seats.js';
import { daysBetween, eachDate, unixToZonedIso } from '../calendar/zoned-time.js';
import { OctoError } from './errors.js';
import { unitPriceOf } from './pricing.js';
import { requireOption, requireProduct } from './products.js';
import type { Availability, AvailabilityCalendarBody, AvailabilityCalendarDay, AvailabilityCheckBody } from './schemas.js';
import { UNIT_ID } from './terms.js';

type Status = 'AVAILABLE' | 'LIMITED' | 'SOLD_OUT' | 'CLOSED';

/** CLOSED once started or without capacity; LIMITED under half the seats left, as OCTo defines it. */
function statusOf(capacity: number, left: number, started: boolean): Status {
  if (started || capacity === 0) return 'CLOSED';
  if (left === 0) return 'SOLD_OUT';
  return left * 2 < capacity ? 'LIMITED' : 'AVAILABLE';
}

export function toAvailability(row: LiveTimeslotRow, activity: ActivityRow, now: number, pricing: boolean, wanted = 1): Availability {
  const slot = toTimeslot(row, activity.timezone, now);
  return {
    id: slot.StartsAt,
    localDateTimeStart: slot.StartsAt,
    localDateTimeEnd: unixToZonedIso(row.ends_at, activity.timezone),
    utcCutoffAt: new Date(row.starts_at * 1000).toISOString().replace('.000Z', 'Z'),
    allDay: false,
    available: slot.Available > 0 && slot.Available >= wanted && wanted <= activity.max_participants_per_booking,
    status: statusOf(slot.Capacity, slot.Available, row.starts_at <= now),
    vacancies: slot.Available,
    capacity: slot.Capacity,
    maxUnits: activity.max_participants_per_booking,
    openingHours: [],
    ...(pricing && { unitPricing: [unitPriceOf(activity)] }),
  };
}

/**
 * The timeslot an availability id names: it must parse as an ISO 8601 date-time with an offset, and a
 * timeslot of the activity must start at exactly that instant.
 */
export async function resolveAvailability(db: Kysely<Database>, activity: ActivityRow, availabilityId: string): Promise<TimeslotRow> {
  const instant = DateTime.fromISO(availabilityId, { setZone: true });
  if (!instant.isValid || !/[+-]\d{2}:?\d{2}$|Z$/.test(availabilityId)) {
    throw OctoError.invalidAvailability(availabilityId, 'is not a start time with an offset, such as 2030-05-01T10:00:00+02:00');
  }
  const local = instant.setZone(activity.timezone);
  const slot = await findTimeslotAt(db, activity.id, local.toISODate()!, local.toFormat('HH:mm'));
  if (!slot || slot.starts_at !== instant.toUnixInteger()) {
    throw OctoError.invalidAvailability(availabilityId, `is not a start time of product ${activity.public_id}`);
  }
  return slot;
}

/** The seats the request asks for (units' quantities), after checking that every unit is ours. */
function wantedSeats(units: { id: string; quantity: number }[] | undefined): number {
  let seats = 0;
  for (const unit of units ?? []) {
    if (unit.id !== UNIT_ID) throw OctoError.invalidUnit(unit.id);
    seats += unit.quantity;
  }
  return Math.max(seats, 1);
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
export async function checkAvailability(db: Kysely<Database>, operatorId: number, body: AvailabilityCheckBody, pricing: boolean): Promise<Availability[]> {
  const activity = await requireProduct(db, operatorId, body.productId);
  requireOption(body.optionId);
  checkCurrency(activity, body.currency);
  const wanted = wantedSeats(body.units);
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
    if (body.localDateStart === undefined || body.localDateEnd === undefined) throw OctoError.badRequest('localDateStart and localDateEnd go together');
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
  return rows.filter((row) => !ids || ids.has(row.id)).map((row) => toAvailability(row, activity, now, pricing, wanted));
}

/** POST /availability/calendar: one entry per date of the range, days without timeslots CLOSED. */
export async function availabilityCalendar(
  db: Kysely<Database>,
  operatorId: number,
  body: AvailabilityCalendarBody,
  pricing: boolean,
): Promise<AvailabilityCalendarDay[]> {
  const activity = await requireProduct(db, operatorId, body.productId);
  requireOption(body.optionId);
  checkCurrency(activity, body.currency);
  const wanted = wantedSeats(body.units);
  checkRange(body.localDateStart, body.localDateEnd);
  const now = unixNow();
  const rows = await listTimeslots(db, activity.id, { from: body.localDateStart, to: body.localDateEnd }, now);
  const byDate = new Map<string, Availability[]>();
  for (const row of rows) byDate.set(row.date, [...(byDate.get(row.date) ?? []), toAvailability(row, activity, now, false, wanted)]);

  return [...eachDate(body.localDateStart, body.localDateEnd)].map(({ date }) => {
    const slots = byDate.get(date) ?? [];
    const vacancies = Math.max(0, ...slots.map((slot) => slot.vacancies ?? 0));
    const capacity = slots.reduce((sum, slot) => sum + (slot.capacity ?? 0), 0);
    const open = slots.filter((slot) => slot.status !== 'CLOSED');
    const status: Status = open.length === 0 ? 'CLOSED' : vacancies === 0 ? 'SOLD_OUT' : open.some((s) => s.status === 'AVAILABLE') ? 'AVAILABLE' : 'LIMITED';
    return {
      localDate: date,
      available: slots.some((slot) => slot.available),
      status,
      vacancies,
      capacity,
      openingHours: [],
      ...(pricing && { unitPricingFrom: [unitPriceOf(activity)] }),
    };
  });
}
