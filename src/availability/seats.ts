// Pure rules about seats and schedules, kept apart from SQL so they can be tested on their own.
import { eachDate, zonedToUnix } from '../calendar/zoned-time.js';
import type { UnixSeconds } from '../lib/clock.js';

export interface SeatCount {
  capacity: number;
  /** Live booked seats: confirmed bookings and holds that have not lapsed. */
  booked: number;
  /** Unix seconds of the start. */
  startsAt: UnixSeconds;
  /** Unix seconds from which it takes no bookings: the start, or the close of a day's opening hours. */
  bookableUntil?: UnixSeconds;
}

/**
 * Seats that can still be booked. Once a timeslot has started (opening hours: closed) nobody can join
 * it, so it has none left, whatever its count says; this also keeps past dates out of the available dates.
 */
export function seatsLeft(slot: SeatCount, now: UnixSeconds): number {
  if ((slot.bookableUntil ?? slot.startsAt) <= now) return 0;
  return Math.max(0, slot.capacity - slot.booked);
}

export interface ScheduledStart {
  date: string;
  time: string;
  startsAt: UnixSeconds;
}

/**
 * The starts of a weekly schedule from `from` to `to`, in date then time order. A wall-clock time that
 * the zone skips on a given day (clocks go forward) has no instant, so that day simply has no such
 * timeslot rather than one at a time the operator never asked for.
 */
export function scheduleStarts(schedule: { from: string; to: string; weekdays: number[]; times: string[] }, zone: string): ScheduledStart[] {
  const weekdays = new Set(schedule.weekdays);
  const times = [...new Set(schedule.times)].sort();
  const starts: ScheduledStart[] = [];
  for (const { date, weekday } of eachDate(schedule.from, schedule.to)) {
    if (!weekdays.has(weekday)) continue;
    for (const time of times) {
      const startsAt = zonedToUnix(date, time, zone);
      if (startsAt !== undefined) starts.push({ date, time, startsAt });
    }
  }
  return starts;
}
