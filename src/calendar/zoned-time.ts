// Wall-clock dates and times in an activity's own IANA time zone, and the instants they name.
// Luxon (over the platform's Intl time-zone data) does the daylight-saving arithmetic.
import { DateTime, IANAZone } from 'luxon';
import { LRUCache } from 'lru-cache';
import { asUnixSeconds, nowMillis, type UnixMillis, type UnixSeconds } from '../lib/clock.js';

export function isValidTimeZone(zone: string): boolean {
  return IANAZone.isValidZone(zone);
}

/** True for a real calendar date written YYYY-MM-DD. */
export function isCalendarDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && DateTime.fromISO(value, { zone: 'UTC' }).isValid;
}

/**
 * The Unix second at which the wall-clock `date` `time` happens in `zone`, or undefined when that clock
 * time does not exist there (skipped by a daylight-saving change). A time that happens twice (clocks go
 * back) is the first of the two.
 */
export function zonedToUnix(date: string, time: string, zone: string): UnixSeconds | undefined {
  const local = DateTime.fromISO(`${date}T${time}`, { zone });
  if (!local.isValid || local.toFormat('yyyy-MM-dd HH:mm') !== `${date} ${time}`) return undefined;
  // Luxon picks the earlier offset for an ambiguous time already; make that explicit and stable.
  const earlier = local.minus({ hours: 1 });
  if (earlier.toFormat('yyyy-MM-dd HH:mm') === `${date} ${time}`) return asUnixSeconds(earlier.toUnixInteger());
  return asUnixSeconds(local.toUnixInteger());
}

// The same few thousand instants (timeslot starts and ends) are shown again with every answer that lists
// them, and luxon's formatting was most of the cost of a timeslots answer: the texts are kept, bounded.
const texts = new LRUCache<string, string>({ max: 10_000 });

function remembered(key: string, format: () => string): string {
  let text = texts.get(key);
  if (text === undefined) texts.set(key, (text = format()));
  return text;
}

/** ISO 8601 with the zone's offset at that instant, e.g. 2026-03-29T10:00:00+02:00. */
export function unixToZonedIso(seconds: UnixSeconds, zone: string): string {
  return remembered(
    `${zone} ${seconds} iso`,
    () => DateTime.fromSeconds(seconds, { zone }).toISO({ suppressMilliseconds: true, includeOffset: true })!,
  );
}

/** The wall-clock HH:MM in `zone` at an instant. */
export function unixToZonedTime(seconds: UnixSeconds, zone: string): string {
  return remembered(`${zone} ${seconds} time`, () => DateTime.fromSeconds(seconds, { zone }).toFormat('HH:mm'));
}

/** Days from `from` to `to` (YYYY-MM-DD), negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** Every date from `from` to `to` inclusive, with its ISO weekday (1 = Monday). */
export function* eachDate(from: string, to: string): Generator<{ date: string; weekday: number }> {
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    const day = new Date(t);
    yield { date: day.toISOString().slice(0, 10), weekday: ((day.getUTCDay() + 6) % 7) + 1 };
  }
}

/** The UTC calendar day (YYYY-MM-DD) of a Unix second. */
export function utcDay(seconds: UnixSeconds): string {
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}

/** Today's date in `zone`. */
export function todayIn(zone: string, nowMs: UnixMillis = nowMillis()): string {
  return DateTime.fromMillis(nowMs, { zone }).toISODate()!;
}

/** The first instant of `date` in `zone` (midnight, or the first clock time after it when clocks skip midnight). */
export function startOfDayUnix(date: string, zone: string): UnixSeconds {
  return asUnixSeconds(DateTime.fromISO(date, { zone }).startOf('day').toUnixInteger());
}

/** The calendar date after `date`. */
export function nextDate(date: string): string {
  return DateTime.fromISO(date, { zone: 'UTC' }).plus({ days: 1 }).toISODate()!;
}
