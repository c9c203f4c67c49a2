// The reads behind manifests: a day's (or a period's) timeslots, their confirmed bookings, and what a
// manifest shows of each booking (tickets with the people they admit, check-ins, waiver answers, OCTo
// notes), each in one query for all the bookings of the page. Every query filters by operator.
import type { Kysely, Selectable } from 'kysely';
import type { BookingTable, Database, QuestionTable } from '../db/schema.js';
import { asUnixSeconds, type UnixSeconds } from '../lib/clock.js';

export interface ManifestSlotRow {
  id: number;
  date: string;
  time: string;
  starts_at: UnixSeconds;
  ends_at: UnixSeconds;
  capacity: number;
  activity_public_id: string;
  activity_name: string;
  timezone: string;
}

function selectSlots(db: Kysely<Database>, operatorId: number) {
  return db
    .selectFrom('timeslots')
    .innerJoin('activities', 'activities.id', 'timeslots.activity_id')
    .select([
      'timeslots.id',
      'timeslots.date',
      'timeslots.time',
      'timeslots.starts_at',
      'timeslots.ends_at',
      'timeslots.capacity',
      'activities.public_id as activity_public_id',
      'activities.name as activity_name',
      'activities.timezone',
    ])
    .where('timeslots.operator_id', '=', operatorId)
    .where('activities.operator_id', '=', operatorId);
}

const numeric = (row: ManifestSlotRow): ManifestSlotRow => ({
  ...row,
  id: Number(row.id),
  starts_at: asUnixSeconds(Number(row.starts_at)),
  ends_at: asUnixSeconds(Number(row.ends_at)),
});

/** The operator's timeslots dated from `from` to `to` (local dates), by date, time and activity name. */
export async function slotsBetween(db: Kysely<Database>, operatorId: number, from: string, to: string): Promise<ManifestSlotRow[]> {
  const rows = await selectSlots(db, operatorId)
    .where('timeslots.date', '>=', from)
    .where('timeslots.date', '<=', to)
    .orderBy('timeslots.date')
    .orderBy('timeslots.time')
    .orderBy('activities.name')
    .orderBy('timeslots.id')
    .execute();
  return rows.map(numeric);
}

export async function findSlot(db: Kysely<Database>, operatorId: number, timeslotId: number): Promise<ManifestSlotRow | undefined> {
  const row = await selectSlots(db, operatorId).where('timeslots.id', '=', timeslotId).executeTakeFirst();
  return row && numeric(row);
}

/** The time zones of the operator's activities (a guide's "today" is a date in one of them). */
export async function operatorZones(db: Kysely<Database>, operatorId: number): Promise<string[]> {
  const rows = await db.selectFrom('activities').select('timezone').distinct().where('operator_id', '=', operatorId).orderBy('timezone').execute();
  return rows.map((row) => row.timezone);
}

/** The zone of the operator's first activity: where "today" is when a request names no date. */
export async function mainZone(db: Kysely<Database>, operatorId: number): Promise<string | undefined> {
  const row = await db.selectFrom('activities').select('timezone').where('operator_id', '=', operatorId).orderBy('id').limit(1).executeTakeFirst();
  return row?.timezone;
}

export type ManifestBookingRow = Selectable<BookingTable>;

/** The confirmed bookings of these timeslots, by last and first name. */
export async function confirmedBookingsOf(db: Kysely<Database>, operatorId: number, timeslotIds: number[]): Promise<ManifestBookingRow[]> {
  if (timeslotIds.length === 0) return [];
  return db
    .selectFrom('bookings')
    .selectAll()
    .where('operator_id', '=', operatorId)
    .where('timeslot_id', 'in', timeslotIds)
    .where('status', '=', 'confirmed')
    .orderBy('customer_last_name')
    .orderBy('customer_first_name')
    .orderBy('id')
    .execute();
}

/** One booking of the operator by reference, whatever its status (a look-up at the door). */
export async function bookingByReference(db: Kysely<Database>, operatorId: number, reference: string): Promise<ManifestBookingRow | undefined> {
  return db.selectFrom('bookings').selectAll().where('operator_id', '=', operatorId).where('reference', '=', reference).executeTakeFirst();
}

/** People one ticket of each sold type admits, by ticket type ID. */
export async function peoplePerType(db: Kysely<Database>, operatorId: number, typeIds: number[]): Promise<Map<number, number>> {
  if (typeIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('ticket_types')
    .select(['id', 'people'])
    .where('operator_id', '=', operatorId)
    .where('id', 'in', typeIds)
    .execute();
  return new Map(rows.map((row) => [Number(row.id), Number(row.people)]));
}

/** OCTo bookings' notes (the booking's and the contact's), by booking ID: only OCTo keeps notes. */
export async function octoNotesOf(
  db: Kysely<Database>,
  operatorId: number,
  bookingIds: number[],
): Promise<Map<number, { notes: string | null; contact: string }>> {
  if (bookingIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('octo_bookings')
    .select(['booking_id', 'notes', 'contact'])
    .where('operator_id', '=', operatorId)
    .where('booking_id', 'in', bookingIds)
    .execute();
  return new Map(rows.map((row) => [Number(row.booking_id), { notes: row.notes, contact: row.contact }]));
}

export type AnswerRow = Selectable<QuestionTable> & { booking_id: number; answer: string };

/** The waiver answers of these bookings with their questions, by question position. */
export async function answersOf(db: Kysely<Database>, bookingIds: number[]): Promise<AnswerRow[]> {
  if (bookingIds.length === 0) return [];
  return db
    .selectFrom('waiver_answers')
    .innerJoin('questions', 'questions.id', 'waiver_answers.question_id')
    .selectAll('questions')
    .select(['waiver_answers.answer', 'waiver_answers.booking_id'])
    .where('waiver_answers.booking_id', 'in', bookingIds)
    .orderBy('questions.position')
    .orderBy('questions.id')
    .execute();
}
