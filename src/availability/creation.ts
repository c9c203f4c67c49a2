// Operator: creating timeslots, one at a time or from a weekly schedule. A timeslot stores its wall-clock
// Date and Time in the activity's zone (what partners ask by) and the instants of its start and end (what
// "has it started" and StartsAt are computed from), fixed at creation.
import type { Db } from '../db/connection.js';
import { Conflict, NotFound, ValidationFailed, type FieldError } from '../http/errors.js';
import { zonedToUnix } from '../calendar/zoned-time.js';
import { findActivity, type ActivityRow } from '../catalog/index.js';
import { checkRange, toAdminTimeslot } from './service.js';
import { scheduleStarts } from './seats.js';
import { addSeconds, unixNow, type UnixSeconds } from '../lib/clock.js';
import { datesWithTimeslots, insertNewTimeslots, type NewTimeslot } from './store.js';
import { availabilityTypeOf } from '../catalog/service.js';
import { audit } from '../audit/log.js';
import type { AdminTimeslot, CreateTimeslotsBody } from './schemas.js';

export type CreatedTimeslots = { kind: 'single'; timeslot: AdminTimeslot } | { kind: 'schedule'; timeslots: AdminTimeslot[] };

const SINGLE_FIELDS = ['Date', 'Time'] as const;
const SCHEDULE_FIELDS = ['From', 'To', 'Weekdays', 'Times'] as const;

type Shape = { kind: 'single'; date: string; time: string } | { kind: 'schedule'; from: string; to: string; weekdays: number[]; times: string[] };

/** Which of the two request shapes the body is, or a 422 naming what is missing or mixed. */
export function timeslotShape(body: CreateTimeslotsBody): Shape {
  const single = SINGLE_FIELDS.filter((field) => body[field] !== undefined);
  const schedule = SCHEDULE_FIELDS.filter((field) => body[field] !== undefined);
  const hint = 'give either Date and Time (one timeslot) or From, To, Weekdays and Times (a schedule)';
  if (single.length > 0 && schedule.length > 0) {
    throw new ValidationFailed(schedule.map((field) => ({ field, message: `${field} cannot be combined with ${single.join(' and ')}: ${hint}` })));
  }
  const missing: FieldError[] = (schedule.length > 0 ? SCHEDULE_FIELDS : SINGLE_FIELDS)
    .filter((field) => body[field] === undefined)
    .map((field) => ({ field, message: `${field} is required: ${hint}` }));
  if (missing.length > 0) throw new ValidationFailed(missing);
  if (schedule.length > 0) return { kind: 'schedule', from: body.From!, to: body.To!, weekdays: body.Weekdays!, times: body.Times! };
  return { kind: 'single', date: body.Date!, time: body.Time! };
}

function newRow(activity: ActivityRow, start: { date: string; time: string; startsAt: UnixSeconds }, capacity: number): NewTimeslot {
  const endsAt = addSeconds(start.startsAt, activity.duration_minutes * 60);
  return {
    operator_id: activity.operator_id,
    activity_id: activity.id,
    date: start.date,
    time: start.time,
    starts_at: start.startsAt,
    ends_at: endsAt,
    // A start time is bookable until it starts; a day's opening hours until they close.
    bookable_until: availabilityTypeOf(activity) === 'opening_hours' ? endsAt : start.startsAt,
    capacity,
  };
}

export async function createTimeslots(db: Db, operatorId: number, activityId: string, body: CreateTimeslotsBody): Promise<CreatedTimeslots> {
  const shape = timeslotShape(body);
  if (shape.kind === 'schedule') checkRange(shape.from, shape.to, { from: 'From', to: 'To' });
  const activity = await findActivity(db.kysely, operatorId, activityId);
  if (!activity) throw new NotFound(`No activity ${activityId}`);
  const now = unixNow();
  const show = (row: Parameters<typeof toAdminTimeslot>[0]) => toAdminTimeslot(row, activity.public_id, activity.timezone, now);

  const openingHours = availabilityTypeOf(activity) === 'opening_hours';
  if (shape.kind === 'single') {
    const startsAt = zonedToUnix(shape.date, shape.time, activity.timezone);
    if (startsAt === undefined) {
      throw ValidationFailed.field(
        'Time',
        `${shape.time} does not exist on ${shape.date} in ${activity.timezone}: the clocks skip it (daylight saving)`,
      );
    }
    const timeslot = await db.write(async (tx) => {
      if (openingHours && (await datesWithTimeslots(tx, activity.id, [shape.date])).size > 0) {
        throw new Conflict(`The activity already has its opening hours on ${shape.date}: an attraction has one timeslot a day`);
      }
      const [row] = await insertNewTimeslots(tx, [newRow(activity, { ...shape, startsAt }, body.Capacity)]);
      if (!row) throw new Conflict(`The activity already has a timeslot on ${shape.date} at ${shape.time}`);
      const created = show({ ...row, lapsed_hold_seats: 0 });
      await audit(tx, { operatorId, action: 'timeslot.create', resource: { type: 'timeslot', id: created.ID }, after: created });
      return created;
    });
    return { kind: 'single', timeslot };
  }

  if (openingHours && shape.times.length > 1) {
    throw ValidationFailed.field(
      'Times',
      'An activity with opening hours has one timeslot a day: give one opening time (its DurationMinutes are the hours)',
    );
  }
  const rows = scheduleStarts(shape, activity.timezone).map((start) => newRow(activity, start, body.Capacity));
  const created = await db.write(async (tx) => {
    // Days that have their opening hours already keep them.
    const taken = openingHours
      ? await datesWithTimeslots(
          tx,
          activity.id,
          rows.map((row) => row.date),
        )
      : new Set<string>();
    const inserted = await insertNewTimeslots(
      tx,
      rows.filter((row) => !taken.has(row.date)),
    );
    // One entry for the schedule (it may create thousands of timeslots): what was asked and what it made.
    await audit(tx, {
      operatorId,
      action: 'timeslot.create-schedule',
      resource: { type: 'activity', id: activity.public_id },
      after: { ...body, Created: inserted.length, TimeslotIDs: inserted.length <= 100 ? inserted.map((row) => row.id) : undefined },
    });
    return inserted;
  });
  created.sort((a, b) => a.starts_at - b.starts_at || a.id - b.id);
  return { kind: 'schedule', timeslots: created.map((row) => show({ ...row, lapsed_hold_seats: 0 })) };
}
