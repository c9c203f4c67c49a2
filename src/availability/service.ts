import type { Kysely } from 'kysely';
import type { Tx } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { Conflict, NotFound, ValidationFailed } from '../http/errors.js';
import { daysBetween, unixToZonedIso, unixToZonedTime } from '../calendar/zoned-time.js';
import { requireActivity } from '../catalog/service.js';
import { findActivity } from '../catalog/index.js';
import { audit } from '../audit/log.js';
import { seatsLeft } from './seats.js';
import { unixNow, type UnixSeconds } from '../lib/clock.js';
import { MAX_RANGE_DAYS, type AdminTimeslot, type AvailableDate, type Timeslot } from './schemas.js';
import { findZonedTimeslot, listDatesWithRoom, listTimeslots, setCapacityAboveBooked, type LiveTimeslotRow } from './store.js';

export function toTimeslot(row: LiveTimeslotRow, zone: string, now: UnixSeconds): Timeslot {
  return {
    Time: row.time,
    EndTime: unixToZonedTime(row.ends_at, zone),
    StartsAt: unixToZonedIso(row.starts_at, zone),
    Capacity: row.capacity,
    Booked: bookedSeats(row),
    Available: availableSeats(row, now),
  };
}

/** Seats of live bookings and live holds: a hold that lapsed but is not yet released counts as free. */
const bookedSeats = (row: LiveTimeslotRow): number => Math.max(0, row.booked - row.lapsed_hold_seats);

/** The seats a booking could take now: what every channel shows as left (none once the timeslot takes no bookings). */
export function availableSeats(row: LiveTimeslotRow, now: UnixSeconds): number {
  return seatsLeft({ capacity: row.capacity, booked: bookedSeats(row), startsAt: row.starts_at, bookableUntil: row.bookable_until }, now);
}

export function toAdminTimeslot(row: LiveTimeslotRow, activityPublicId: string, zone: string, now: UnixSeconds): AdminTimeslot {
  const slot = toTimeslot(row, zone, now);
  return {
    ID: row.id,
    ActivityID: activityPublicId,
    Date: row.date,
    ...slot,
    Free: Math.max(0, slot.Capacity - slot.Booked),
    CancelledAt: row.cancelled_at === null ? null : new Date(Number(row.cancelled_at) * 1000).toISOString(),
  };
}

/** A date range of at most MAX_RANGE_DAYS; the errors name the query parameters as the client sent them. */
export function checkRange(from: string, to: string, names: { from: string; to: string }): void {
  const days = daysBetween(from, to);
  if (days < 0) throw ValidationFailed.field(names.to, `${names.to} must not be before ${names.from}`);
  if (days > MAX_RANGE_DAYS) {
    throw ValidationFailed.field(names.to, `${names.to} must be at most ${MAX_RANGE_DAYS} days after ${names.from}`);
  }
}

/** Partner: the dates from StartDate to EndDate that have a seat left, ascending. */
export async function listAvailableDates(
  db: Kysely<Database>,
  operatorId: number,
  activityId: string,
  range: { StartDate: string; EndDate: string },
  now = unixNow(),
): Promise<AvailableDate[]> {
  checkRange(range.StartDate, range.EndDate, { from: 'StartDate', to: 'EndDate' });
  const activity = await requireActivity(db, operatorId, activityId);
  const days = await listDatesWithRoom(db, activity.id, { from: range.StartDate, to: range.EndDate }, now);
  return days.map((day) => ({ Date: day.date, Timeslots: day.timeslots, Available: day.available }));
}

/** Partner: every timeslot of the day, sold-out and started ones included (with Available 0), by Time. */
export async function listDayTimeslots(
  db: Kysely<Database>,
  operatorId: number,
  activityId: string,
  date: string,
  now = unixNow(),
): Promise<Timeslot[]> {
  const activity = await requireActivity(db, operatorId, activityId);
  const rows = await listTimeslots(db, activity.id, { from: date, to: date }, now);
  return rows.map((row) => toTimeslot(row, activity.timezone, now)).sort((a, b) => (a.Time < b.Time ? -1 : a.Time > b.Time ? 1 : 0));
}

/** Operator: the activity's timeslots from From to To, archived activities included. */
export async function listAdminTimeslots(
  db: Kysely<Database>,
  operatorId: number,
  activityId: string,
  range: { From: string; To: string },
  now = unixNow(),
): Promise<AdminTimeslot[]> {
  checkRange(range.From, range.To, { from: 'From', to: 'To' });
  const activity = await findActivity(db, operatorId, activityId);
  if (!activity) throw new NotFound(`No activity ${activityId}`);
  const rows = await listTimeslots(db, activity.id, { from: range.From, to: range.To }, now);
  return rows.map((row) => toAdminTimeslot(row, activity.public_id, activity.timezone, now));
}

export async function getAdminTimeslot(db: Kysely<Database>, operatorId: number, id: number, now = unixNow()): Promise<AdminTimeslot> {
  const row = await findZonedTimeslot(db, operatorId, id, now);
  if (!row) throw new NotFound(`No timeslot ${id}`);
  return toAdminTimeslot(row, row.activity_public_id, row.timezone, now);
}

/**
 * Operator: the timeslot's new capacity, in the caller's transaction, never below the seats booked (409),
 * with its audit entry. A cancelled departure takes no more bookings (409). The flow that calls it releases
 * the timeslot's lapsed holds first (flows/timeslot-capacity.ts).
 */
export async function setTimeslotCapacity(tx: Tx, operatorId: number, id: number, capacity: number, now: UnixSeconds): Promise<void> {
  const slot = await findZonedTimeslot(tx, operatorId, id, now);
  if (!slot) throw new NotFound(`No timeslot ${id}`);
  if (slot.cancelled_at !== null) throw new Conflict(`The timeslot on ${slot.date} at ${slot.time} was cancelled; it takes no more bookings`);
  if (!(await setCapacityAboveBooked(tx, { operatorId, timeslotId: id }, capacity))) {
    const booked = slot.booked - slot.lapsed_hold_seats;
    throw new Conflict(`Capacity cannot be ${capacity}: ${booked} seats of this timeslot are already booked`);
  }
  await audit(tx, {
    operatorId,
    action: 'timeslot.update',
    resource: { type: 'timeslot', id },
    before: { Capacity: slot.capacity },
    after: { Capacity: capacity },
  });
}
