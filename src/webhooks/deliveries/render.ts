// Events as the API shows their resource. Bookings and products are written to the outbox as the changed
// row (cheap in the transaction that changes them) and rendered here, by the dispatcher, with the same
// view functions the API uses: a booking at the moment of its event (its row then, and the timeslot and
// activity facts that never change for it), a timeslot as it is when its availability.changed is made.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toBooking } from '../../bookings/view.js';
import type { ActivityRow } from '../../catalog/index.js';
import { toAdminProduct } from '../../catalog/service.js';
import { activityPhotos } from '../../catalog/photos/service.js';
import { toAdminTimeslot } from '../../availability/service.js';
import { findZonedTimeslotsById } from '../../availability/index.js';
import { bookingTicketsOf, ticketTypesByActivity } from '../../catalog/index.js';
import type { BookingRow } from '../../bookings/index.js';
import { bookingEventFields, unpackBooking } from '../../events/outbox.js';
import type { Audience } from '../../events/types.js';
import { bookingsById } from './store.js';
import { asUnixMillis, asUnixSeconds, toSeconds, type UnixMillis, type UnixSeconds } from '../../lib/clock.js';

/** One event read from the outbox (a row holds the events of one transaction, an entry one per type). */
export interface OutboxEvent {
  operatorId: number;
  type: string;
  resource: string;
  audience: Audience;
  partner: string | null;
  bookingId: number | null;
  /** The changed row (a booking's packed as an array), or null: render the current row. */
  snapshot: unknown;
  /** The resource as the API shows it, when the change had it at hand. */
  data: unknown;
  /** Unix milliseconds: when its transaction committed. */
  createdAt: UnixMillis;
}

type LongEntry = [string, string, Audience, string | null, number | null, unknown, unknown];
/** An entry of an outbox row: every field, or a booking's types and packed row (outbox.ts). */
type OutboxEntry = LongEntry | [string, unknown[]];

/** An entry's every field: a booking's short entry has its resource, audience, partner and ID read from its row. */
function fieldsOf(entry: OutboxEntry): LongEntry {
  if (entry.length !== 2) return entry;
  const { resource, audience, partner, bookingId } = bookingEventFields(entry[1]);
  return [entry[0], resource, audience, partner, bookingId, entry[1], null];
}

/** The events of an outbox row, one per type, in order. */
export function expandOutbox(row: { operator_id: number; events: string; created_at: UnixMillis }): OutboxEvent[] {
  return (JSON.parse(row.events) as OutboxEntry[]).flatMap((entry) => {
    const [types, resource, audience, partner, bookingId, snapshot, data] = fieldsOf(entry);
    return types.split(' ').map((type) => ({
      operatorId: row.operator_id,
      type,
      resource,
      audience,
      partner,
      bookingId,
      snapshot,
      data,
      createdAt: asUnixMillis(Number(row.created_at)),
    }));
  });
}

/** The public ID of an event, sent as webhook-id. */
export const newEventId = (): string => `evt_${randomBytes(12).toString('base64url')}`;

/** The body sent for an event: always the same bytes for the same event, on every attempt and replay. */
export function eventBody(event: { public_id: string; type: string; created_at: UnixMillis; data: string }): string {
  const timestamp = new Date(Number(event.created_at)).toISOString();
  return `{"id":${JSON.stringify(event.public_id)},"type":${JSON.stringify(event.type)},"timestamp":"${timestamp}","data":${event.data}}`;
}

const IN_CHUNK = 500;

