// Manifests (who is on a timeslot, with tickets, channel, waiver and check-in), check-in and undo, and the
// no-show report. A guide (manifests:today) sees and checks in today's timeslots only, "today" being the
// date in the timeslot's activity's time zone; manifests:read (front desk and up) sees any day.
import type { Kysely } from 'kysely';
import type { Db } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { Forbidden, NotFound, ValidationFailed } from '../http/errors.js';
import { can, type Actor } from '../access/actor.js';
import { audit } from '../audit/log.js';
import { todayIn, unixToZonedIso, daysBetween } from '../calendar/zoned-time.js';
import { bookingTicketsOf } from '../catalog/index.js';
import { timeslotsAskingRequired } from '../questions/index.js';
import { waiverMissing } from '../questions/waiver.js';
import { checkinLines, checkinsOf, firstCheckinAt, setCheckin, type CheckinLine, type CheckinRequest } from '../bookings/checkin.js';
import { findBooking } from '../bookings/index.js';
import { effectiveStatus } from '../bookings/view.js';
import { answersWithFile } from '../questions/view.js';
import { findAnsweredFile, findUploadSummaries, type UploadRow } from '../questions/index.js';
import type { BookingWaiverAnswer } from '../questions/schemas.js';
import {
  answersOf,
  bookingByReference,
  confirmedBookingsOf,
  findSlot,
  mainZone,
  octoNotesOf,
  operatorZones,
  peoplePerType,
  slotsBetween,
  type ManifestBookingRow,
  type ManifestSlotRow,
} from './store.js';
import { formatMinorUnits } from '../lib/money.js';
import { channelName, isNativeChannel } from '../lib/marketplaces.js';
import { owedOf, type Owed } from '../payments/booking-money.js';
import type {
  Attendance,
  CheckinAnswer,
  DueAmount,
  ManifestDay,
  ManifestEntry,
  ManifestTimeslot,
  NoShowReport,
  TimeslotManifest,
} from './schemas.js';
import { nowMillis, toSeconds, type UnixMillis, type UnixSeconds } from '../lib/clock.js';

/** The longest period of one no-show report. */
export const MAX_REPORT_DAYS = 92;

const TODAY_ONLY = 'Your role shows today\'s manifests only: another day needs the "manifests:read" permission';

/** A guide may see a timeslot of today (in its activity's zone); manifests:read any day. */
function assertDayAllowed(actor: Actor | undefined, slot: Pick<ManifestSlotRow, 'date' | 'timezone'>, nowMs: UnixMillis): void {
  if (can(actor, 'manifests:read')) return;
  if (slot.date !== todayIn(slot.timezone, nowMs)) throw new Forbidden(TODAY_ONLY);
}

const channelOf = (booking: ManifestBookingRow, viaOcto: boolean): string => {
  // A marketplace's booking says which interface it came through; GetYourGuide and Viator book through
  // their own supplier APIs and are named by themselves, like the shop and the point of sale.
  if (booking.source === 'partner' && (viaOcto || !isNativeChannel(booking.partner)))
    return `${viaOcto ? 'OCTo' : 'Partner API'}: ${booking.partner ?? ''}`;
  return channelName(booking.source, booking.partner);
};

function attendanceOf(lines: CheckinLine[], checkedInPeople: number, ended: boolean): Attendance {
  if (checkedInPeople === 0 && lines.every((line) => line.checkedIn === 0)) return ended ? 'no-show' : 'not-arrived';
  return lines.every((line) => line.checkedIn >= line.quantity) ? 'checked-in' : 'partial';
}

