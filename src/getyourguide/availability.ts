// get-availabilities: the vacancies GYG may sell, computed from the seat ledger exactly as the partner API
// computes seats left (availability/service.ts toTimeslot: capacity less live bookings and live holds,
// lapsed holds counted as free, nothing once the timeslot has started or closed), so that a reserve
// asked for what availability showed is granted. One query of the product's timeslots in the range.
import type { Kysely } from 'kysely';
import { DateTime } from 'luxon';
import type { Database } from '../db/schema.js';
import { listTimeslots, type LiveTimeslotRow, type TimeslotRow } from '../availability/index.js';
import { toTimeslot } from '../availability/service.js';
import { MAX_RANGE_DAYS } from '../availability/schemas.js';
import { daysBetween, startOfDayUnix, unixToZonedIso, unixToZonedTime } from '../calendar/zoned-time.js';
import { unixNow, type UnixSeconds } from '../lib/clock.js';
import { availabilityTypeOf } from '../catalog/service.js';
import type { ActivityRow } from '../catalog/index.js';
import { GygError } from './errors.js';
import { requireProduct, type GygCaller, type GygProduct } from './products.js';
import type { Availability, AvailabilityQuery } from './schemas.js';

/** An attraction with a daily capacity (its day's one timeslot): GYG's time period product. */
export const isOpeningHours = (activity: ActivityRow): boolean => availabilityTypeOf(activity) === 'opening_hours';

/** GYG caps vacancies at 5000 ("unlimited"). */
const MAX_VACANCIES = 5000;

/** GYG's dateTime: ISO 8601 with the offset spelled +00:00 rather than Z. */
export const gygIso = (seconds: UnixSeconds, zone: string): string => unixToZonedIso(seconds, zone).replace(/Z$/, '+00:00');

/** A dateTime GYG sent, read in the activity's zone; without an offset it is taken as the activity's local time (liberal). */
export function readDateTime(text: string, activity: ActivityRow, field: string): DateTime {
  const parsed = DateTime.fromISO(text, { setZone: true, zone: activity.timezone });
  if (!parsed.isValid) throw GygError.validation(`${field} "${text}" is not an ISO 8601 date-time such as 2030-05-01T10:00:00+02:00`);
  return parsed.setZone(activity.timezone);
}

/** What one timeslot can still sell, per offered ticket type. */
export function vacanciesOf(row: LiveTimeslotRow, product: GygProduct, now: UnixSeconds): Pick<Availability, 'vacancies' | 'vacanciesByCategory'> {
  const left = toTimeslot(row, product.activity.timezone, now).Available;
  const cap = (n: number) => Math.min(MAX_VACANCIES, Math.max(0, n));
  // A GROUP product counts groups: how many of its group tickets still fit.
  if (product.group) return { vacancies: cap(product.group.seatsPerTicket === 0 ? left : Math.floor(left / product.group.seatsPerTicket)) };
  if (product.offered.every((o) => o.seatsPerTicket === 1)) return { vacancies: cap(left) };
  // Ticket types that take other than one seat: per category. One that takes no seat is sold while seats are left.
  return {
    vacanciesByCategory: product.offered
      .filter((o) => o.category !== 'GROUP')
      .map((o) => ({
        category: o.category as Exclude<typeof o.category, 'GROUP'>,
        vacancies: cap(o.seatsPerTicket === 0 ? left : Math.floor(left / o.seatsPerTicket)),
      })),
  };
}

/** The timeslot's GYG dateTime: its start (time point), or its day's midnight (time period). */
export function dateTimeOf(row: TimeslotRow, activity: ActivityRow): string {
  return isOpeningHours(activity) ? gygIso(startOfDayUnix(row.date, activity.timezone), activity.timezone) : gygIso(row.starts_at, activity.timezone);
}

export function toAvailability(row: LiveTimeslotRow, product: GygProduct, now: UnixSeconds): Availability {
  const { activity } = product;
  return {
    dateTime: dateTimeOf(row, activity),
    productId: product.productId,
    cutoffSeconds: 0,
    ...vacanciesOf(row, product, now),
    ...(isOpeningHours(activity) && {
      openingTimes: [{ fromTime: row.time, toTime: unixToZonedTime(row.ends_at, activity.timezone) }],
    }),
    currency: activity.currency,
    pricesByCategory: { retailPrices: product.offered.map((o) => ({ category: o.category, price: o.type.price })) },
  };
}

export async function getAvailabilities(db: Kysely<Database>, caller: GygCaller, query: AvailabilityQuery): Promise<Availability[]> {
  const product = await requireProduct(db, caller, query.productId);
  const { activity } = product;
  const from = readDateTime(query.fromDateTime, activity, 'fromDateTime');
  const to = readDateTime(query.toDateTime, activity, 'toDateTime');
  if (to < from) throw GygError.validation('toDateTime must not be before fromDateTime');
  const [fromDate, toDate] = [from.toISODate()!, to.toISODate()!];
  if (daysBetween(fromDate, toDate) > MAX_RANGE_DAYS) throw GygError.validation(`Ask for at most ${MAX_RANGE_DAYS} days at once`);
  const now = unixNow();
  const [first, last] = [from.toUnixInteger(), to.toUnixInteger()];
  const rows = await listTimeslots(db, activity.id, { from: fromDate, to: toDate }, now);
  const opening = isOpeningHours(activity);
  // A time point is in the range by its start; a time period (a day) by its midnight's date, as GYG asks by day.
  const inRange = (row: LiveTimeslotRow) => opening || (row.starts_at >= first && row.starts_at <= last);
  return rows.filter(inRange).map((row) => toAvailability(row, product, now));
}
