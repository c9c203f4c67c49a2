// The outbox: domains write their events here, inside the transaction of the change that causes them, so
// an event commits exactly when its change does (no event without its change, no change without its
// event). The domain code calls these at its lowest shared points (docs/webhooks.md lists them); the
// webhook dispatcher (webhooks/deliveries/dispatch.ts) turns the rows into deliveries later.
//
// Cheap by design, as bookings call them: nothing is written while the operator has no enabled endpoint
// (one indexed read per transaction, shared by a group of bookings), and a transaction writes one outbox
// row holding its events, each with the changed row as JSON; rendering them as the API shows them, giving
// them IDs and fanning them out to endpoints happens in the dispatcher, off the request path.
import { productChanged } from '../hooks/platform-hooks.js';
import type { CompiledQuery } from 'kysely';
import { atCommitValue, firstInTransaction, readOncePerTransaction, runAtCommit, type Tx } from '../db/connection.js';
import type { Selectable } from 'kysely';
import type { ActivityTable, BookingTable } from '../db/schema.js';
import type { Audience, EventType } from './types.js';
import { enabledEndpointExists, insertTimeslotChanges, outboxInsert } from './store.js';
import { dropPartnerReadsAtCommit } from '../http/answer-cache.js';
import { nowMillis } from '../lib/clock.js';

// The seat ledger's statement (bookings/lifecycle/seat-ledger.ts) takes the expired holds' events from here too.
export { expiredEventsCte } from './store.js';

type BookingRow = Selectable<BookingTable>;
type ActivityRow = Selectable<ActivityTable>;

export interface NewEvent {
  type: EventType;
  /** Events of the same change that share its snapshot and data, after `type` (booking.created, booking.confirmed). */
  alsoTypes?: EventType[];
  /** What the event is about (booking:BK-..., timeslot:12, product:s_..., order:7): deliveries keep its order. */
  resource: string;
  audience: Audience;
  partner?: string | null;
  bookingId?: number;
  /**
   * The changed row, for rendering as it was (stored as JSON); null renders the current row (states that
   * never change again).
   */
  snapshot?: object | null;
  /** The resource as the API shows it, when the caller has it at hand. */
  data?: string;
}

/**
 * Whether the operator has an enabled endpoint: read once per transaction (and its group of bookings). Callers
 * that must read to render an event ask first, so that operators without webhooks pay nothing more.
 */
export function operatorListens(tx: Tx, operatorId: number): Promise<boolean> {
  return hasEnabledEndpoint(tx, operatorId, false);
}

/** Whether an enabled endpoint of the operator named usage.recorded (opt-in: the usage path stays free otherwise). */
export function operatorWantsUsage(tx: Tx, operatorId: number): Promise<boolean> {
  return hasEnabledEndpoint(tx, operatorId, true);
}

function hasEnabledEndpoint(tx: Tx, operatorId: number, usage: boolean): Promise<boolean> {
  return readOncePerTransaction(tx, `webhooks-${usage ? 'usage' : 'listen'}:${operatorId}`, () => enabledEndpointExists(tx, operatorId, usage));
}

/** Writes the events, in order, unless the operator has no enabled endpoint. */
export async function recordEvents(tx: Tx, operatorId: number, events: NewEvent[]): Promise<void> {
  if (events.length === 0 || !(await operatorListens(tx, operatorId))) return;
  await appendEntries(
    tx,
    operatorId,
    events.map((event) => {
      const types = [event.type, ...(event.alsoTypes ?? [])].join(' ');
      const snapshot = event.snapshot === undefined || event.snapshot === null ? 'null' : JSON.stringify(event.snapshot);
      // The data is JSON already: spliced in as it is, not encoded a second time.
      return `[${JSON.stringify(types)},${JSON.stringify(event.resource)},"${event.audience}",${JSON.stringify(event.partner ?? null)},${event.bookingId ?? null},${snapshot},${event.data ?? 'null'}]`;
    }),
  );
}