const isoMs = (ms: UnixMillis | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** What a timeslot's summary and entries are built from, read for many bookings at once. */
interface EntryParts {
  lines: Map<number, CheckinLine[]>;
  people: Map<number, number>;
  octo: Map<number, { notes: string | null; contact: string }>;
  answers: Map<number, BookingWaiverAnswer[]>;
  owed: Map<number, Owed>;
  /** The bookings' timeslots whose activity asks a required question (a pending waiver there is missing). */
  asking: Set<number>;
}

async function readParts(db: Kysely<Database>, operatorId: number, bookings: ManifestBookingRow[], withAnswers: boolean): Promise<EntryParts> {
  const ids = bookings.map((booking) => Number(booking.id));
  const [tickets, checkins, octo, owed, asking] = await Promise.all([
    bookingTicketsOf(db, ids),
    checkinsOf(db, ids),
    octoNotesOf(db, operatorId, ids),
    owedOf(db, operatorId, ids),
    timeslotsAskingRequired(db, operatorId, [...new Set(bookings.map((booking) => Number(booking.timeslot_id)))]),
  ]);
  const lines = new Map(ids.map((id) => [id, checkinLines(tickets.get(id) ?? [], checkins.get(id) ?? [])]));
  const typeIds = [...new Set([...lines.values()].flat().map((line) => line.ticketTypeId))];
  const people = await peoplePerType(db, operatorId, typeIds);
  const answers = new Map<number, BookingWaiverAnswer[]>(ids.map((id) => [id, []]));
  if (withAnswers) {
    const rows = await answersOf(db, ids);
    const fileIds = rows.filter((row) => answersWithFile(row)).map((row) => row.answer);
    const files = new Map((await findUploadSummaries(db, operatorId, fileIds)).map((file) => [file.public_id, file]));
    const referenceOf = new Map(bookings.map((booking) => [Number(booking.id), booking.reference]));
    for (const row of rows) {
      const file = answersWithFile(row) ? files.get(row.answer) : undefined;
      const reference = referenceOf.get(Number(row.booking_id))!;
      answers.get(Number(row.booking_id))?.push({
        QuestionID: row.id,
        Question: row.question,
        Type: row.type,
        Answer: row.answer,
        // The manifest's own file address: a guide (no bookings:read) may open the files of today's guests.
        File: file
          ? {
              FileID: file.public_id,
              ContentType: file.content_type,
              Size: file.size,
              Download: `/api/v2/admin/manifests/bookings/${reference}/files/${file.public_id}`,
            }
          : null,
      });
    }
  }
  return { lines, people, octo, answers, owed, asking };
}

function notesOf(octo: { notes: string | null; contact: string } | undefined): string | null {
  if (!octo) return null;
  const contactNotes = (JSON.parse(octo.contact) as { notes?: string | null }).notes ?? null;
  const notes = [octo.notes, contactNotes].filter((text): text is string => typeof text === 'string' && text.trim() !== '');
  return notes.length === 0 ? null : notes.join('\n');
}

function toEntry(booking: ManifestBookingRow, parts: EntryParts, ended: boolean, nowSec: UnixSeconds): ManifestEntry {
  const id = Number(booking.id);
  const lines = parts.lines.get(id) ?? [];
  const peopleOf = (line: CheckinLine) => parts.people.get(line.ticketTypeId) ?? 1;
  const checkedIn = lines.reduce((sum, line) => sum + line.checkedIn * peopleOf(line), 0);
  return {
    BookingReference: booking.reference,
    Status: effectiveStatus(booking, nowSec),
    Customer: {
      FirstName: booking.customer_first_name,
      LastName: booking.customer_last_name,
      Email: booking.customer_email,
      Phone: booking.customer_phone,
    },
    Participants: booking.participants,
    Tickets: lines.map((line) => ({ Type: line.code, Name: line.name, Quantity: line.quantity, People: peopleOf(line), CheckedIn: line.checkedIn })),
    CheckedIn: checkedIn,
    CheckedInAt: isoMs(firstCheckinAt(lines)),
    Attendance: attendanceOf(lines, checkedIn, ended),
    Source: booking.source,
    Channel: channelOf(booking, parts.octo.has(id)),
    Partner: booking.partner,
    WaiverStatus: booking.waiver_status === 'complete' ? 'complete' : 'pending',
    WaiverMissing: waiverMissing(booking, parts.asking),
    WaiverAnswers: parts.answers.get(id) ?? [],
    Notes: notesOf(parts.octo.get(id)),
    ...dueOf(parts.owed.get(id)),
  };
}

function dueOf(owed: Owed | undefined): Pick<ManifestEntry, 'PaymentState' | 'AmountDue' | 'AmountDueMinorUnits' | 'Currency'> {
  const currency = owed?.Currency ?? '';
  const due = owed?.AmountDue ?? 0;
  return { PaymentState: owed?.PaymentState ?? 'unpaid', AmountDue: formatMinorUnits(due, currency), AmountDueMinorUnits: due, Currency: currency };
}

/** What these entries still owe, per currency with something due, by currency code. */
function dueTotals(entries: Pick<ManifestEntry, 'AmountDueMinorUnits' | 'Currency'>[]): DueAmount[] {
  const totals = new Map<string, number>();
  for (const entry of entries) {
    if (entry.AmountDueMinorUnits > 0) totals.set(entry.Currency, (totals.get(entry.Currency) ?? 0) + entry.AmountDueMinorUnits);
  }
  return [...totals]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([Currency, minor]) => ({ Currency, Amount: formatMinorUnits(minor, Currency), AmountMinorUnits: minor }));
}