async function inChunks<T>(ids: number[], read: (chunk: number[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < ids.length; start += IN_CHUNK) out.push(...(await read(ids.slice(start, start + IN_CHUNK))));
  return out;
}

/** Each event's data, in order: the resource as the API shows it, or null when it is gone. */
export async function renderEvents(db: Kysely<Database>, events: OutboxEvent[], publicUrl = ''): Promise<(string | null)[]> {
  // Bookings whose event kept no row: states that never change again (expired), read as they are now.
  const unsnapped = [...new Set(events.filter((e) => e.data === null && e.snapshot === null && e.bookingId !== null).map((e) => e.bookingId!))];
  const current = new Map((await inChunks(unsnapped, (chunk) => bookingsById(db, chunk))).map((row) => [row.id, row]));
  // The events of one change (booking.created and booking.confirmed) share their snapshot, and so one row.
  const unpacked = new Map<unknown, BookingRow>();
  const bookings = events.map((event) => {
    if (event.data !== null || !event.type.startsWith('booking.')) return undefined;
    if (event.snapshot === null) return current.get(event.bookingId!);
    let row = unpacked.get(event.snapshot);
    if (!row) unpacked.set(event.snapshot, (row = unpackBooking(event.snapshot)));
    return row;
  });
  const slotIds = [...new Set(bookings.filter((row) => row !== undefined).map((row) => Number(row.timeslot_id)))];
  const slots = new Map((await inChunks(slotIds, (chunk) => findZonedTimeslotsById(db, chunk, asUnixSeconds(0)))).map((slot) => [slot.id, slot]));
  // A booking's tickets (and an activity's ticket types) as they are now: an amendment that changed them
  // since shows its own booking.updated.
  const bookingIds = [...new Set(bookings.filter((row) => row !== undefined).map((row) => Number(row.id)))];
  const tickets = new Map(await inChunks(bookingIds, async (chunk) => [...(await bookingTicketsOf(db, chunk))]));
  const activityIds = [
    ...new Set(events.filter((e) => e.type.startsWith('product.') && e.snapshot !== null).map((e) => (e.snapshot as ActivityRow).id)),
  ];
  const types = new Map(await inChunks(activityIds, async (chunk) => [...(await ticketTypesByActivity(db, chunk))]));
  const photos = new Map(await inChunks(activityIds, async (chunk) => [...(await activityPhotos(db, chunk, publicUrl))]));

  // Events that share a snapshot share their moment too (one change): rendered once.
  const rendered = new Map<unknown, string>();
  return events.map((event, index) => {
    if (event.data !== null) return JSON.stringify(event.data);
    if (event.type.startsWith('product.') && event.snapshot !== null) {
      const activity = event.snapshot as ActivityRow;
      return JSON.stringify(toAdminProduct(activity, { types: types.get(activity.id) ?? [], photos: photos.get(activity.id) ?? [] }));
    }
    const row = bookings[index];
    const slot = row && slots.get(Number(row.timeslot_id));
    if (!row || !slot) return null;
    let data = event.snapshot === null ? undefined : rendered.get(event.snapshot);
    if (data === undefined) {
      const record = {
        ...row,
        activity_public_id: slot.activity_public_id,
        timezone: slot.timezone,
        date: slot.date,
        time: slot.time,
        starts_at: slot.starts_at,
      };
      // The booking as it was at its event: a hold reads as on hold, even if it has lapsed since.
      data = JSON.stringify(toBooking(record, tickets.get(Number(row.id)) ?? [], toSeconds(event.createdAt)));
      if (event.snapshot !== null) rendered.set(event.snapshot, data);
    }
    return data;
  });
}

/** Timeslots as the operator API shows them now, with whether their activity is archived (partners do not see those). */
export async function renderTimeslots(
  db: Kysely<Database>,
  ids: number[],
  now: UnixSeconds,
): Promise<Map<number, { data: string; archived: boolean; operatorId: number }>> {
  const rows = await inChunks(ids, (chunk) => findZonedTimeslotsById(db, chunk, now));
  return new Map(
    rows.map((row) => [
      row.id,
      {
        data: JSON.stringify(toAdminTimeslot(row, row.activity_public_id, row.timezone, now)),
        archived: Number(row.archived) === 1,
        operatorId: row.operator_id,
      },
    ]),
  );
}