/** Adds entries (JSON arrays, see Outbox) to the transaction's outbox row of the operator. */
async function appendEntries(tx: Tx, operatorId: number, added: string[]): Promise<void> {
  const outbox = await outboxOf(tx);
  let entries = outbox.byOperator.get(operatorId);
  if (!entries) outbox.byOperator.set(operatorId, (entries = []));
  entries.push(...added);
  outbox.count += added.length;
  // Registered once the outbox holds an event; the statement is built from the outbox when the commit reads it.
  if (firstInTransaction(tx, 'webhooks-outbox-insert')) {
    runAtCommit(tx, {
      get query() {
        if (outbox.compiled?.count !== outbox.count) outbox.compiled = { count: outbox.count, query: insertStatement(tx, outbox.byOperator) };
        return outbox.compiled.query;
      },
      explain: async () => undefined,
      // New rows only: the seat updates' lock on the timeslot (PostgreSQL) is not held while it is written.
      first: true,
    });
  }
}

/**
 * The events of a transaction (and of its group of bookings), by operator, each as the JSON text of
 * [types, resource, audience, partner, booking ID, snapshot, data], or of a booking's [types, packed row]
 * (bookingEventFields reads the rest from the row). They are written as one outbox row per
 * operator by one INSERT as the transaction commits: one small write for a whole group of bookings, and
 * on PostgreSQL in the round trip of the COMMIT itself (db/connection.ts, runAtCommit).
 */
interface Outbox {
  byOperator: Map<number, string[]>;
  count: number;
  compiled?: { count: number; query: CompiledQuery };
}

function outboxOf(tx: Tx): Promise<Outbox> {
  return readOncePerTransaction(tx, 'webhooks-outbox', async () => ({ byOperator: new Map(), count: 0 }));
}

/** Run at commit: its values written in on PostgreSQL, parameters on SQLite (atCommitValue). */
function insertStatement(tx: Tx, byOperator: Map<number, string[]>): CompiledQuery {
  return outboxInsert(tx, byOperator, (v) => atCommitValue(tx, v), nowMillis());
}

const bookingAudience = (row: Pick<BookingRow, 'source'>): Audience => (row.source === 'partner' ? 'partner' : 'operator');

/**
 * Events about one booking, with the row as it is now in this transaction (the dispatcher renders it as
 * the API's Booking). Called by the bookings store wherever a booking is inserted or changed. The events of
 * one change (booking.created and booking.confirmed) share one entry, and its snapshot.
 */
export async function recordBookingEvents(tx: Tx, row: BookingRow, types: [EventType, ...EventType[]]): Promise<void> {
  if (!(await operatorListens(tx, row.operator_id))) return;
  // The short form: every booking writes one, so one JSON.stringify and about a third fewer bytes.
  await appendEntries(tx, row.operator_id, [JSON.stringify([types.join(' '), packBooking(row)])]);
}

/** What a booking's short entry leaves out, read from its packed row (the dispatcher's side of the above). */
export function bookingEventFields(packed: unknown[]): { resource: string; audience: Audience; partner: string | null; bookingId: number } {
  const row = unpackBooking(packed);
  return { resource: `booking:${row.reference}`, audience: bookingAudience(row), partner: row.partner, bookingId: row.id };
}

/**
 * The webhook event of an activity written in this transaction, with the row as it now is (the dispatcher
 * renders it with its ticket types as they are then). Partners see it unless the activity is archived
 * (then only its archiving reaches them: they must stop selling it).
 */
export async function recordProductEvent(tx: Tx, row: ActivityRow, type: Extract<EventType, `product.${string}`>): Promise<void> {
  // The partner API's cached products show it (http/answer-cache.ts): dropped at the commit.
  dropPartnerReadsAtCommit(tx, row.operator_id);
  const audience = row.archived === 1 && type !== 'product.archived' ? 'operator' : 'public';
  await recordEvents(tx, row.operator_id, [{ type, resource: `product:${row.public_id}`, audience, snapshot: row }]);
  // A new product has no dates a marketplace could know; a changed one may have new prices there.
  if (type === 'product.updated') await productChanged.run(tx, row, nowMillis());
}

/**
 * A booking row's columns in the order a snapshot lists their values: a bare array is less than half the
 * size of the object, and bookings write one per change. The type check makes a new column of bookings a
 * compile error here until it is listed.
 */