function toSummary(slot: ManifestSlotRow, entries: ManifestEntry[], nowSec: UnixSeconds): ManifestTimeslot {
  const confirmed = entries.filter((entry) => entry.Status === 'confirmed');
  const ended = slot.ends_at <= nowSec;
  return {
    TimeslotID: slot.id,
    ActivityID: slot.activity_public_id,
    ActivityName: slot.activity_name,
    Date: slot.date,
    Time: slot.time,
    TimeZone: slot.timezone,
    StartsAt: unixToZonedIso(slot.starts_at, slot.timezone),
    EndsAt: unixToZonedIso(slot.ends_at, slot.timezone),
    Ended: ended,
    Capacity: slot.capacity,
    Bookings: confirmed.length,
    Guests: confirmed.reduce((sum, entry) => sum + entry.Participants, 0),
    CheckedIn: confirmed.reduce((sum, entry) => sum + entry.CheckedIn, 0),
    NoShows: ended ? confirmed.filter((entry) => entry.Attendance === 'no-show').length : 0,
    Due: dueTotals(confirmed),
  };
}

/** The manifests of several timeslots: each with its confirmed bookings' entries. */
async function manifestsOf(
  db: Kysely<Database>,
  operatorId: number,
  slots: ManifestSlotRow[],
  withAnswers: boolean,
  nowMs: UnixMillis,
): Promise<TimeslotManifest[]> {
  const nowSec = toSeconds(nowMs);
  const bookings = await confirmedBookingsOf(
    db,
    operatorId,
    slots.map((slot) => slot.id),
  );
  const parts = await readParts(db, operatorId, bookings, withAnswers);
  const endedOf = new Map(slots.map((slot) => [slot.id, slot.ends_at <= nowSec]));
  const bySlot = new Map<number, ManifestEntry[]>(slots.map((slot) => [slot.id, []]));
  for (const booking of bookings) {
    bySlot.get(Number(booking.timeslot_id))?.push(toEntry(booking, parts, endedOf.get(Number(booking.timeslot_id)) ?? false, nowSec));
  }
  return slots.map((slot) => {
    const entries = bySlot.get(slot.id) ?? [];
    return { Timeslot: toSummary(slot, entries, nowSec), Entries: entries };
  });
}

/**
 * The day's timeslots with their counts. Without a date: each activity's own today (in its time zone:
 * a tour in Los Angeles and one in Kiritimati are both on it, on different dates), labelled by zone.
 * With a date: that date's timeslots, each date read in its activity's zone. A guide may ask only for
 * today (a date that is today in one of the operator's zones: 403 otherwise) and sees only the
 * timeslots whose activity is on that date today.
 */
export async function dayManifest(
  db: Kysely<Database>,
  actor: Actor | undefined,
  operatorId: number,
  date: string | undefined,
  nowMs = nowMillis(),
): Promise<ManifestDay> {
  const anyDay = can(actor, 'manifests:read');
  // An operator without activities yet has UTC's today (an empty day).
  const zones = await operatorZones(db, operatorId);
  const todayOf = new Map((zones.length === 0 ? ['UTC'] : zones).map((zone) => [zone, todayIn(zone, nowMs)]));
  const todays = [...new Set(todayOf.values())].sort();
  let slots: ManifestSlotRow[];
  if (date === undefined) {
    const between = await slotsBetween(db, operatorId, todays[0]!, todays.at(-1)!);
    slots = between.filter((slot) => todayOf.get(slot.timezone) === slot.date).sort(byTimeOfDay);
  } else {
    if (!anyDay && !todays.includes(date)) throw new Forbidden(TODAY_ONLY);
    slots = (await slotsBetween(db, operatorId, date, date)).filter((slot) => anyDay || todayOf.get(slot.timezone) === date);
  }
  const manifests = await manifestsOf(db, operatorId, slots, false, nowMs);
  return {
    Date: date ?? todayIn((await mainZone(db, operatorId)) ?? 'UTC', nowMs),
    Today: date === undefined,
    Timeslots: manifests.map((manifest) => manifest.Timeslot),
    Due: dueTotals(manifests.flatMap((manifest) => manifest.Entries)),
  };
}

/** Today's timeslots of several zones side by side: by the clock time each shows, then activity. */
const byTimeOfDay = (a: ManifestSlotRow, b: ManifestSlotRow) =>
  a.time.localeCompare(b.time) || a.activity_name.localeCompare(b.activity_name) || a.id - b.id;

export async function timeslotManifest(
  db: Kysely<Database>,
  actor: Actor | undefined,
  operatorId: number,
  timeslotId: number,
  nowMs = nowMillis(),
): Promise<TimeslotManifest> {
  const slot = await findSlot(db, operatorId, timeslotId);
  if (!slot) throw new NotFound(`No timeslot ${timeslotId}`);
  assertDayAllowed(actor, slot, nowMs);
  const [manifest] = await manifestsOf(db, operatorId, [slot], true, nowMs);
  return manifest!;
}

/** A booking as the manifest shows it, whatever its status, with its timeslot: the door's look-up by reference. */
async function checkinView(
  db: Kysely<Database>,
  actor: Actor | undefined,
  operatorId: number,
  reference: string,
  nowMs: UnixMillis,
): Promise<Omit<CheckinAnswer, 'Changed'>> {
  const booking = await bookingByReference(db, operatorId, reference);
  if (!booking) throw new NotFound(`No booking ${reference}`);
  const slot = await findSlot(db, operatorId, Number(booking.timeslot_id));
  if (!slot) throw new NotFound(`No booking ${reference}`);
  assertDayAllowed(actor, slot, nowMs);
  const nowSec = toSeconds(nowMs);
  const [manifest] = await manifestsOf(db, operatorId, [slot], false, nowMs);
  const parts = await readParts(db, operatorId, [booking], true);
  return { Timeslot: manifest!.Timeslot, Booking: toEntry(booking, parts, slot.ends_at <= nowSec, nowSec) };
}

export async function lookUpBooking(
  db: Kysely<Database>,
  actor: Actor | undefined,
  operatorId: number,
  reference: string,
  nowMs = nowMillis(),
): Promise<CheckinAnswer> {
  return { ...(await checkinView(db, actor, operatorId, reference, nowMs)), Changed: false };
}

const countsOf = (lines: CheckinLine[]) => Object.fromEntries(lines.map((line) => [line.code, line.checkedIn]));

/**
 * Checks in (all, or counts per ticket type) or undoes (`none`) in one transaction with its audit entry.
 * The day rule first (a guide: today only), then the booking's status (409 unless confirmed), then the
 * counts (422 naming the field). Asking for what already is writes nothing, not even an audit entry.
 */
export async function changeCheckin(
  db: Db,
  actor: Actor | undefined,
  operatorId: number,
  reference: string,
  request: CheckinRequest,
  nowMs = nowMillis(),
): Promise<CheckinAnswer> {
  const booking = await findBooking(db.kysely, operatorId, reference);
  if (!booking) throw new NotFound(`No booking ${reference}`);
  assertDayAllowed(actor, booking, nowMs);
  const changed = await db.write(async (tx) => {
    const outcome = await setCheckin(tx, booking, request, nowMs);
    if (outcome.changed) {
      await audit(tx, {
        operatorId,
        action: request.kind === 'none' ? 'booking.check-in-undo' : 'booking.check-in',
        resource: { type: 'booking', id: reference },
        before: { CheckedIn: countsOf(outcome.before) },
        after: {
          CheckedIn: countsOf(outcome.after),
          // Who let a guest in without a signed waiver is the question after an accident.
          ...(booking.waiver_status !== 'complete' && request.kind !== 'none' && request.waiverConfirmed ? { WaiverConfirmed: true } : {}),
        },
      });
    }
    return outcome.changed;
  });
  return { ...(await checkinView(db.kysely, actor, operatorId, reference, nowMs)), Changed: changed };
}

/** The file of a waiver answer of a booking the caller may see on a manifest (a guide: today's). */
export async function manifestFile(
  db: Kysely<Database>,
  actor: Actor | undefined,
  operatorId: number,
  reference: string,
  fileId: string,
  nowMs = nowMillis(),
): Promise<UploadRow> {
  const booking = await findBooking(db, operatorId, reference);
  if (!booking) throw new NotFound(`Booking ${reference} has no file ${fileId}`);
  assertDayAllowed(actor, booking, nowMs);
  const file = await findAnsweredFile(db, operatorId, booking.id, fileId);
  if (!file) throw new NotFound(`Booking ${reference} has no file ${fileId}`);
  return file;
}

/**
 * Ended timeslots from `from` to `to` with the bookings somebody did not come to: no-shows (nobody
 * checked in) and partial ones. Timeslots that have not ended yet are not in it.
 */
export async function noShowReport(db: Kysely<Database>, operatorId: number, from: string, to: string, nowMs = nowMillis()): Promise<NoShowReport> {
  if (to < from) throw ValidationFailed.field('To', 'To must not be before From');
  if (daysBetween(from, to) > MAX_REPORT_DAYS) throw ValidationFailed.field('To', `At most ${MAX_REPORT_DAYS} days after From`);
  const nowSec = toSeconds(nowMs);
  const ended = (await slotsBetween(db, operatorId, from, to)).filter((slot) => slot.ends_at <= nowSec);
  const manifests = await manifestsOf(db, operatorId, ended, false, nowMs);
  const timeslots = manifests
    .map((manifest) => ({
      Timeslot: manifest.Timeslot,
      Entries: manifest.Entries.filter((entry) => entry.Attendance === 'no-show' || entry.Attendance === 'partial'),
    }))
    .filter((manifest) => manifest.Entries.length > 0);
  const entries = timeslots.flatMap((slot) => slot.Entries);
  return {
    From: from,
    To: to,
    Bookings: entries.filter((entry) => entry.Attendance === 'no-show').length,
    Guests: entries.reduce((sum, entry) => sum + entry.Participants - entry.CheckedIn, 0),
    Timeslots: timeslots,
  };
}