const BOOKING_LAYOUT = [
  'id',
  'operator_id',
  'reference',
  'timeslot_id',
  'status',
  'source',
  'partner',
  'payment_reference',
  'participants',
  'customer_first_name',
  'customer_last_name',
  'customer_email',
  'customer_phone',
  'waiver_status',
  'hold_expires_at',
  'created_at',
  'cancelled_at',
  'seats',
  // Added by migration 033: snapshots packed before it have no locale (undefined when read back).
  'locale',
] as const satisfies readonly (keyof BookingRow)[];
type Unlisted = Exclude<keyof BookingRow, (typeof BOOKING_LAYOUT)[number]>;
const everyColumnListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyColumnListed;

const packBooking = (row: BookingRow): unknown[] => BOOKING_LAYOUT.map((column) => row[column]);

/** A booking snapshot read back: the packed array (or a row object, as written by hand). */
export function unpackBooking(snapshot: unknown): BookingRow {
  if (!Array.isArray(snapshot)) return snapshot as BookingRow;
  return Object.fromEntries(BOOKING_LAYOUT.map((column, i) => [column, snapshot[i]])) as unknown as BookingRow;
}

/** The guest's contact columns of a booking, as an erasure overwrites them (guests/). */
export type BookingContact = Pick<BookingRow, 'customer_first_name' | 'customer_last_name' | 'customer_email' | 'customer_phone'>;

/**
 * An outbox row's events (its `events` JSON) with the guest erased from them (guests/service.ts): the
 * snapshots of `bookingIds` get `contact`, and the data of events about `resources` goes through `scrub`.
 * Answers the text unchanged when nothing in it was the guest's.
 */
export function eraseFromOutbox(
  events: string,
  bookingIds: ReadonlySet<number>,
  resources: ReadonlySet<string>,
  contact: BookingContact,
  scrub: (value: unknown) => unknown,
): string {
  let changed = false;
  const withContact = (snapshot: unknown): unknown => {
    changed = true;
    return Array.isArray(snapshot) ? packBooking({ ...unpackBooking(snapshot), ...contact }) : { ...(snapshot as object), ...contact };
  };
  const entries = (JSON.parse(events) as unknown[][]).map((entry) => {
    if (entry.length === 2) return bookingIds.has(unpackBooking(entry[1]).id) ? [entry[0], withContact(entry[1])] : entry;
    const [types, resource, audience, partner, bookingId, snapshot, data] = entry;
    const ours = resources.has(String(resource));
    const mine = typeof bookingId === 'number' && bookingIds.has(bookingId) && snapshot !== null;
    if (!ours && !mine) return entry;
    if (ours && data !== null) changed = true;
    return [types, resource, audience, partner, bookingId, mine ? withContact(snapshot) : snapshot, ours && data !== null ? scrub(data) : data];
  });
  return changed ? JSON.stringify(entries) : events;
}

/**
 * Notes that the seats or the capacity of the operator's timeslots changed (once per transaction and
 * timeslot). The dispatcher turns notes into availability.changed events, at most one per timeslot every
 * few seconds (one statement; it writes nothing while the operator has no enabled endpoint nor a
 * switched-on GetYourGuide connection), and the partner API's cached answers of the operator are dropped
 * when the transaction commits (http/answer-cache.ts). Every writer of seats calls this: the seat ledger
 * and the timeslot store.
 */
export async function noteSeatsChanged(tx: Tx, operatorId: number, timeslotIds: number[]): Promise<void> {
  if (timeslotIds.length === 0) return;
  dropPartnerReadsAtCommit(tx, operatorId);
  const ids = timeslotIds.filter((id) => firstInTransaction(tx, `webhooks-seats:${id}`));
  const changedAt = nowMillis();
  // A weekly schedule creates thousands of timeslots: well under either database's limit of parameters.
  for (let start = 0; start < ids.length; start += NOTES_PER_STATEMENT) {
    const chunk = ids.slice(start, start + NOTES_PER_STATEMENT);
    await insertTimeslotChanges(tx, chunk, changedAt);
  }
}

const NOTES_PER_STATEMENT = 500;
